"""``manage.py vapid_keys``: a new VAPID key for a new install's Web Push.

Prints the line to put in the environment. Keep the key for good: browsers subscribed
with its public half, and a new key stops every subscription made before it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from py_vapid import Vapid02

from games.alerts.push import b64url, public_key_of


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as lines for the environment."

    def handle(self, *args: object, **options: object) -> None:
        key = Vapid02()
        key.generate_keys()
        private = key.private_key.private_numbers().private_value.to_bytes(32, "big")
        self.stdout.write(f"VAPID_PRIVATE_KEY={b64url(private)}")
        self.stdout.write(f"# its public half, which pages subscribe with: {public_key_of(key)}")

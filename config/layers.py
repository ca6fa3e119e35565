"""The in-memory channel layer of the embedded default, with its clean-up rationed.

Channels' InMemoryChannelLayer looks through every channel and every group for expired
messages on each receive: with a few hundred sockets open that is most of a busy table's
channel-layer time, and it grows with the square of the sockets. Expired messages can wait a
second to be swept; nothing else about the layer changes.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class RationedInMemoryChannelLayer(InMemoryChannelLayer):
    _swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            super()._clean_expired()

"""What a device remembers about crews: a random token that names the device. There are no
accounts: a member row records which device is that member (``Member.device``)."""

from __future__ import annotations

import secrets
from typing import Any


def device(session: Any) -> str:
    """This device's token, made the first time it is asked for."""
    token = session.get("device")
    if not token:
        token = session["device"] = secrets.token_urlsafe(24)
    return token


def known_device(session: Any) -> str:
    """This device's token if it has one, without making one (a page that only reads)."""
    return session.get("device", "")

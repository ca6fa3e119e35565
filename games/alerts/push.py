"""Web Push: the keys the server signs with (VAPID), the push services it will post to,
and sending one alert to every device of a seat.

A browser's subscription names the address its push service gave it; the server posts the
encrypted alert there. Since a client chooses that address, a subscription is saved only
when its endpoint is ``https`` on a host of ``WEB_PUSH_SERVICES`` (the push services the
browsers use): otherwise any client could have the server post to an address of its
choosing (a private address, a service inside the network).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from fnmatch import fnmatchcase
from functools import cache
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from games.models import TableSeat

from .events import Alert
from .models import PushSubscription

log = logging.getLogger(__name__)

DEVICES = 5  # subscriptions a seat keeps: a new one past these replaces the oldest
TIMEOUT = 10  # seconds a push service has to take a message
TTL = 24 * 3600  # seconds a push service keeps a message for a device that is off


class BadSubscription(ValueError):
    """A subscription the server will not post to; the text says why."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@cache
def vapid(private_key: str) -> Vapid02 | None:
    """The server's signing key, from ``VAPID_PRIVATE_KEY`` (its 32 bytes, base64url)."""
    if not private_key:
        return None
    return Vapid02.from_raw(private_key.encode())


def public_key() -> str:
    """The key a page subscribes with (``applicationServerKey``), '' while push is not set
    up: the public half of the private key, so the two cannot disagree."""
    key = vapid(settings.VAPID_PRIVATE_KEY)
    return "" if key is None else public_key_of(key)


def public_key_of(key: Vapid02) -> str:
    """A key's public half as a page passes it to ``pushManager.subscribe``: the
    uncompressed point, base64url."""
    point = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def allowed(endpoint: str) -> bool:
    """Whether ``endpoint`` is on a push service of ``WEB_PUSH_SERVICES``: each entry an
    origin, ``https://host`` (a host may begin with ``*.``), or with a port."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if (
        parts.username
        or parts.password
        or not parts.hostname
        or parts.scheme not in ("https", "http")
    ):
        return False
    for entry in settings.WEB_PUSH_SERVICES:
        allowed_parts = urlsplit(entry)
        if (
            allowed_parts.scheme == parts.scheme
            and fnmatchcase(parts.hostname, allowed_parts.hostname or "")
            and port == allowed_parts.port
        ):
            return True
    return False


def checked(data: object) -> dict:
    """A subscription as a page sent it (``PushSubscription.toJSON()``), checked: an
    allowed endpoint, and the browser's keys of the right sizes."""
    if not isinstance(data, dict):
        raise BadSubscription("A subscription is an object with an endpoint and keys.")
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or len(endpoint) > 1000 or not allowed(endpoint):
        raise BadSubscription(
            "This browser's push service is not one this site sends to, so alerts cannot "
            "reach this device."
        )
    if not isinstance(keys, dict):
        raise BadSubscription("A subscription carries the browser's keys.")
    try:
        p256dh = unb64url(str(keys.get("p256dh", "")))
        auth = unb64url(str(keys.get("auth", "")))
    except (binascii.Error, ValueError):
        raise BadSubscription("The browser's keys could not be read.") from None
    if len(p256dh) != 65 or p256dh[0] != 4 or len(auth) != 16:
        raise BadSubscription("The browser's keys could not be read.")
    return {"endpoint": endpoint, "p256dh": b64url(p256dh), "auth": b64url(auth)}


def subscribe(seat: TableSeat, data: object) -> PushSubscription:
    """Keep a device's subscription for ``seat`` (its newest DEVICES)."""
    found = checked(data)
    subscription, _ = PushSubscription.objects.update_or_create(
        seat=seat,
        endpoint=found["endpoint"],
        defaults={"p256dh": found["p256dh"], "auth": found["auth"], "seat_token": seat.token},
    )
    kept = seat.push_devices.order_by("-created_at", "-pk").values_list("pk", flat=True)
    PushSubscription.objects.filter(pk__in=list(kept[DEVICES:])).delete()
    return subscription


def devices(seat: TableSeat) -> list[PushSubscription]:
    """The devices of ``seat`` an alert may go to (none while push is not set up). One
    subscribed before the seat was given to another device (its token renewed), or whose
    push service has left ``WEB_PUSH_SERVICES``, is deleted instead."""
    if vapid(settings.VAPID_PRIVATE_KEY) is None:
        return []
    found = []
    for subscription in seat.push_devices.all():
        if subscription.seat_token != seat.token or not allowed(subscription.endpoint):
            subscription.delete()
        else:
            found.append(subscription)
    return found


def post(subscriptions: list[PushSubscription], alert: Alert) -> int:
    """Push ``alert`` to each of ``subscriptions``: the network's part, with no lock held.
    Returns how many push services took it; a subscription the push service says is gone
    (404, 410) is deleted."""
    key = vapid(settings.VAPID_PRIVATE_KEY)
    data = json.dumps(alert.payload())
    sent, gone = 0, []
    for subscription in subscriptions:
        host = urlsplit(subscription.endpoint).hostname
        try:
            webpush(
                subscription.info,
                data,
                vapid_private_key=key,
                vapid_claims={"sub": settings.VAPID_CONTACT},
                timeout=TIMEOUT,
                ttl=TTL,
                requests_session=_session(),
            )
        except WebPushException as failed:
            status = getattr(failed.response, "status_code", None)
            if status in (404, 410):
                gone.append(subscription.pk)
            else:
                log.warning("A push to %s failed: %s", host, status)
        except requests.RequestException as failed:
            log.warning("A push to %s failed: %s", host, failed)
        else:
            sent += 1
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    return sent


def _session() -> requests.Session:
    """A session that follows no redirect: the post goes to the allowed host or nowhere."""
    session = requests.Session()
    session.max_redirects = 0
    return session

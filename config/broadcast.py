"""Group messages sent after a commit: the one way both apps tell open sockets of a change.

A message goes out only once its transaction has committed, so no socket is ever told of a
change that was rolled back. From sync code it is sent there and then; from work the game's
sockets run themselves (games.db), it is collected and sent from the event loop when that
work is done: sending it from the middle of the work would either hold a thread until the
event loop gets round to it, or be impossible, when the work runs in the event loop itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync
from django.db import transaction

from config import relay

Message = tuple[str, dict[str, Any]]  # (group, message)

_collecting = threading.local()


def after_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the surrounding transaction commits (at once
    outside one)."""

    def send() -> None:
        collected = getattr(_collecting, "messages", None)
        if collected is not None:
            collected.append((group, message))
        else:
            async_to_sync(relay.group_send)(group, message)

    transaction.on_commit(send)


@contextmanager
def collected() -> Iterator[list[Message]]:
    """Keep the messages committed in this thread for the caller to send (``send_all``)."""
    _collecting.messages = messages = []
    try:
        yield messages
    finally:
        _collecting.messages = None


async def send_all(messages: list[Message]) -> None:
    for group, message in messages:
        await relay.group_send(group, message)

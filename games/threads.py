"""Which thread a table's service runs in when it is called from the event loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.db import connection


def write(service: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A service that writes, called from the event loop. On PostgreSQL it runs in a pool
    thread of its own: a commit waits 10-20 ms for the disk, and in Channels' one ORM thread
    every table would wait behind every other table's commit. SQLite takes one writer at a
    time, so there it stays in that one thread rather than queue on the database's lock."""
    return database_sync_to_async(service, thread_sensitive=connection.vendor == "sqlite")


read = database_sync_to_async  # what only reads runs in Channels' one ORM thread

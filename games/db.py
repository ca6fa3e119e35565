"""Database work of the table's sockets and tasks: in a pool of threads on PostgreSQL.

Channels runs sync code in one shared thread by default. A PostgreSQL commit waits for the
disk (10 to 20 ms here), and in that one thread every table of the process would queue
behind every other table's wait: a process topped out near 50 moves a second with its CPU
idle. Each call here is a whole unit of work (one transaction, its own connection, nothing
kept in the thread between calls), so on PostgreSQL it runs in any thread of a pool and the
commits of different tables overlap (PostgreSQL flushes concurrent commits together).
SQLite has one writer whatever the threads, and commits without waiting for the disk
(config/settings.py), so there the work stays in Channels' one thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.db import connection


def db(func: Callable[..., Any]) -> Callable[..., Any]:
    """``await db(services.act)(...)``: the call, in a worker thread, as an awaitable."""
    return database_sync_to_async(func, thread_sensitive=connection.vendor == "sqlite")

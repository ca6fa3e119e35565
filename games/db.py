"""Database work of the table's sockets and tasks: where it runs, and its announcements.

On PostgreSQL each call runs in a thread of a pool. A commit waits for the disk (10 to 20
ms here), and in Channels' one shared sync thread every table of the process would queue
behind every other table's wait; each call here is a whole unit of work (one transaction,
its own connection, nothing kept in the thread between calls), so it can run in any thread
and the commits of different tables overlap (PostgreSQL flushes concurrent commits
together).

On SQLite each call runs right in the event loop. A local SQLite transaction takes a few
milliseconds of CPU and never waits on a network or, in WAL mode, on the disk
(config/settings.py); sending it to a thread only added two thread switches a call and the
fight for the GIL: at 50 tables a move's 99th percentile fell from 670 ms to about 100 ms
when the calls stopped hopping threads (benchmarks/load.py). Django refuses the ORM in an
event loop unless told it is safe, which it is here: the call is synchronous from start to
end, so nothing else runs in the loop while it holds the connection.

Either way, the announcements a call makes are sent from the event loop once it is done,
never from the thread (config.broadcast).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from channels.db import database_sync_to_async
from django.db import connection

from config import broadcast


def db(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``await db(services.act)(...)``: the call, then the announcements it made."""

    @functools.wraps(func)
    def collecting(*args: Any, **kwargs: Any) -> tuple[Any, Exception | None, list]:
        with broadcast.collected() as announcements:
            try:
                return func(*args, **kwargs), None, announcements
            except Exception as error:  # what committed before it is announced all the same
                return None, error, announcements

    in_thread = database_sync_to_async(collecting, thread_sensitive=False)

    async def call(*args: Any, **kwargs: Any) -> Any:
        if connection.vendor == "sqlite":
            with _orm_allowed_in_this_loop():
                result, error, announcements = collecting(*args, **kwargs)
        else:
            result, error, announcements = await in_thread(*args, **kwargs)
        await broadcast.send_all(announcements)
        if error is not None:
            raise error
        return result

    return call


@contextmanager
def _orm_allowed_in_this_loop() -> Iterator[None]:
    """Django's switch for a synchronous ORM call from async code, on for just this call."""
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield
    finally:
        if before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before

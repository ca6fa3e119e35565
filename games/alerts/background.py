"""Posting alerts to push services and mail servers, off the thread that committed.

The services call the alerts' hook from the thread of the change (on SQLite, Channels' one
ORM thread, which every table's writes share): a push service or a mail server that is slow
to answer must not hold a move there. What to send, and to whom, is settled in that thread,
in the database; only the network calls run here, in two threads of this process. An alert
handed here is lost if the process stops before it is out, like one a push service drops.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.db import close_old_connections

log = logging.getLogger(__name__)

_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="alerts")
_pending: set[Future] = set()
_lock = threading.Lock()


def later(work: Callable[[], object]) -> None:
    """Run ``work`` (the network calls of one alert) in the alerts' threads."""
    future = _pool.submit(_run, work)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_finished)


def settle(timeout: float = 30) -> None:
    """Wait until the alerts handed over so far are out (or failed): for the tests, and for
    a command that must not end before its alerts are sent."""
    with _lock:
        pending = list(_pending)
    wait(pending, timeout)


def _run(work: Callable[[], object]) -> None:
    close_old_connections()  # a gone subscription is deleted from here
    try:
        work()
    except Exception:
        log.exception("An alert could not be sent")
    finally:
        close_old_connections()


def _finished(future: Future) -> None:
    with _lock:
        _pending.discard(future)

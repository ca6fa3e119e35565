"""A process's share of the tables' clock: it wakes to play what is due at a table.

What is due lives in the database (``Table.turn_due_at``, ``next_round_at``: see
games.services.clock); this module only decides when this process looks. Two ways:

- at once, or at the due time, for each table one of this process's sockets hears about:
  every announcement of a committed change says when the table is next due (a bot's turn is
  due at once), so live play never waits for a poll (``wake_in``);
- every CLOCK_POLL seconds, for every due table, sockets or none: an own-pace table whose
  players all closed their pages, a turn that fell due while the server was down, a
  process that died holding a claim (``poll``). It starts with the first request or socket
  the process serves (config.asgi): daphne has no start-up hook (no ASGI lifespan), and a
  deployment's health check is such a request.

Several processes may wake for the same table; the claim under the row's lock (skipping a
row another process holds) gives each due turn to one of them.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings
from django.utils import timezone

from games import selectors, services
from games.alerts import mail
from games.bots import decide
from games.bots.processes import pool
from games.services import clock
from games.threads import read, write

log = logging.getLogger(__name__)

wakes: dict[str, asyncio.Task] = {}  # by table code: this process's wake, running or timed
looks_at: dict[str, float] = {}  # by table code: when (the loop's clock) that wake looks
called: set[str] = set()  # tables woken again while their wake ran: it looks once more
polls: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}  # one poll an event loop


def wake_in(code: str, seconds: float | None) -> None:
    """Look at the table in ``seconds`` (at once for 0 or less; never for None), unless
    this process already looks sooner."""
    if seconds is None:
        return
    seconds = max(0.0, seconds)
    now = asyncio.get_running_loop().time()
    running = wakes.get(code)
    if running is not None and not running.done():
        if looks_at.get(code, 0.0) <= now + seconds:
            called.add(code)  # looking already, or soon enough: it looks once more after
            return
        running.cancel()  # asleep until later than needed (no claim under way): replaced
    _wake_later(code, seconds)


def _wake_later(code: str, seconds: float) -> None:
    loop = asyncio.get_running_loop()
    looks_at[code] = loop.time() + max(0.0, seconds)
    task = asyncio.create_task(_wake(code, max(0.0, seconds)))
    wakes[code] = task
    task.add_done_callback(report)


async def _wake(code: str, seconds: float) -> None:
    if seconds:
        await asyncio.sleep(seconds)
    loop = asyncio.get_running_loop()
    while True:
        called.discard(code)
        claimed = await write(clock.claim)(code)
        if claimed is None:
            if code in called:
                continue
            outcome = await read(selectors.due)(code)
            if outcome is not None and outcome.due_in is not None and outcome.due_in > 0:
                _wake_later(code, outcome.due_in)
            return
        outcome = claimed.done
        if claimed.turn is not None:
            turn = claimed.turn
            try:  # plain data to a process without Django: the turn's decide() imports it
                action = await loop.run_in_executor(
                    pool(), decide, turn.level, turn.view, turn.seed, turn.budget
                )
            except BrokenProcessPool:  # a deciding process died (killed, out of memory)
                log.warning("A bot's deciding process died: starting new ones")
                pool.cache_clear()
                await asyncio.sleep(1)
                continue
            pause = (claimed.not_before - timezone.now()).total_seconds()
            if pause > 0:  # the bot's moves are paced so people can follow them
                await asyncio.sleep(pause)
            outcome = await write(services.make_bot_move)(code, turn=turn, action=action)
        if outcome.due_in is None:
            if code in called:
                continue
            return
        if outcome.due_in > 0:
            _wake_later(code, outcome.due_in)
            return


def start_polling() -> None:
    """Start this event loop's poll, once (config.asgi calls it on every request: cheap)."""
    if settings.CLOCK_POLL <= 0:
        return
    loop = asyncio.get_running_loop()
    running = polls.get(loop)
    if running is None or running.done():
        polls[loop] = loop.create_task(poll())
        polls[loop].add_done_callback(report)


async def poll() -> None:
    """Every CLOCK_POLL seconds, wake for every table with something due, close the tables
    nobody has played for their pace's limit (services.close_abandoned), and send the
    alerts' mail that waited for its hour (games.alerts.mail)."""
    while True:
        try:
            await write(services.close_abandoned)(now=timezone.now())
            await write(mail.send_due_mail)(now=timezone.now())  # alerts that waited an hour
            for code in await read(selectors.due_tables)(now=timezone.now()):
                wake_in(code, 0)
        except Exception:  # a database that is down for a moment: the next poll retries
            log.exception("The clock's poll failed; it tries again")
        await asyncio.sleep(settings.CLOCK_POLL)


def report(task: asyncio.Task) -> None:
    """Log a table task that failed (a wake, a poll, a seat told away): nothing awaits it."""
    if not task.cancelled() and task.exception() is not None:
        log.error("A table task failed", exc_info=task.exception())

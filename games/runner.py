"""Work a table does on its own: bots taking their turns and the countdown to the next round.

Each runs as an asyncio task in the process that noticed it was due, so one table's bots
never hold up another table. The database work goes through the services, under the table's
row lock and version, so two processes that both start a bot loop for one table still play
each bot turn once: the second finds it is no longer that bot's turn.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from . import services
from .db import db

log = logging.getLogger(__name__)

_bot_loops: dict[str, asyncio.Task] = {}
_countdowns: dict[str, asyncio.Task] = {}


def after(code: str, outcome: services.Outcome | None) -> None:
    """Start whatever a committed change leaves due: bots, or the next round's countdown."""
    if outcome is None:
        return
    if outcome.bot_next:
        play_bots(code)
    if outcome.next_round_in is not None:
        count_down(code, max(0.0, outcome.next_round_in))


def play_bots(code: str) -> None:
    _start(_bot_loops, code, _bot_loop(code))


def count_down(code: str, seconds: float) -> None:
    running = _countdowns.get(code)
    if running is not None:
        running.cancel()  # a newer round end sets the time
    _start(_countdowns, code, _countdown(code, seconds))


async def resume(code: str) -> None:
    """A socket opened on the table: pick up what a restarted server left waiting."""
    due = await db(services.pending)(code)
    after(code, due)


def _start(tasks: dict[str, asyncio.Task], code: str, work) -> None:
    running = tasks.get(code)
    if running is not None and not running.done():
        work.close()  # one loop a table and process is enough
        return
    task = asyncio.create_task(work)
    tasks[code] = task
    task.add_done_callback(_report)


def _report(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A table task failed", exc_info=task.exception())


async def _bot_loop(code: str) -> None:
    while True:
        await asyncio.sleep(settings.BOT_TURN_DELAY)
        outcome = await db(services.play_bot_turn)(code)
        if outcome is None:
            return
        if outcome.next_round_in is not None:
            count_down(code, max(0.0, outcome.next_round_in))
        if not outcome.bot_next:
            return


async def _countdown(code: str, seconds: float) -> None:
    await asyncio.sleep(seconds)
    after(code, await db(services.start_next_round_if_due)(code))

"""The table's clock: when the turn on now is due to be played for its seat, and playing it.

A bot's turn is due at once; a person's, when the table's turn clock runs out (a live table's
optional clock, or an own-pace table's deadline); a finished round's next deal, at its
countdown. The time is a column of the table's row (``Table.turn_due_at``, and
``next_round_at``), set by every commit (``arm``), so it holds across processes and
restarts: whichever process finds a table due first claims it under the row's lock, skipping
a row another process holds (``claim``), and plays it (games.waker decides the bots' moves
outside the lock).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.bots import decide
from games.engine import Game, view_for
from games.engine.records import step
from games.models import Pace, Table, TableSeat, seated
from games.selectors import BotTurn, Outcome, outcome_of

from .commit import commit
from .deadline import on_turn
from .play import deal_next

# How long a process that claimed a bot's turn has to make its move before another process
# may take the turn over (it died, say): the expert's search and the pause, with room.
CLAIM_LEASE = timedelta(seconds=30)
TIMED_OUT_BOT = "strategic"  # plays a person's turn when their time runs out
STAND_IN_AFTER = 2  # timed-out turns in a row after which the bot stays until they are back


@dataclass(frozen=True)
class Claim:
    """A due turn this process has claimed: a bot's, to decide outside the lock and make no
    sooner than ``not_before``; or what the claim already did under the lock (a timed-out
    person's turn played, the next round dealt)."""

    turn: BotTurn | None = None
    not_before: datetime | None = None
    done: Outcome | None = None


def claim(code: str, *, now: datetime | None = None) -> Claim | None:
    """Claim what is due at the table, if anything is and no other process holds its row:
    the next round is dealt, a person whose time ran out has the turn played for them, and
    a bot's turn is leased to this process for CLAIM_LEASE (its move is made by
    ``bots.make_bot_move`` at the version read here, so it is made once). A live table with
    nobody at it waits: its bots stop and its clock holds until a person is back."""
    now = now or timezone.now()
    with transaction.atomic():
        found = seated(code, lock=True, skip_locked=True)
        if found is None:
            return None
        table, seats = found
        if table.status != Table.Status.PLAYING:
            return None
        game = table.game()
        if game.round.result is not None:
            if table.next_round_at is None or table.next_round_at > now:
                return None
            return Claim(done=deal_next(table, seats, game))
        seat = on_turn(game, seats)
        due = table.turn_due_at or (table.moved_at if seat.played_by_bot else None)
        if due is None or due > now:
            return None
        if table.pace == Pace.LIVE and not any(s.connected for s in seats if not s.is_bot):
            return None
        if seat.played_by_bot:
            table.turn_due_at = now + CLAIM_LEASE
            table.save(update_fields=["turn_due_at"])
            pause = timedelta(seconds=settings.BOT_TURN_DELAY)
            return Claim(
                turn=BotTurn(
                    version=table.version,
                    level=seat.played_by_bot,
                    seed=f"{table.seed}/{table.version}",
                    view=view_for(game, seat.position),
                    budget=settings.EXPERT_BUDGET,
                ),
                not_before=(table.moved_at or now) + pause,
            )
        return Claim(done=_play_timed_out_turn(table, seats, game, seat))


def _play_timed_out_turn(
    table: Table, seats: list[TableSeat], game: Game, seat: TableSeat
) -> Outcome:
    """The person's time ran out: the strategic bot plays that whole turn for them, at once
    and under the lock (it decides in milliseconds), and the move log says so (``"by":
    "clock"``). The seat stays theirs; at STAND_IN_AFTER such turns in a row the bot stays
    in it until they are back, as the host's stand-in does."""
    lines: list[dict] = []
    position, number = seat.position, game.round.number
    while game.round.number == number and game.round.result is None:
        if game.round.turn != position:
            break
        seed = f"{table.seed}/{table.version}/clock"
        action = decide(TIMED_OUT_BOT, view_for(game, position), seed, 0.0)
        game, written = step(game, action)
        lines += [{**line, "by": "clock"} if line["type"] == "action" else line for line in written]
    seat.timeouts += 1
    if seat.timeouts >= STAND_IN_AFTER:
        seat.stand_in = TIMED_OUT_BOT
    seat.save(update_fields=["timeouts", "stand_in"])
    commit(table, seats, lines, game)
    return outcome_of(table, game=game, seats=seats)

"""The reads of an online table that take no lock and change nothing.

What a table waits for (a bot's turn, the next round's countdown), what the bot on turn
sees, a seat's hint, and a seat for the host to show its private link. The services read
through these too; nothing here writes, so a selector may run in any thread, and what it
read may be stale by the time it is used: a service that acts on it checks the table's
version under the lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.bots import best_line, decide
from games.engine import Game, SeatView, view_for
from games.engine.actions import Action
from games.engine.tiles import Tile

from .models import Pace, Table, TableSeat, seated
from .refusals import NO_TABLE, Refused, require_host, seat_of


@dataclass(frozen=True)
class Outcome:
    """What a committed change left due: a bot's turn (due at once), a person's turn with a
    clock, or the next round's deal; ``due_in`` is the seconds until the first of them."""

    version: int
    bot_next: bool = False
    due_in: float | None = None  # None: nothing is due until somebody acts


def outcome_of(table: Table, *, game: Game | None, seats: Iterable[TableSeat]) -> Outcome:
    """What the table at this version leaves due."""
    bot_next = bot_on_turn(game, seats=seats)
    times = [t for t in (table.turn_due_at, table.next_round_at) if t is not None]
    if bot_next and table.turn_due_at is None:  # armed before the clock was: due now
        times.append(timezone.now())
    due = min(times, default=None)
    return Outcome(
        version=table.version,
        bot_next=bot_next,
        due_in=None if due is None else (due - timezone.now()).total_seconds(),
    )


def bot_on_turn(game: Game | None, *, seats: Iterable[TableSeat]) -> bool:
    if game is None or game.round is None or game.round.result is not None:
        return False
    return any(s.position == game.round.turn and s.played_by_bot for s in seats)


def due(code: str) -> Outcome | None:
    """What the table waits for now: for an announcement that does not say (a shell's,
    the admin's plain ``table.changed``)."""
    found = seated(code)
    if found is None or found[0].status != Table.Status.PLAYING:
        return None
    table, seats = found
    return outcome_of(table, game=table.game(), seats=seats)


@dataclass(frozen=True)
class BotTurn:
    """What the bot on turn decides from, read without the table's lock: the expert
    searches for up to half a second, and no table waits for that. Its move is made only if
    the table is still at ``version``."""

    version: int
    level: str
    seed: str
    view: SeatView
    budget: float  # the expert's seconds a decision

    def decide(self) -> Action:
        return decide(self.level, self.view, self.seed, self.budget)


def bot_turn(code: str) -> BotTurn | None:
    """The bot on turn's view, if it is a bot's turn and a person is there to watch; None
    when there is nothing for a bot to do."""
    found = seated(code)
    if found is None:
        return None
    table, seats = found
    game = table.game()
    if table.status != Table.Status.PLAYING or not bot_on_turn(game, seats=seats):
        return None
    if not any(s.connected for s in seats if not s.is_bot):
        return None
    seat = next(s for s in seats if s.position == game.round.turn)
    return BotTurn(
        version=table.version,
        level=seat.played_by_bot,
        seed=f"{table.seed}/{table.version}",
        view=view_for(game, seat.position),
        budget=settings.EXPERT_BUDGET,
    )


def hint(code: str, *, token: str) -> list[Tile]:
    """The planner's best line for a seat from the open end of its own train: the hint a
    player asks for on the first turn. Only the seat's own hand goes into it."""
    found = seated(code)
    if found is None:
        raise Refused(NO_TABLE)
    table, seats = found
    seat = seat_of(seats, token)
    game = table.game()
    if game is None or game.round is None or game.round.result is not None:
        raise Refused("There is no round being played, so there is nothing to hint.")
    start = game.round.trains[seat.position].branches[0].open
    return best_line(game.round.hands[seat.position], start)


def seat_for_host(code: str, *, host_token: str, position: int) -> TableSeat:
    """A person's seat, for the host to show its private link (a QR code) to its player on
    a new phone: only the host may see another seat's token."""
    found = seated(code)
    if found is None:
        raise Refused(NO_TABLE)
    table, seats = found
    require_host(table, host_token)
    seat = next((s for s in seats if s.position == position and not s.is_bot), None)
    if seat is None:
        raise Refused(f"Seat {position + 1} is not a person's: it has no private link.")
    return seat


def turn_ran_long(table: Table, *, seat: TableSeat) -> bool:
    """The seat is on turn in a round being played, and has been since TURN_RUNS_LONG."""
    runs_long_at = table.turn_runs_long_at
    if runs_long_at is None or table.status != Table.Status.PLAYING:
        return False
    game = table.game()
    rnd = game.round if game else None
    if rnd is None or rnd.result is not None or rnd.turn != seat.position:
        return False
    return timezone.now() >= runs_long_at


def due_tables(*, now: datetime, limit: int = 100) -> list[str]:
    """The codes of the tables with something due by ``now`` that may be played now: a
    live table with nobody at it waits for a person (``services.clock.claim``)."""
    someone_here = TableSeat.objects.filter(kind=TableSeat.Kind.HUMAN).exclude(channel_name="")
    due = Table.objects.filter(status=Table.Status.PLAYING).filter(
        Q(turn_due_at__lte=now) | Q(next_round_at__lte=now)
    )
    playable = due.filter(Q(pace=Pace.OWN) | Q(pk__in=someone_here.values("table_id")))
    return list(playable.order_by("turn_due_at").values_list("code", flat=True)[:limit])

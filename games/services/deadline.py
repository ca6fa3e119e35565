"""When the turn on now is due to be played for its seat: set by every commit, and again
when who plays the seat on turn changes. A column of the table's row (``turn_due_at``), so
every process, and one started later, sees the same deadline (services.clock plays it)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.engine import Game
from games.models import Table, TableSeat


def on_turn(game: Game | None, seats: list[TableSeat]) -> TableSeat | None:
    """The seat whose turn it is in a round being played; None between rounds."""
    if game is None or game.round is None or game.round.result is not None:
        return None
    return next(s for s in seats if s.position == game.round.turn)


def arm(table: Table, seats: list[TableSeat], game: Game | None, *, keep: bool = False) -> None:
    """Set when the turn on now is due: at once for a bot, at the end of the turn clock for
    a person (kept with ``keep``, where the same person's turn goes on), never without one.
    The caller saves ``turn_due_at``."""
    seat = on_turn(game, seats) if table.status == Table.Status.PLAYING else None
    if seat is None:
        table.turn_due_at = None
    elif seat.played_by_bot:
        table.turn_due_at = timezone.now()
    elif table.turn_limit is None:
        table.turn_due_at = None
    elif not (keep and table.turn_due_at is not None):
        table.turn_due_at = timezone.now() + timedelta(seconds=table.turn_limit)


def rearm_if_on_turn(table: Table, seats: list[TableSeat], seat: TableSeat) -> None:
    """Who plays ``seat`` changed (a bot put in, a person back): if it is on turn, its turn
    is due anew, and the row is saved."""
    game = table.game()
    if on_turn(game, seats) is seat:
        arm(table, seats, game)
        table.save(update_fields=["turn_due_at", "updated_at"])

"""Playing a round: a seat's moves, getting ready for the next round, and dealing it."""

from __future__ import annotations

import re

from django.db import transaction

from games.engine import Game, IllegalAction
from games.engine.actions import END_TURN, Action
from games.engine.records import deal_step, step
from games.forms import Intent
from games.models import Table, TableSeat
from games.refusals import Refused, Stale, seat_of
from games.selectors import Outcome, outcome_of

from .commit import announce, commit, locked


def act(code: str, *, token: str, intent: Intent) -> Outcome:
    """Apply a seat's intent (a play, a line, a draw...) if the rules allow it."""
    with transaction.atomic():
        table, seats = locked(code)
        seat = seat_of(seats, token)
        if table.status != Table.Status.PLAYING:
            raise Refused("The match is not being played: nothing can be moved now.")
        if intent.version != table.version:
            raise Stale(
                "The table has moved on since your screen was drawn; it has been brought up "
                "to date, so try again."
            )
        if seat.stand_in or seat.timeouts:  # the player is back: the bot gives the seat back
            seat.stand_in = ""
            seat.timeouts = 0
            seat.save(update_fields=["stand_in", "timeouts"])
        game = table.game()
        assert game is not None
        names = {s.position: s.name for s in seats}
        if game.round is None or game.round.result is not None:
            raise Refused("The round is over: press Ready for the next one.")
        if game.round.turn != seat.position:
            raise Refused(f"It is not your turn: {names[game.round.turn]} is to play.")
        lines = []
        try:
            for action in intent.actions(seat.position):
                game, written = step(game, action)
                lines += written
            if intent.type == "line" and game.round.result is None:
                ts = game.round.turn_state
                if game.round.turn == seat.position and ts.line_open and not ts.extra_owed:
                    game, written = step(game, Action(END_TURN, seat.position))
                    lines += written
        except IllegalAction as refused:
            raise Refused(_with_names(str(refused), names)) from None
        commit(table, seats, lines, game)
    return outcome_of(table, game=game, seats=seats)


def ready(code: str, *, token: str) -> Outcome | None:
    """A person is ready for the next round; the round is dealt once every person is."""
    with transaction.atomic():
        table, seats = locked(code)
        seat = seat_of(seats, token)
        game = table.game()
        if table.status != Table.Status.PLAYING:
            raise Refused("The match is not being played: nothing can be moved now.")
        if game is None or game.is_over or game.round.result is None:
            raise Refused("There is no next round to get ready for.")
        upcoming = game.rounds_played + 1
        if seat.ready_for != upcoming:
            seat.ready_for = upcoming
            seat.save(update_fields=["ready_for"])
        if any(_waited_for(s, upcoming) for s in seats):
            announce(table, seats)
            return None
        return deal_next(table, seats, game)


def deal_next(table: Table, seats: list[TableSeat], game: Game) -> Outcome:
    """Deal the round after ``game``'s, under the caller's lock."""
    game, lines = deal_step(game, order=table.deal_order(seats))
    commit(table, seats, lines, game)
    return outcome_of(table, game=game, seats=seats)


def _waited_for(seat: TableSeat, upcoming: int) -> bool:
    return not seat.played_by_bot and seat.ready_for < upcoming


def _with_names(message: str, names: dict[int, str]) -> str:
    """The engine speaks of seat numbers; people speak of names."""
    return re.sub(r"\bseat (\d+)\b", lambda m: names.get(int(m[1]), m[0]), message)

"""A bot's move, made under the table's lock at the version its turn was read at."""

from __future__ import annotations

from django.db import transaction

from games.engine.actions import Action
from games.engine.records import step
from games.selectors import BotTurn, Outcome, bot_turn, outcome_of

from .commit import commit, locked


def make_bot_move(code: str, *, turn: BotTurn, action: Action) -> Outcome:
    """Make the move the bot decided on ``turn``, unless the table has moved on meanwhile
    (a move, a person taking the seat back from a stand-in): then nothing is made, and
    the outcome says whether a bot is still due, to be read again."""
    with transaction.atomic():
        table, seats = locked(code)
        game = table.game()
        seat = next(s for s in seats if s.position == turn.view.seat)
        if table.version != turn.version or seat.played_by_bot != turn.level:
            return outcome_of(table, game=game, seats=seats)  # moved on: what is due now
        game, lines = step(game, action)
        commit(table, seats, lines, game)
    return outcome_of(table, game=game, seats=seats)


def play_bot_turn(code: str) -> Outcome | None:
    """Read the bot's turn, decide and make the move, in this thread (the consumer takes
    the same three steps, deciding in a thread of its own)."""
    turn = bot_turn(code)
    return None if turn is None else make_bot_move(code, turn=turn, action=turn.decide())

"""Everything that changes an online table, as plain functions, one module a concern: the
lobby, playing a round, the bots' moves, seats during a match, and the rematch.

Views and the consumer parse, authorize and call these. Every change runs in one
transaction that first locks the table's row (``select_for_update``) and reads the table
and its seats from the database (``commit.locked``); a move then checks the version the
player's screen was based on, applies the action through the engine, appends its record
lines to the move log and saves the table's new version (``commit.commit``). Once the
transaction commits, the table's group is told (``table.changed``) and every socket sends
its own seat the view. A refused action changes nothing. The reads that take no lock are
``games.selectors``.
"""

from games.refusals import Refused, Stale
from games.selectors import Outcome

from .abandon import close_abandoned
from .bots import make_bot_move, play_bot_turn
from .lobby import add_bot, create_table, join, remove_seat, start
from .play import act, ready
from .rematch import play_again
from .seats import (
    answer_seat_request,
    ask_for_seat,
    cancel_seat_request,
    connect,
    disconnect,
    hand_to_bot,
)

__all__ = [
    "Outcome",
    "Refused",
    "Stale",
    "act",
    "add_bot",
    "answer_seat_request",
    "ask_for_seat",
    "cancel_seat_request",
    "close_abandoned",
    "connect",
    "create_table",
    "disconnect",
    "hand_to_bot",
    "join",
    "make_bot_move",
    "play_again",
    "play_bot_turn",
    "ready",
    "remove_seat",
    "start",
]

"""The rules engine of Mexican Train: a pure, deterministic core with no Django in it.

Everything that plays or scores (the online tables, the bots, the simulator, the score
sheet) goes through this package::

    from games.engine import Rules, new_game, legal_actions, apply, view_for

    game = new_game(Rules(), players=4, seed=7)
    seat = game.round.turn
    game = apply(game, legal_actions(game, seat)[0])

See ``docs/engine.md`` for the API and the action vocabulary.
"""

from .actions import Action, draw, end_turn, pass_turn, place_engine, play
from .errors import IllegalAction
from .moves import apply, legal_actions
from .records import Recorder, RecordError, Replayer, replay, replay_steps
from .rules import PRESETS, Rules, RulesError, preset
from .scoring import HandCount, score, totals, winners
from .setup import deal, new_game, next_round
from .state import Branch, Deal, Event, Game, Round, RoundResult, Train
from .tiles import Tile, full_set, tile
from .views import SeatView, view_for

__all__ = [
    "PRESETS",
    "Action",
    "Branch",
    "Deal",
    "Event",
    "Game",
    "HandCount",
    "IllegalAction",
    "RecordError",
    "Recorder",
    "Replayer",
    "Round",
    "RoundResult",
    "Rules",
    "RulesError",
    "SeatView",
    "Tile",
    "Train",
    "apply",
    "deal",
    "draw",
    "end_turn",
    "full_set",
    "legal_actions",
    "new_game",
    "next_round",
    "pass_turn",
    "place_engine",
    "play",
    "preset",
    "replay",
    "replay_steps",
    "score",
    "tile",
    "totals",
    "view_for",
    "winners",
]

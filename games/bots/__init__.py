"""Bots: players that see only their seat's view and answer with one of its legal actions.

A bot is any callable ``bot(view) -> Action`` that returns one of ``view.legal``. It gets
a :class:`~games.engine.SeatView` and nothing else, so it cannot read another hand or the
boneyard. Three levels, by name:

* ``random``: any legal action.
* ``greedy``: the heaviest playable tile.
* ``strategic``: the strategy of docs/rules.md (see :mod:`games.bots.strategic`).

:class:`~games.bots.expert.ExpertBot` searches instead (deals the hidden tiles and plays
each action out); it is not yet a level a table seats, as a search takes its budget of
CPU on the table's turn. :func:`games.bots.expert.evaluate` is the coach's yardstick.

:func:`games.bots.planner.best_line` is the strategic bot's first-turn planner, also usable
on its own as a "best line from this hand" hint.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Action, SeatView

from .expert import ExpertBot
from .planner import best_line
from .simple import RandomBot, greedy
from .strategic import StrategicBot

Bot = Callable[[SeatView], Action]

LEVELS = ("random", "greedy", "strategic")


def make_bot(level: str, seed: int | str = 0) -> Bot:
    """A fresh bot of ``level``; ``seed`` drives the random bot's choices."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return greedy
    if level == "strategic":
        return StrategicBot()
    raise ValueError(f"{level!r} is not a bot ({', '.join(LEVELS)}).")


__all__ = [
    "LEVELS",
    "Bot",
    "ExpertBot",
    "RandomBot",
    "StrategicBot",
    "best_line",
    "greedy",
    "make_bot",
]

"""Bots: players that see only their seat's view and answer with one of its legal actions.

A bot is any callable ``bot(view) -> Action`` that returns one of ``view.legal``. It gets
a :class:`~games.engine.SeatView` and nothing else, so it cannot read another hand or the
boneyard. Four levels, by name:

* ``random``: any legal action.
* ``greedy``: the heaviest playable tile.
* ``strategic``: the strategy of docs/rules.md (see :mod:`games.bots.strategic`).
* ``expert``: a search (:class:`~games.bots.expert.ExpertBot`): it deals the hidden tiles
  and plays each action out, for up to its time budget a decision. Its
  :func:`~games.bots.expert.evaluate` is also the coach's yardstick.

The first three are policies: they decide at once, from the view.

:func:`games.bots.planner.best_line` is the strategic bot's first-turn planner, also usable
on its own as a "best line from this hand" hint.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Action, SeatView

from .expert import BUDGET, ExpertBot
from .planner import best_line
from .simple import RandomBot, greedy
from .strategic import StrategicBot

Bot = Callable[[SeatView], Action]

POLICIES = ("random", "greedy", "strategic")
LEVELS = (*POLICIES, "expert")

# What each level plays like, in one line, for a host choosing bots (the new-table form, the
# lobby): kept here, beside the levels, so a new level cannot come without its sentence.
PLAYS_LIKE: dict[str, str] = {
    "random": "Plays any tile it may, picked at random: the easiest to beat.",
    "greedy": "Gets rid of its heaviest tile first, with no plan beyond that turn.",
    "strategic": "Lays the longest line it can first and keeps a spare for its own train.",
    "expert": "Plays each choice out over many guessed deals before it moves: the hardest.",
}


def make_bot(level: str, seed: int | str = 0, budget: float = BUDGET) -> Bot:
    """A fresh bot of ``level``; ``seed`` drives the random bot's and the expert's choices,
    ``budget`` is the expert's time a decision, in seconds."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return greedy
    if level == "strategic":
        return StrategicBot()
    if level == "expert":
        return ExpertBot(seed, budget=budget)
    raise ValueError(f"{level!r} is not a bot ({', '.join(LEVELS)}).")


def decide(level: str, view: SeatView, seed: int | str = 0, budget: float = BUDGET) -> Action:
    """A fresh bot's decision: what a table runs in a process of its own (plain data in and
    out, nothing else imported there)."""
    return make_bot(level, seed, budget)(view)


__all__ = [
    "LEVELS",
    "PLAYS_LIKE",
    "POLICIES",
    "Bot",
    "ExpertBot",
    "RandomBot",
    "StrategicBot",
    "best_line",
    "decide",
    "greedy",
    "make_bot",
]

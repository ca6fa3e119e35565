"""The two baseline bots: ``random`` (any legal action) and ``greedy`` (heaviest tile).

They set the bar the strategic bot is measured against, and ``greedy`` drives the engine's
speed benchmark, so both stay as plain as their names.
"""

from __future__ import annotations

import random

from games.engine import Action, SeatView
from games.engine.actions import PLAY


class RandomBot:
    """Any legal action, uniformly. Seeded, so a simulated match can be played again."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)


def greedy(view: SeatView) -> Action:
    """The heaviest playable tile, on the first place the engine lists for it; with no
    tile to play, the one other action there is (draw, pass, place the engine).

    During a first-turn line it keeps laying its heaviest matching tile, so it lays a line
    as long as heaviest-first happens to make it.
    """
    plays = [a for a in view.legal if a.kind == PLAY]
    if not plays:
        return view.legal[0]
    return max(plays, key=lambda a: a.tile[0] + a.tile[1])

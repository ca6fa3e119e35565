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
    best, most = view.legal[0], -1
    for action in view.legal:  # a plain loop: this bot drives the engine's speed benchmark
        if action.kind == PLAY:
            low, high = action.tile
            if low + high > most:  # the first of equally heavy tiles, as max() would
                best, most = action, low + high
    return best

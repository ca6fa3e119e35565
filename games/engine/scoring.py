"""Scoring: the one pure function that turns what is left in a hand into points.

The engine scores finished rounds with it and the score sheet derives every cell from it,
so changing a house rule recomputes a whole match consistently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rules import Rules
from .tiles import Tile


@dataclass(frozen=True)
class HandCount:
    """What a hand holds for scoring: its pips, how many doubles, whether the double-blank
    is one of them, and the blank halves on its other tiles (they score only under
    ``blank_value``). A score sheet entry typed by hand stores exactly this."""

    pips: int
    doubles: int = 0
    double_blank: bool = False
    blanks: int = 0

    def __post_init__(self) -> None:
        if self.pips < 0:
            raise ValueError("Pips cannot be negative.")
        if self.doubles < 0:
            raise ValueError("The number of doubles cannot be negative.")
        if self.double_blank and self.doubles < 1:
            raise ValueError("A hand holding the double-blank holds at least one double.")
        if self.blanks < 0:
            raise ValueError("The number of blank halves cannot be negative.")

    @classmethod
    def of(cls, tiles: Iterable[Tile]) -> HandCount:
        tiles = list(tiles)
        doubles = [t for t in tiles if t[0] == t[1]]
        return cls(
            pips=sum(a + b for a, b in tiles),
            doubles=len(doubles),
            double_blank=(0, 0) in doubles,
            blanks=sum(t.count(0) for t in tiles if t != (0, 0)),
        )


def score(hand: HandCount | None, rules: Rules, *, on_double: bool = False) -> int:
    """Points for one player in one round; ``None`` means the player went out, on a double
    (the last tile laid) if ``on_double``.

    A stalled round needs no flag: nobody went out, so everybody scores their hand."""
    if hand is None:
        return rules.out_score + (rules.out_on_double if on_double else 0)
    blank = rules.double_blank_points if hand.double_blank else 0
    blanks = rules.blank_value * hand.blanks
    return hand.pips + blank + blanks + rules.double_penalty * hand.doubles


def totals(rounds: Iterable[Sequence[int]], players: int) -> list[int]:
    """Running totals after the given rounds' scores (one sequence per round)."""
    result = [0] * players
    for scores in rounds:
        for seat, points in enumerate(scores):
            result[seat] += points
    return result


def winners(match_totals: Sequence[int], rounds_out: Sequence[int] | None = None) -> list[int]:
    """Seats with the lowest total; tied totals share the win, unless ``rounds_out`` (the
    rounds each seat went out in: ``tie_break: rounds_out``) breaks the tie, more being
    better. A tie that remains is shared."""
    if not match_totals:
        return []
    best = min(match_totals)
    tied = [seat for seat, total in enumerate(match_totals) if total == best]
    if rounds_out is None:
        return tied
    most = max(rounds_out[seat] for seat in tied)
    return [seat for seat in tied if rounds_out[seat] == most]

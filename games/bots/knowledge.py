"""What a seat can work out about the hidden tiles from its view alone.

Every tile is in exactly one place: in the layout, in a hand or in the boneyard. A seat
sees the layout and its own hand, so every other tile is *unseen*: in another hand or the
boneyard. The public log adds one more fact per seat: a seat that drew or passed could not
play on any of the numbers then on offer (the event's ``ends``), and a tile it drew and
kept did not match them either; only a later draw can bring it one of those numbers back.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import SeatView
from games.engine.actions import DRAW, PASS
from games.engine.tiles import Tile, full_set


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows, worked out afresh from each view (it is cheap)."""

    unseen: frozenset[Tile]  # in other hands or the boneyard
    lacking: tuple[frozenset[int], ...]  # per seat: numbers it is known not to hold
    unseen_counts: dict[int, int]  # number: how many unseen tiles carry it

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        seen: set[Tile] = set(view.hand or ())
        for train in view.trains:
            for branch in train.branches:
                seen.update((min(t), max(t)) for t in branch.tiles)
        if view.engine_placed:
            seen.add((view.engine, view.engine))
        lacking: list[set[int]] = [set() for _ in range(view.players)]
        for event in view.log:
            if event.kind == DRAW:
                # The drawn tile is unknown except that it missed these ends too.
                lacking[event.seat] = set(event.ends)
            elif event.kind == PASS:
                lacking[event.seat] |= set(event.ends)
        unseen = frozenset(set(full_set(view.rules.highest_double)) - seen)
        counts: dict[int, int] = {}
        for a, b in unseen:
            counts[a] = counts.get(a, 0) + 1
            if b != a:
                counts[b] = counts.get(b, 0) + 1
        return cls(
            unseen=unseen,
            lacking=tuple(frozenset(numbers) for numbers in lacking),
            unseen_counts=counts,
        )

    def unseen_with(self, number: int) -> int:
        """How many unseen tiles carry ``number``."""
        return self.unseen_counts.get(number, 0)

    def may_hold(self, seat: int, number: int) -> bool:
        """Whether ``seat`` could hold a tile carrying ``number``, as far as we know."""
        return number not in self.lacking[seat] and self.unseen_with(number) > 0

"""What a seat can work out about the hidden tiles from its view alone.

Every tile is in exactly one place: in the layout, in a hand or in the boneyard. A seat
sees the layout and its own hand, so every other tile is *unseen*: in another hand or the
boneyard. The public log adds one more fact per seat: a seat that drew or passed could not
play on any of the numbers then on offer (the event's ``ends``), and a tile it drew and
kept did not match them either; only a later draw can bring it one of those numbers back.

With ``lines`` it also guesses from how a seat played its first turn (:func:`_line_ends`):
true of the strategic bot, a guess about a person. The expert's deals keep to the guesses
where they can; the strategic bot uses the facts alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import SeatView
from games.engine.actions import DRAW, PASS, PLACE_ENGINE, PLAY
from games.engine.tiles import Tile, full_set, other_end, tile


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows, worked out afresh from each view (it is cheap)."""

    unseen: frozenset[Tile]  # in other hands or the boneyard
    lacking: tuple[frozenset[int], ...]  # per seat: numbers it is known not to hold
    unseen_counts: dict[int, int]  # number: how many unseen tiles carry it

    @classmethod
    def from_view(cls, view: SeatView, lines: bool = False) -> Knowledge:
        """What ``view`` shows; with ``lines``, also what the seats' first turns suggest
        (:func:`_line_ends`), a guess about how they play rather than a fact."""
        seen: set[Tile] = set(view.hand or ())
        for train in view.trains:
            for branch in train.branches:
                for a, b in branch.tiles:  # laid (touching, open): seen as (low, high)
                    seen.add(tile(a, b))
        if view.engine_placed:
            seen.add((view.engine, view.engine))
        lacking: list[set[int]] = [set() for _ in range(view.players)]
        guesses = _line_ends(view) if lines else {}
        for i, event in enumerate(view.log):
            for seat, number in guesses.get(i, ()):
                lacking[seat].add(number)
            if event.kind == DRAW:
                # The drawn tile is unknown except that it missed these ends too.
                lacking[event.seat] = set(event.ends)
            elif event.kind == PASS:
                lacking[event.seat] |= set(event.ends)
        for seat, number in guesses.get(len(view.log), ()):
            lacking[seat].add(number)
        unseen = frozenset(full_set(view.rules.highest_double)).difference(seen)
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


def _line_ends(view: SeatView) -> dict[int, list[tuple[int, int]]]:
    """The numbers the seats' first turns suggest they lacked, as (seat, number), by the
    index of the event in the log before which that came to be.

    A player lays as long a line as the hand allows (the strategic bot lays the planner's
    best), so a line that stops while its seat still holds tiles leaves an open end the
    seat cannot match, and a first turn spent elsewhere (not covering a double) says the
    engine's number was missing. Only for the standard game's straight lines, with
    first-turn lines on."""
    rules = view.rules
    if rules.variant != "standard" or rules.first_turn != "line":
        return {}
    found: dict[int, list[tuple[int, int]]] = {}
    started: set[int] = set()
    line: tuple[int, int] | None = None  # the seat laying its line, and its open end
    last: Tile | None = None  # the last tile laid: a double left open is owed a cover
    for i, event in enumerate(view.log):
        if event.kind == PLACE_ENGINE:
            continue
        seat, played = event.seat, event.tile
        if line is not None and seat != line[0]:
            found.setdefault(i, []).append(line)  # the line ended before this event
            line = None
        if line is not None:  # the line goes on, or its seat does something else
            goes_on = event.kind == PLAY and event.train == seat and played and line[1] in played
            line = (seat, other_end(played, line[1])) if goes_on and played else None
        elif seat not in started and event.kind == PLAY and played is not None:
            if event.train == seat and view.engine in played:
                line = (seat, other_end(played, view.engine))
            elif event.train != seat and not (last and last[0] == last[1]):
                found.setdefault(i, []).append((seat, view.engine))  # not a cover owed
        started.add(seat)
        if event.kind == PLAY:
            last = played
    if line is not None and line[0] != view.turn:
        found.setdefault(len(view.log), []).append(line)
    return found

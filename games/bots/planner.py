"""The first-turn planner: the best line a hand can lay from one open end.

A line is a run of tiles, each matching the open end the previous one left. Think of the
hand as a graph whose numbers are vertices and whose tiles are edges: a line is then a
*trail* (no tile twice) starting at the open end, and the best line is the trail with the
most tiles, ties broken by the most pips. Longest trail is hard in general but small here,
and three facts make an exact search fast:

* Doubles are set aside. A double can go in the line whenever the line passes its number,
  so it adds one tile to every trail that visits that number. It is inserted at the
  number's first visit, so a line ends on a double only when its last number is visited
  nowhere else.
* A set of tiles can be laid as one line from ``start`` exactly when it is connected,
  touches ``start`` and leaves at most ``start`` and one other number with an odd count of
  tiles (Euler). So the best line is the whole reachable hand minus the fewest, then
  lightest, tiles that fix the parities and keep it connected. Ignoring connectivity, the
  tiles to leave out are a cheapest *T-join*: shortest paths pairing the odd numbers,
  found breadth first and paired by a tiny exact matching. That is an exact bound, and
  usually the answer.
* When leaving those tiles out cuts the hand in pieces, a branch and bound decides, one
  tile at a time, whether the tile stays in the line or out, best bound first.

:func:`exhaustive_line` is the plain search over every line: the reference the planner is
tested and benchmarked against, and, capped, the expert's playouts' first try, since a hand
of a round's later turns has so few lines that trying them beats the planner's setup.

Variants: the planner models a straight line, which is exact for the standard game with
doubles covered or not (a double in a line is covered by the next tile, just as a loop in a
trail). In Chicken Foot and Cuban a double in a line opens more ends, so a line becomes a
tree; there the planner's line is a good plan, not always the longest, and a bot re-plans
from the open ends after every tile and only ever chooses among the legal actions.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from itertools import count
from typing import NamedTuple

from games.engine.tiles import Tile

Value = tuple[int, int]  # (tiles, pips): compared as a tuple, most tiles first

_WEIGHT = 1 << 16  # in a path's cost, one tile outweighs any sum of pips
_INFINITE = 1 << 62


def line_value(line: Iterable[Tile]) -> Value:
    """How good a line is: its number of tiles, then its pips."""
    tiles = list(line)
    return len(tiles), sum(a + b for a, b in tiles)


def best_line(hand: Iterable[Tile], start: int) -> list[Tile]:
    """The tiles of the best line from the open end ``start``, in the order to lay them:
    the most tiles, then the most pips. Empty when no tile matches ``start``.

    This is the "best line from this hand" hint: on a first turn, ``start`` is the engine's
    number (or the open end of the player's own train, if somebody has played on it).
    """
    return _Planner(hand, start).solve()


class _Bound(NamedTuple):
    """What a branch could still reach: its bound, and the tiles its relaxation keeps."""

    value: Value
    kept: int  # bit mask of tiles: the reachable ones minus the cheapest T-join
    left_out: int  # bit mask of the T-join's tiles


class _Planner:
    """The hand as a graph of numbers (tiles as bits of a mask), and one search over it."""

    def __init__(self, hand: Iterable[Tile], start: int) -> None:
        tiles = sorted(set(hand))
        self.start = start
        self.doubles = {a for a, b in tiles if a == b}
        self.edges = [t for t in tiles if t[0] != t[1]]
        self.pips = [a + b for a, b in self.edges]
        self.adjacent: dict[int, list[tuple[int, int, int]]] = {}  # number: (bit, index, other)
        for index, (a, b) in enumerate(self.edges):
            for here, there in ((a, b), (b, a)):
                self.adjacent.setdefault(here, []).append((1 << index, index, there))

    def solve(self) -> list[Tile]:
        """Best-first branch and bound over "this tile is in the line / left out"."""
        best_tiles = 0
        best = self._value(0, 1 << self.start)
        tie = count()  # keeps heap entries comparable without comparing masks
        queue: list[tuple[Value, int, int, int, _Bound]] = []

        def push(forced: int, excluded: int) -> None:
            bound = self._bound(forced, excluded)
            if bound is not None and bound.value > best:
                negated = (-bound.value[0], -bound.value[1])
                heapq.heappush(queue, (negated, next(tie), forced, excluded, bound))

        push(0, 0)
        while queue:
            _, _, forced, excluded, bound = heapq.heappop(queue)
            if bound.value <= best:
                break  # best first: nothing left can beat it
            line_tiles, numbers = self._component(bound.kept)
            value = self._value(line_tiles, numbers)
            if value > best:
                best, best_tiles = value, line_tiles
            if value >= bound.value:
                continue
            # Leaving the T-join out cut the line off from some tiles: decide about one
            # left-out tile that joins the line to them (it exists: the hand is connected).
            tile = next(bit for bit in _bits(bound.left_out) if self._crosses(bit, numbers))
            push(forced | tile, excluded)
            push(forced, excluded | tile)
        return self._line(best_tiles)

    def _value(self, tiles: int, numbers: int) -> Value:
        """The value of laying ``tiles``, which visit ``numbers``, plus the doubles there."""
        doubles = [n for n in self.doubles if numbers >> n & 1]
        return (
            tiles.bit_count() + len(doubles),
            sum(self.pips[i] for i in _indices(tiles)) + sum(2 * n for n in doubles),
        )

    def _crosses(self, bit: int, numbers: int) -> bool:
        """Whether the tile ``bit`` has exactly one end among ``numbers``."""
        a, b = self.edges[bit.bit_length() - 1]
        return (numbers >> a & 1) != (numbers >> b & 1)

    def _component(self, tiles: int) -> tuple[int, int]:
        """The tiles of ``tiles`` connected to ``start``, and the numbers they visit."""
        numbers, found = 1 << self.start, 0
        stack = [self.start]
        while stack:
            number = stack.pop()
            for bit, _, other in self.adjacent.get(number, ()):
                if tiles & bit and not found & bit:
                    found |= bit
                    if not numbers >> other & 1:
                        numbers |= 1 << other
                        stack.append(other)
        return found, numbers

    def _bound(self, forced: int, excluded: int) -> _Bound | None:
        """The best any line could do that keeps every ``forced`` tile and none of the
        ``excluded`` ones; None when no line can keep them all."""
        reachable, numbers = self._component(~excluded)
        if forced & ~reachable:
            return None
        # Odd numbers of the reachable tiles, with `start` toggled: the tiles left out must
        # be odd exactly there, give or take the line's last number (Euler).
        odd = []
        for n in _indices(numbers):
            degree = sum(1 for bit, _, _ in self.adjacent.get(n, ()) if reachable & bit)
            if degree & 1 != (n == self.start):
                odd.append(n)
        left_out = self._cheapest_join(odd, reachable & ~forced)
        if left_out is None:
            return None
        kept = reachable & ~left_out
        return _Bound(self._value(kept, numbers), kept, left_out)

    def _cheapest_join(self, odd: list[int], removable: int) -> int | None:
        """The tiles of the cheapest T-join on ``odd`` (an odd count of numbers) within
        ``removable``: every number but one is paired with another by a path, the one left
        alone being the line's last number. None when they cannot all be paired."""
        paths = [self._paths(n, removable, odd) for n in odd]
        costs = [[paths[i].get(m, (_INFINITE, 0))[0] for m in odd] for i in range(len(odd))]
        memo: dict[int, tuple[int, int]] = {0: (0, -1)}  # mask: (cost, partner chosen)

        def pairing(mask: int) -> int:
            if mask in memo:
                return memo[mask][0]
            i = (mask & -mask).bit_length() - 1
            rest = mask ^ (1 << i)
            best, partner = (pairing(rest), i) if mask.bit_count() & 1 else (_INFINITE, -1)
            row = costs[i]
            for j in _indices(rest):
                cost = row[j]
                if cost < best:
                    cost += pairing(rest ^ (1 << j))
                    if cost < best:
                        best, partner = cost, j
            memo[mask] = best, partner
            return best

        mask = (1 << len(odd)) - 1
        if pairing(mask) >= _INFINITE:
            return None
        tiles = 0
        while mask:
            i = (mask & -mask).bit_length() - 1
            j = memo[mask][1]
            if j != i:
                tiles ^= paths[i][odd[j]][1]
            mask &= ~(1 << i | 1 << j)
        return tiles

    def _paths(self, source: int, removable: int, targets: list[int]) -> dict[int, tuple[int, int]]:
        """Cheapest paths from ``source`` over ``removable`` tiles, as ``{number: (cost,
        tiles)}``: fewest tiles, then fewest pips (a tile costs ``_WEIGHT`` plus its pips).
        Breadth first, layer by layer, stopping once every target is reached."""
        found = {source: (0, 0)}
        layer = [source]
        missing = len(targets) - 1
        while layer and missing > 0:
            reached: dict[int, tuple[int, int]] = {}
            for number in layer:
                cost, path = found[number]
                for bit, index, other in self.adjacent.get(number, ()):
                    if removable & bit and other not in found:
                        new = cost + _WEIGHT + self.pips[index]
                        if new < reached.get(other, (_INFINITE, 0))[0]:
                            reached[other] = (new, path | bit)
            found.update(reached)
            missing -= sum(1 for n in reached if n in targets)
            layer = list(reached)
        return found

    def _line(self, tiles: int) -> list[Tile]:
        """The tiles laid as one line from ``start`` (an Euler trail, by Hierholzer), each
        double inserted at its number's first visit."""
        unused = tiles
        stack: list[tuple[int, int | None]] = [(self.start, None)]  # (number, tile that led there)
        trail: list[int] = []
        while stack:
            number, _ = stack[-1]
            step = next(
                (
                    (bit, index, other)
                    for bit, index, other in self.adjacent.get(number, ())
                    if unused & bit
                ),
                None,
            )
            if step is None:
                _, index = stack.pop()
                if index is not None:
                    trail.append(index)
            else:
                bit, index, other = step
                unused &= ~bit
                stack.append((other, index))
        trail.reverse()
        line: list[Tile] = []
        end = self.start
        placed: set[int] = set()
        for index in [*trail, None]:
            if end in self.doubles and end not in placed:
                line.append((end, end))
                placed.add(end)
            if index is not None:
                a, b = self.edges[index]
                line.append((a, b))
                end = b if a == end else a
        return line


def _bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask`` as masks, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _indices(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    for bit in _bits(mask):
        yield bit.bit_length() - 1


def exhaustive_line(
    hand: Iterable[Tile], start: int, limit: int | None = None
) -> list[Tile] | None:
    """Try every line there is, keep the best: the reference the planner is tested against,
    and the quicker answer for a hand with few lines (most hands of a round's later turns:
    the planner's setup costs more than trying them). Exponential (seconds for some hands
    of 25), so ``limit`` caps the lines tried: past it, None."""
    tiles = sorted(set(hand))
    by_number: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(tiles):
        by_number.setdefault(a, []).append(i)
        if b != a:
            by_number.setdefault(b, []).append(i)
    used = [False] * len(tiles)
    line: list[Tile] = []
    best: list[Tile] = []
    best_value: Value = (0, 0)
    left = _INFINITE if limit is None else limit  # lines still to try

    def extend(end: int, value: Value) -> bool:
        """False once ``limit`` lines have been tried."""
        nonlocal best, best_value, left
        left -= 1
        if left < 0:
            return False
        if value > best_value:
            best, best_value = list(line), value
        for i in by_number.get(end, ()):
            if not used[i]:
                a, b = tiles[i]
                used[i] = True
                line.append((a, b))
                going = extend(b if a == end else a, (value[0] + 1, value[1] + a + b))
                line.pop()
                used[i] = False
                if not going:
                    return False
        return True

    return best if extend(start, (0, 0)) else None

"""Tiles and sets.

A tile is a plain ``(low, high)`` tuple with ``low <= high``: tuples are hashable, compare
cheaply and serialise to JSON as two-element lists, which matters on the engine's hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

Tile = tuple[int, int]

SUPPORTED_SETS = (6, 9, 12, 15, 18)


def tile(a: int, b: int) -> Tile:
    """The tile with ends ``a`` and ``b``, in its one canonical order."""
    return (a, b) if a <= b else (b, a)


@cache  # a set is dealt every round, and is the same tuple every time
def full_set(top: int) -> tuple[Tile, ...]:
    """Every tile of a double-``top`` set, in a fixed order (the order shuffles start from)."""
    return tuple((a, b) for a in range(top + 1) for b in range(a, top + 1))


def set_size(top: int) -> int:
    """Number of tiles in a double-``top`` set: (N+1)(N+2)/2."""
    return (top + 1) * (top + 2) // 2


def pips(t: Tile) -> int:
    return t[0] + t[1]


def is_double(t: Tile) -> bool:
    return t[0] == t[1]


def other_end(t: Tile, value: int) -> int:
    """The end left open when ``t`` is laid against ``value``."""
    return t[1] if t[0] == value else t[0]


def name(t: Tile) -> str:
    """How a player reads a tile aloud, e.g. ``6-6`` or ``12-5`` (high end first)."""
    return f"{t[1]}-{t[0]}"


def parse(text: str) -> Tile:
    """Read a tile written as ``12-5`` (either order); a clear ``ValueError`` otherwise."""
    parts = text.replace(" ", "").split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a tile: write it as two numbers, like 12-5.")
    return tile(int(parts[0]), int(parts[1]))


def hand_pips(tiles: Iterable[Tile]) -> int:
    return sum(a + b for a, b in tiles)

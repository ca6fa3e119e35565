"""Dominoes drawn as SVG (templates/dominoes/), for every page that shows one: the table,
the score sheet and the admin's replay.

``{% domino_sprite %}`` goes once in every page that shows dominoes (base.html has it);
``{% domino 9 9 %}`` draws a domino lying flat; ``{% laid tile %}`` draws a tile as it lies
in a train, a double crosswise; ``{% standing tile %}`` draws a tile of a hand, upright.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from games.engine.tiles import SUPPORTED_SETS

register = template.Library()

# Pip positions on a 3x3 grid (column, row) for each number up to 9, as on a real domino.
# Higher numbers are written as numerals: a pattern of 10 to 18 pips is hard to read small.
_CORNERS = [(0, 0), (2, 2)]
_FOUR = [(0, 0), (2, 0), (0, 2), (2, 2)]
_SIX = [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]
_CENTRE = [(1, 1)]
PIPS: dict[int, list[tuple[int, int]]] = {
    0: [],
    1: _CENTRE,
    2: _CORNERS,
    3: _CORNERS + _CENTRE,
    4: _FOUR,
    5: _FOUR + _CENTRE,
    6: _SIX,
    7: _SIX + _CENTRE,
    8: _SIX + [(1, 0), (1, 2)],
    9: _SIX + [(1, 0), (1, 2)] + _CENTRE,
}

# Each number has its colour, as on a coloured double-twelve set: matching ends read at a
# glance. It is an inline style, not a fill attribute, because the site's stylesheet colours
# `.domino circle` for the score sheet's plain dominoes and would win over an attribute.
COLOURS = (
    "#1d1d1f", "#2a7de1", "#1f9d55", "#d63b2f", "#7b4bb7", "#c27c0e", "#0f8b8d",
    "#b8336a", "#3f5873", "#8a6d1d", "#1c6e3d", "#a23b12", "#5a4fcf", "#2f2f2f",
    "#2a7de1", "#1f9d55", "#d63b2f", "#7b4bb7", "#c27c0e",
)  # fmt: skip


@register.inclusion_tag("dominoes/sprite.html")
def domino_sprite() -> dict[str, Any]:
    """The numbers every domino on the page draws from: once per page, before any domino.
    Each end is a 20 x 20 square; pips sit on a 3 x 3 grid 5 units apart."""
    ends = [
        {
            "number": n,
            "colour": COLOURS[n % len(COLOURS)],
            "pips": [(5 + 5 * col, 5 + 5 * row) for col, row in PIPS[n]] if n in PIPS else None,
        }
        for n in range(max(SUPPORTED_SETS) + 1)
    ]
    return {"ends": ends}


@register.inclusion_tag("dominoes/domino.html")
def domino(first: int, second: int, vertical: bool = False) -> dict[str, Any]:
    return {"first": int(first), "second": int(second), "vertical": bool(vertical)}


@register.inclusion_tag("dominoes/domino.html")
def laid(pair: Sequence[int]) -> dict[str, Any]:
    """A tile in a train, read ``(touching, open)`` left to right; doubles lie crosswise."""
    return domino(pair[0], pair[1], pair[0] == pair[1])


@register.inclusion_tag("dominoes/domino.html")
def standing(pair: Sequence[int]) -> dict[str, Any]:
    """A tile in a hand, upright, high end on top."""
    return domino(max(pair), min(pair), True)

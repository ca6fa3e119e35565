"""Template helpers of the score sheet: a domino drawn as SVG, and JSON for data attributes."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()

# Pip positions on a 3x3 grid (column, row) for each number up to 9, as on a real domino.
# Higher numbers are written as numerals: a pip pattern of 10 to 18 is hard to read small.
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
HALF = 20  # one end of the domino is a HALF x HALF square, in SVG units


def _end(value: int, offset: int) -> dict[str, Any]:
    if value in PIPS:
        dots = [(offset + 5 + 5 * col, 5 + 5 * row) for col, row in PIPS[value]]
        return {"dots": dots, "numeral": None}
    return {"dots": [], "numeral": value, "x": offset + HALF / 2}


@register.inclusion_tag("scoring/partials/domino.html")
def domino(first: int, second: int, label: str = "") -> dict[str, Any]:
    """A horizontal domino, e.g. ``{% domino 9 9 %}`` for the round's double."""
    return {
        "ends": [_end(first, 0), _end(second, HALF)],
        "label": label or f"{first}-{second}",
        "width": 2 * HALF,
        "middle": HALF,
        "height": HALF,
    }


@register.filter
def tojson(value: Any) -> str:
    """JSON for a data attribute (autoescaping turns the quotes into entities)."""
    return json.dumps(value, separators=(",", ":"))

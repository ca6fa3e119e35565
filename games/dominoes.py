"""Dominoes drawn as SVG: one drawing for the table, the hand, the score sheet and the replay.

A drawing depends only on the two numbers and the orientation, so each is built once and
kept: a table screen with a hundred tiles then costs a hundred dictionary lookups.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.engine.tiles import SUPPORTED_SETS

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

# Each number has its colour, as on a coloured double-twelve set: matching ends read at a glance.
# The colour is an inline style, not a fill attribute, because the site's stylesheet colours
# `.domino circle` for the score sheet's plain dominoes and would win over an attribute.
COLOURS = (
    "#1d1d1f", "#2a7de1", "#1f9d55", "#d63b2f", "#7b4bb7", "#c27c0e", "#0f8b8d",
    "#b8336a", "#3f5873", "#8a6d1d", "#1c6e3d", "#a23b12", "#5a4fcf", "#2f2f2f",
    "#2a7de1", "#1f9d55", "#d63b2f", "#7b4bb7", "#c27c0e",
)  # fmt: skip

HALF = 20  # one end of a domino is a HALF x HALF square, in SVG units


def _pips(value: int) -> str:
    """One end's pips (or numeral), drawn once in the page's sprite for every domino to use."""
    fill = f'style="fill:{COLOURS[value % len(COLOURS)]}"'
    if value in PIPS:
        return "".join(
            f'<circle cx="{5 + 5 * col}" cy="{5 + 5 * row}" r="1.9" {fill}/>'
            for col, row in PIPS[value]
        )
    return (
        f'<text x="{HALF / 2}" y="{HALF / 2}" {fill} font-size="11" font-weight="700" '
        f'font-family="system-ui, sans-serif" text-anchor="middle" '
        f'dominant-baseline="central">{value}</text>'
    )


@lru_cache(maxsize=1)
def sprite() -> SafeString:
    """The faces and the ends of every number, once per page: each domino then shows them by
    reference, which keeps a table screen of a hundred tiles a few kilobytes, not forty.
    The faces take their fill and stroke from the ``use`` that shows them (CSS classes
    ``domino__face``), so each page colours its dominoes its own way."""
    h, w = HALF, 2 * HALF
    faces = (
        f'<g id="mt-face"><rect width="{w}" height="{h}" rx="3"/>'
        f'<line x1="{h}" y1="3" x2="{h}" y2="{h - 3}"/></g>'
        f'<g id="mt-face-v"><rect width="{h}" height="{w}" rx="3"/>'
        f'<line x1="3" y1="{h}" x2="{h - 3}" y2="{h}"/></g>'
    )
    ends = "".join(f'<g id="mt-end-{n}">{_pips(n)}</g>' for n in range(max(SUPPORTED_SETS) + 1))
    return mark_safe(  # noqa: S308 - built from numbers only
        '<svg class="domino-sprite" width="0" height="0" aria-hidden="true" '
        f'style="position:absolute"><defs>{faces}{ends}</defs></svg>'
    )


@lru_cache(maxsize=1024)
def svg(first: int, second: int, vertical: bool = False) -> SafeString:
    """A domino reading ``first`` then ``second`` (left to right, or top to bottom when
    ``vertical``), drawn from the page's sprite. The label reads high end first, as players
    say it."""
    label = escape(f"{max(first, second)}-{min(first, second)}")
    if vertical:
        box, face, second_end = f"{HALF + 1} {2 * HALF + 1}", "mt-face-v", f'y="{HALF}"'
    else:
        box, face, second_end = f"{2 * HALF + 1} {HALF + 1}", "mt-face", f'x="{HALF}"'
    return mark_safe(  # noqa: S308 - built from numbers only
        f'<svg class="domino{" domino--vertical" if vertical else ""}" viewBox="-0.5 -0.5 {box}" '
        f'role="img" aria-label="{label}"><use class="domino__face" href="#{face}"/>'
        f'<use href="#mt-end-{first}"/><use href="#mt-end-{second}" {second_end}/></svg>'
    )


@lru_cache(maxsize=1024)
def laid(touching: int, open_: int) -> SafeString:
    """A tile as it lies in a train, in its span: a double crosswise. Trains are most of a
    screen, so whole spans are kept, not just the drawings."""
    double = " tile--double" if touching == open_ else ""
    return mark_safe(  # noqa: S308 - built from numbers only
        f'<span class="tile tile--laid{double}" data-tile="{touching}-{open_}">'
        f"{svg(touching, open_, touching == open_)}</span>"
    )

"""Dominoes drawn as SVG in templates (the drawing itself is games/dominoes.py).

``{% domino_sprite %}`` goes once in every page that shows dominoes (base.html has it);
``{% domino 9 9 %}`` draws a domino lying flat; ``{% laid tile %}`` draws a tile as it lies
in a train, a double crosswise; ``{% standing tile %}`` draws a tile of a hand, upright.
"""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.safestring import SafeString

from games import dominoes

register = template.Library()


@register.simple_tag
def domino(first: int, second: int, vertical: bool = False) -> SafeString:
    return dominoes.svg(int(first), int(second), bool(vertical))


@register.simple_tag
def laid(pair: Sequence[int]) -> SafeString:
    """A tile in a train, read ``(touching, open)`` left to right; doubles lie crosswise."""
    return dominoes.svg(int(pair[0]), int(pair[1]), pair[0] == pair[1])


@register.simple_tag
def standing(pair: Sequence[int]) -> SafeString:
    """A tile in a hand, upright, high end on top."""
    return dominoes.svg(max(pair), min(pair), True)


@register.simple_tag
def domino_sprite() -> SafeString:
    """The numbers every domino on the page draws from: once per page, before any domino."""
    return dominoes.sprite()

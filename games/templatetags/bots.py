"""What a bot level plays like, in the words a host reads when choosing one."""

from __future__ import annotations

from django import template

from games.bots import PLAYS_LIKE

register = template.Library()


@register.filter
def plays_like(level: str) -> str:
    return PLAYS_LIKE.get(level, "")

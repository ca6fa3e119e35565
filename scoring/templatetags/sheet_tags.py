"""Template helpers of the score sheet: JSON for data attributes. (Dominoes are drawn by
games.dominoes, through the ``dominoes`` tag library, like everywhere else.)"""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


@register.filter
def tojson(value: Any) -> str:
    """JSON for a data attribute (autoescaping turns the quotes into entities)."""
    return json.dumps(value, separators=(",", ":"))

"""The tables this browser holds a seat at, for the front page, and a turn's time left in
words, for "Your tables"."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone

from crews import sessions as crew_sessions
from games import selectors, sessions

register = template.Library()

# The units a time left is said in, largest first, with their seconds.
UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


@register.inclusion_tag("games/partials/my_tables.html", takes_context=True)
def my_tables(context: dict[str, Any]) -> dict[str, Any]:
    """The tables not finished that this browser (or its person, in a crew) holds a seat
    at, newest first, and whether it holds any (the link to them all); tables since
    deleted are left out (their seats are forgotten only when the table page finds them
    gone)."""
    request = context.get("request")
    if request is None:
        return {"rows": [], "any": False}
    rows = selectors.your_tables(
        sessions.seats(request.session), device=crew_sessions.known_device(request.session)
    )
    return {"rows": [row for row in rows if not row.finished], "any": bool(rows)}


@register.filter
def time_left(due_at: datetime | None) -> str:
    """``due_at`` as the time left until it, in words ("2 hours 5 minutes left"): the two
    largest units, as static/games/time_left.js says it again each second."""
    if due_at is None:
        return ""
    seconds = int((due_at - timezone.now()).total_seconds())
    if seconds <= 0:
        return "Time is up"
    parts = []
    for unit, size in UNITS:
        count, seconds = divmod(seconds, size)
        if count or parts:
            parts.append(f"{count} {unit}{'' if count == 1 else 's'}")
        if len(parts) == 2:
            break
    return f"{' '.join(p for p in parts if not p.startswith('0 '))} left"

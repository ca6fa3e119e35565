"""The tables this browser holds a seat at, for the front page."""

from __future__ import annotations

from typing import Any

from django import template

from games import sessions
from games.models import Table

register = template.Library()


@register.inclusion_tag("games/partials/my_tables.html", takes_context=True)
def my_tables(context: dict[str, Any]) -> dict[str, Any]:
    """Each table with this browser's seat in it, newest first; tables since deleted are
    left out (their seats are forgotten only when the table page finds them gone)."""
    request = context.get("request")
    codes = sessions.tables(request.session) if request is not None else []
    if not codes:
        return {"tables": []}
    found = Table.objects.filter(code__in=codes).prefetch_related("seats")
    tokens = {code: sessions.seat_token(request.session, code) for code in codes}
    rows = []
    for table in found:
        me = next((s for s in table.seats.all() if s.token == tokens[table.code]), None)
        if me is not None:
            rows.append({"table": table, "me": me, "players": [s.name for s in table.seats.all()]})
    return {"tables": rows}

"""What one seat's screen shows: the view a socket sends, as data and as page regions.

Every view is complete (the whole table as this seat may see it, with the table's version),
so a socket never needs the messages it missed. The data part carries the seat's legal moves
for the page's script (and for programs that play over the socket, like the load test); the
HTML part is the same partials the table page renders, swapped in by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string

from games.engine import view_for

from . import movelog, render
from .models import Table

RECENT_MOVES = 14  # the tail of the public log a screen shows


@dataclass(frozen=True)
class Screen:
    """One seat's screen: the view as data (for the page's script and for programs) and the
    context the region partials are rendered from."""

    data: dict[str, Any]
    context: dict[str, Any]


def payload(
    code: str,
    token: str | None,
    version: int | None = None,
    *,
    host_token: str = "",
    with_sheet: bool = False,
) -> dict[str, Any]:
    """The ``view`` message for one socket, with its regions as HTML (docs/protocol.md)."""
    found = screen(code, token, version, host_token=host_token, with_sheet=with_sheet)
    if found is None:
        return {"type": "error", "code": "no_table", "message": "This table no longer exists."}
    return {**found.data, "html": render_to_string("games/partials/regions.html", found.context)}


def screen(
    code: str,
    token: str | None,
    version: int | None = None,
    *,
    host_token: str = "",
    with_sheet: bool = False,
) -> Screen | None:
    """What the seat of ``token`` sees (a spectator without one) at ``version`` (default:
    the newest); None for no such table.

    The score sheet is the costliest region, so it is rendered only when asked for (a page
    load, a socket's first view) and while a round is over, when its scores change: never
    on an ordinary move, which a hundred busy tables make many of a second.
    """
    table = Table.objects.filter(code=code).first()
    if table is None:
        return None
    seats = list(table.seats.all())
    me = next((s for s in seats if token and s.token == token), None)
    shown = table.version if version is None else min(version, table.version)
    game = movelog.game_of(table, shown)
    view = None
    if game is not None and game.round is not None:
        view = view_for(game, me.position if me else None)
    data: dict[str, Any] = {
        "type": "view",
        "version": shown,
        "status": table.status,
        "seat": me.position if me else None,
        "seats": [
            {
                "position": s.position,
                "name": s.name,
                "bot": s.played_by_bot or None,
                "stand_in": bool(s.stand_in),
                "connected": s.connected or s.is_bot,
                "ready_for": s.ready_for,
            }
            for s in seats
        ],
        "next_round_at": table.next_round_at.isoformat() if table.next_round_at else None,
        "game": None,
    }
    if view is not None:
        game_data = view.as_dict()
        game_data["log"] = game_data["log"][-RECENT_MOVES:]
        game_data["over"] = game.is_over
        data["game"] = game_data
    context = render.screen_context(table, seats, me, game, view)
    context["is_host"] = bool(host_token) and host_token == table.host_token
    if table.match is not None and (with_sheet or (view is not None and view.round_over)):
        context["sheet"] = render.sheet_context(table.match)
    return Screen(data, context)

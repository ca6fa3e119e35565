"""What one seat's screen shows: the view a socket sends, as data and as page regions.

Every view is complete (the whole table as this seat may see it, with the table's version),
so a socket never needs the messages it missed. The data part carries the seat's legal moves
for the page's script (and for programs that play over the socket, like the load test); the
HTML part is the same partials the table page renders, swapped in by id.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.template.loader import render_to_string

from games.engine import Game, view_for

from . import movelog, render
from .models import Table, TableSeat
from .movelog import NotCached

RECENT_MOVES = 14  # the tail of the public log a screen shows


@dataclass(frozen=True)
class Screen:
    """One seat's screen: the view as data (for the page's script and for programs) and the
    context the region partials are rendered from."""

    data: dict[str, Any]
    context: dict[str, Any]
    game: Game | None


def payload(
    code: str,
    token: str | None,
    version: int | None = None,
    revision: int | None = None,
    *,
    host_token: str = "",
    with_sheet: bool = False,
    cached_only: bool = False,
) -> dict[str, Any]:
    """The ``view`` message for one socket, with its regions as HTML (docs/protocol.md).

    ``cached_only`` builds it from this process's caches alone, without the database, or
    raises :class:`~games.movelog.NotCached`: a socket then needs no worker thread for the
    three views out of four that another socket of the table has already read for."""
    found = screen(
        code,
        token,
        version,
        revision,
        host_token=host_token,
        with_sheet=with_sheet,
        shared=False,
        cached_only=cached_only,
    )
    if found is None:
        return {"type": "error", "code": "no_table", "message": "This table no longer exists."}
    html = render_to_string("games/partials/seat_regions.html", found.context)
    if found.game is not None:
        html = _shared_regions(code, found.data["version"], found.game, found.context) + html
    return {**found.data, "html": html}


def read(code: str, version: int | None, revision: int) -> None:
    """Read into this process's caches what the views at this revision show (the table, its
    seats, the game at the version), so that every socket can then build its own view
    without the database (``payload(..., cached_only=True)``)."""
    found = _table_at(code, revision)
    if found is not None:
        movelog.game_of(found[0], version)


# The table and its seats as they were at a revision, read once per process: every socket
# of the table is told of each revision and would otherwise read the same two rows.
_TABLES_KEPT = 512
_tables_lock = threading.Lock()
_tables: OrderedDict[tuple[str, int], tuple[Table, list[TableSeat]]] = OrderedDict()


def _table_at(
    code: str, revision: int | None, cached_only: bool = False
) -> tuple[Table, list[TableSeat]] | None:
    """The table and its seats, fresh from the database unless this process has already
    read them at ``revision`` or later (None: always fresh)."""
    if revision is not None:
        with _tables_lock:
            found = _tables.get((code, revision))
        if found is not None:
            return found
    if cached_only:
        raise NotCached(f"table {code} at revision {revision}")
    table = Table.objects.filter(code=code).first()
    if table is None:
        return None
    found = (table, list(table.seats.all()))
    _keep(found, table.revision)
    if revision is not None:  # what is there now will do for an older revision too
        _keep(found, revision)
    return found


def remember(table: Table, seats: list[TableSeat]) -> None:
    """Keep the table and seats a service has just written, once it commits: this process's
    sockets then need no read to show that revision."""
    found = (table, sorted(seats, key=lambda s: s.position))
    revision = table.revision
    transaction.on_commit(lambda: _keep(found, revision))


def _keep(found: tuple[Table, list[TableSeat]], revision: int) -> None:
    with _tables_lock:
        _tables[(found[0].code, revision)] = found
        while len(_tables) > _TABLES_KEPT:
            _tables.popitem(last=False)


# The regions every seat sees alike, rendered once per table version and process: four
# sockets of a table (and every spectator) are told of each version, and they all show it.
_SHARED_KEPT = 512
_shared_lock = threading.Lock()
_shared: OrderedDict[tuple[str, int], str] = OrderedDict()


def _shared_regions(code: str, version: int, game: Game, context: dict[str, Any]) -> str:
    key = (code, version)
    with _shared_lock:
        html = _shared.get(key)
    if html is None:
        public = view_for(game, None)  # built from no seat's view, so it holds no hand
        shared = render.shared_context(public, context["names"])
        html = render_to_string("games/partials/shared_regions.html", shared)
        with _shared_lock:
            _shared[key] = html
            while len(_shared) > _SHARED_KEPT:
                _shared.popitem(last=False)
    return html


def screen(
    code: str,
    token: str | None,
    version: int | None = None,
    revision: int | None = None,
    *,
    host_token: str = "",
    with_sheet: bool = False,
    shared: bool = True,
    cached_only: bool = False,
) -> Screen | None:
    """What the seat of ``token`` sees (a spectator without one) at ``version`` (default:
    the newest); None for no such table. ``shared`` off leaves out the context of the
    regions all seats share (a socket gets those already rendered, from the cache).

    The score sheet is the costliest region, so it is rendered only when asked for (a page
    load, a socket's first view) and while a round is over, when its scores change: never
    on an ordinary move, which a hundred busy tables make many of a second.
    """
    found = _table_at(code, revision, cached_only)
    if found is None:
        return None
    table, seats = found
    me = next((s for s in seats if token and s.token == token), None)
    shown = table.version if version is None else min(version, table.version)
    game = movelog.game_of(table, shown, cached_only=cached_only)
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
    context = render.screen_context(table, seats, me, game, view, shared=shared)
    context["is_host"] = bool(host_token) and host_token == table.host_token
    if table.match_id is not None and (with_sheet or (view is not None and view.round_over)):
        if cached_only:
            raise NotCached("the score sheet is read from the database")
        context["sheet"] = render.sheet_context(table.match)
    return Screen(data, context, game if view is not None else None)

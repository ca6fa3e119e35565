"""What one seat's screen shows: the view a socket sends, as data and as page regions.

Every view is complete (the whole table as this seat may see it, with the table's version),
so a socket never needs the messages it missed. The data part carries the seat's legal moves
for the page's script (and for programs that play over the socket, like the load test); the
HTML part is the same partials the table page renders, swapped in by id.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime

from games.engine import Game, SeatView, view_for
from scoring.services import Sheet, compute_sheet

from . import movelog, render
from .models import Table, TableSeat
from .movelog import NotCached


@dataclass(frozen=True)
class Screen:
    """One seat's screen: the context the region partials are rendered from, and the game
    version it shows (with the game itself while a round is shown)."""

    context: dict[str, Any]
    version: int
    game: Game | None

    @property
    def data(self) -> dict[str, Any]:
        """The view as data, for the page's script and for programs that play over the
        socket (the socket sends the same data, encoded by parts: :func:`message`)."""
        table, seats, me, view = (self.context[k] for k in ("table", "seats", "me", "view"))
        game = None
        if view is not None:
            game = {**_game_part(view, self.game), **view.own_dict()}
        seat = {"seat": me.position if me else None}
        return {**_table_part(table, seats, self.version), **seat, "game": game}


def message(
    code: str,
    token: str | None,
    version: int | None = None,
    revision: int | None = None,
    *,
    host_token: str = "",
    with_sheet: bool = False,
    cached_only: bool = False,
) -> str:
    """The ``view`` message for one socket, as the JSON text it is sent as, with its regions
    as HTML (docs/protocol.md).

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
        gone = "This table no longer exists."
        return _json({"type": "error", "code": "no_table", "message": gone})
    table, seats, me, view = (found.context[k] for k in ("table", "seats", "me", "view"))
    regions = [_json(render.seat_regions(found.context))]
    game = "null"
    if found.game is not None:
        regions[:0] = [
            _shared_regions(code, found.version, found.game, found.context),
            _players_region(found.version, found.context),
        ]
        # The part every seat shares, encoded once per version, and this seat's own part:
        # two JSON objects joined into one
        shared = _games.kept((code, found.version), lambda: _json(_game_part(view, found.game)))
        game = shared[:-1] + "," + _json(view.own_dict())[1:]
    # JSON strings joined (without the quotes between them): the JSON of the texts joined
    html = '"' + "".join(region[1:-1] for region in regions) + '"'
    key = (code, table.revision, found.version)
    head = _heads.kept(key, lambda: _json(_table_part(table, seats, found.version)))
    seat = "null" if me is None else str(me.position)
    return f'{head[:-1]},"seat":{seat},"game":{game},"html":{html}}}'


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def read(code: str, version: int | None, revision: int) -> None:
    """Read into this process's caches what the views at this revision show (the table, its
    seats, the game at the version), so that every socket can then build its own view
    without the database (``message(..., cached_only=True)``)."""
    found = _table_at(code, revision)
    if found is not None:
        movelog.game_of(found[0], version)


class _Recent:
    """The latest entries of a cache this process keeps, shared by its threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple, Any] = OrderedDict()

    def get(self, key: tuple) -> Any:
        with self._lock:
            return self._entries.get(key)

    def put(self, key: tuple, value: Any) -> None:
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def kept(self, key: tuple, build: Callable[[], Any]) -> Any:
        """The entry for ``key``, built (outside the lock) and kept if there is none."""
        value = self.get(key)
        if value is None:
            value = build()
            self.put(key, value)
        return value


# The table and its seats as they were at a revision, read once per process: every socket
# of the table is told of each revision and would otherwise read the same two rows.
_tables = _Recent(512)  # (code, revision) -> (table, seats)
# The regions every seat sees alike, rendered (and encoded as a JSON string) once per table
# version and process: four sockets of a table (and every spectator) are told of each
# version, and they all show it.
_shared = _Recent(512)  # (code, version) -> JSON string
# The players region, rendered once per table revision, game version and process: every
# seat sees the same rows (the page's script marks its own), but the host's session sees
# its offers to let a bot play for a person away, rendered for the host's seat.
_players = _Recent(512)  # (code, revision, version, the host's seat or None) -> JSON string
# A view's data that every seat shares, encoded once per process: the table's part (its
# seats, who is here and ready) per revision and version, the game's part per version.
_heads = _Recent(512)  # (code, revision, version) -> JSON object
_games = _Recent(512)  # (code, version) -> JSON object
# The score sheet, rendered once per table version and process: at a round's end every seat
# shows it, and again each time somebody presses Ready (a new revision, the same version).
_sheets = _Recent(128)  # (code, version) -> HTML
# The sheet a table's service worked out as it recorded a round, for the version that ends it.
_scored = _Recent(128)  # (code, version) -> scoring.services.Sheet


def _table_at(
    code: str, revision: int | None, cached_only: bool = False
) -> tuple[Table, list[TableSeat]] | None:
    """The table and its seats, fresh from the database unless this process has already
    read them at ``revision`` or later (None: always fresh)."""
    if revision is not None:
        found = _tables.get((code, revision))
        if found is not None:
            return found
    if cached_only:
        raise NotCached(f"table {code} at revision {revision}")
    table = Table.objects.filter(code=code).first()
    if table is None:
        return None
    found = (table, list(table.seats.all()))
    _tables.put((code, table.revision), found)
    if revision is not None:  # what is there now will do for an older revision too
        _tables.put((code, revision), found)
    return found


def table_at(code: str, revision: int) -> Table | None:
    """A copy of the table as this process holds it at ``revision``, if it does: for a
    service that has just locked the row at that revision, and may change the copy. Without
    the rows it refers to (the match), which a service reads afresh if it needs them."""
    found = _tables.get((code, revision))
    if found is None or found[0].revision != revision:
        return None
    table = copy.copy(found[0])
    table._state.fields_cache.clear()
    return table


def seats_at(table: Table) -> list[TableSeat]:
    """The seats of a table just read (and locked) at its revision: what this process holds
    at that revision, else read. Every change to a seat moves the revision on, so they are
    the rows. They are the ones this process's screens show: a caller changes a copy (its
    transaction may roll back), never the seat it was given."""
    found = _tables.get((table.code, table.revision))
    if found is None:
        return list(table.seats.all())
    return list(found[1])


def remember(table: Table, seats: list[TableSeat]) -> None:
    """Keep the table and seats a service has just written, once it commits: this process's
    sockets then need no read to show that revision."""
    key = (table.code, table.revision)
    found = (table, sorted(seats, key=lambda s: s.position))
    transaction.on_commit(lambda: _tables.put(key, found))


def carried(table: Table, after: tuple[int, int], lines: list[dict]) -> dict[str, Any]:
    """What a move's announcement carries for :func:`follow` in the other processes: the
    (version, revision) it came after, the table's columns a move changes, and its log
    lines. Only for a move that changed no seat: the seats are taken as they were."""
    at = table.next_round_at
    return {
        "after": list(after),
        "columns": {
            "version": table.version,
            "revision": table.revision,
            "move_count": table.move_count,
            "status": str(table.status),
            "next_round_at": at.isoformat() if at else None,
        },
        "lines": lines,
    }


def follow(code: str, move: dict[str, Any]) -> bool:
    """Take in a move another process committed, from what its announcement carries
    (:func:`carried`), so that this process's sockets can show it without reading the
    database. False when this process does not hold the table or game the move came after."""
    (after_version, after_revision), columns = move["after"], move["columns"]
    found = _tables.get((code, after_revision))
    if found is None or not movelog.follow(code, after_version, columns["version"], move["lines"]):
        return False
    table = copy.copy(found[0])
    for column, value in columns.items():
        setattr(table, column, value)
    at = columns["next_round_at"]  # sent as text: the channel layer carries no datetimes
    table.next_round_at = parse_datetime(at) if at else None
    _tables.put((code, table.revision), (table, found[1]))
    return True


def _table_part(table: Table, seats: list[TableSeat], version: int) -> dict[str, Any]:
    """A view's data about the table and its seats, the same for every seat."""
    return {
        "type": "view",
        "version": version,
        "status": table.status,
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
    }


def _game_part(view: SeatView, game: Game) -> dict[str, Any]:
    """A view's data about the game, the same for every seat (its own part is apart)."""
    return {**view.public_dict(recent=render.RECENT_MOVES), "over": game.is_over}


def _shared_regions(code: str, version: int, game: Game, context: dict[str, Any]) -> str:
    def build() -> str:
        public = view_for(game, None)  # built from no seat's view, so it holds no hand
        shared = render.shared_context(public, context["names"])
        return _json(render.region("shared", shared))

    return _shared.kept((code, version), build)


def _players_region(version: int, context: dict[str, Any]) -> str:
    table, me, host = context["table"], context["me"], context["is_host"]
    seats, match_over = context["seats"], context["match_over"]

    def build() -> str:
        rows = render.players(seats, me, context["view"], match_over)
        return _json(render.region("players", {"players": rows, "table": table, "is_host": host}))

    # The host's copy differs from everybody's only by the stand-in offers: with none, the
    # host shares everybody's.
    offers = host and any(render.stand_in_offered(s, me, match_over) for s in seats)
    host_seat = (me.position if me else -1) if offers else None
    return _players.kept((table.code, table.revision, version, host_seat), build)


def remember_sheet(table: Table, sheet: Sheet) -> None:
    """Keep the score sheet a service has just worked out for the table's version, once it
    commits: this process's screens then draw it without working it out again."""
    key = (table.code, table.version)
    transaction.on_commit(lambda: _scored.put(key, sheet))


def _sheet_region(table: Table, cached_only: bool) -> str:
    """The score sheet at the table's version, as the service that recorded its round
    worked it out, else read from the match as it is now: what is kept for a version is
    never behind it (at most a round ahead, if the table has moved on since the version was
    read)."""

    def build() -> str:
        scored = _scored.get((table.code, table.version))
        if scored is None and cached_only:
            raise NotCached("the score sheet is read from the database")
        sheet = render.sheet_context(scored if scored is not None else compute_sheet(table.match))
        return render_to_string("games/partials/sheet.html", {"sheet": sheet})

    return _sheets.kept((table.code, table.version), build)


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
    is_host = bool(host_token) and host_token == table.host_token
    context = render.screen_context(table, seats, me, game, view, is_host=is_host, shared=shared)
    if table.match_id is not None and (with_sheet or (view is not None and view.round_over)):
        context["sheet_region"] = _sheet_region(table, cached_only)
    return Screen(context, shown, game if view is not None else None)

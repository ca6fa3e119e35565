"""What one seat's screen shows: the table as committed, worked out here, drawn by templates.

The page and the socket show the same regions (templates/games/regions/), each a top-level
element with a stable id: the page includes them, and a socket sends them in every view
for the page's script to swap in by id. Everything a seat sees is decided here, in the
context; the templates only lay it out. A view is always complete and always the table as
it is now, so a socket that missed a change heals with the next view it sends.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime

from games.bots import LEVELS
from games.engine import Game, SeatView, Tile, view_for
from games.engine.actions import DRAW, PASS, PLACE_ENGINE, PLAY
from games.engine.rules import Rules
from games.engine.scoring import HandCount, score
from games.engine.state import Event
from games.engine.tiles import name
from scoring.rendering import Viewer as SheetViewer
from scoring.rendering import standing
from scoring.services import compute_sheet

from .models import Table, TableSeat, answerers, duration_in_words, kept, kept_game, seated
from .wire import Drawn, Region, Sent

NEARLY_OUT = 2  # a lane marks its owner holding this many tiles or fewer
RECENT_MOVES = 14  # the tail of the public log a screen shows (and a view's data carries)
TOP = "games/regions/top.html"
BOARD = "games/regions/board.html"
LOG = "games/regions/log.html"
ROUND = "games/regions/round.html"
DOCK = "games/regions/dock.html"
PLAYERS = "games/regions/players.html"
PLAYER = "games/regions/player.html"
LANE = "games/regions/lane.html"
HAND = "games/regions/hand.html"
SHEET = "games/partials/sheet.html"


@dataclass
class Prompt:
    """The status line: what the table waits for, and the one button needed now."""

    text: str
    mine: bool = False
    buttons: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Viewer:
    """Who a screen is for: a seat (by its row's id; None for a spectator), and whether the
    session is the host's, which adds the host's controls."""

    seat_id: int | None = None
    is_host: bool = False
    channel: str = ""  # the socket drawn for ('' for a page): a request for a seat it made


@dataclass(frozen=True)
class Screen:
    """One seat's screen: the context its regions are drawn from, the view's data for the
    page's script (and for programs that play over the socket), and the revision shown."""

    context: dict[str, Any]
    data: dict[str, Any]
    revision: int


def screen(
    code: str, token: str | None, *, host_token: str = "", with_sheet: bool = False
) -> Screen | None:
    """What the seat of ``token`` sees now (a spectator without one), as the page draws it;
    None for no such table."""
    found = seated(code)
    if found is None:
        return None
    table, seats = found
    me = next((s for s in seats if token and s.token == token), None)
    viewer = Viewer(me.pk if me else None, bool(host_token) and host_token == table.host_token)
    found = _screen(table, seats, viewer, with_sheet)
    if found.context["sheet_due"]:
        found.context["sheet"] = sheet_context(table)
    return found


def _screen(table: Table, seats: list[TableSeat], viewer: Viewer, with_sheet: bool) -> Screen:
    """The screen of ``viewer``. The score sheet, the costliest region, is due only when
    asked for (a page, a socket's first view) and while a round is over, when its scores
    change."""
    me = next((s for s in seats if s.pk == viewer.seat_id), None)
    game = table.game()
    view = None
    if game is not None and game.round is not None:
        view = view_for(game, me.position if me else None)
        if table.status == Table.Status.ABANDONED:  # closed: the board as left, no move
            view = view._replace(legal=())
    context = screen_context(table, seats, me, game, view, is_host=viewer.is_host)
    context["claims"] = _claims(table, seats, me, viewer.channel)
    round_over = view is not None and view.round_over
    context["sheet_due"] = table.match_id is not None and (with_sheet or round_over)
    data = _table_data(table, seats) | {
        "seat": me.position if me else None,
        "game": None if view is None else _game_data(view, game, context["last_moves"]),
    }
    return Screen(context, data, table.revision)


def revision(code: str) -> int | None:
    """The table's revision now: what a socket compares with the last view it sent."""
    return Table.objects.filter(code=code).values_list("revision", flat=True).first()


def rematch(code: str) -> dict[str, str] | None:
    """The newest match played again from the finished one at ``code``, if any: its code,
    and who opened it (the first to take a seat there, in the same transaction), for a
    socket of the finished table to tell its page."""
    found = Table.objects.filter(code=code, status=Table.Status.FINISHED).first()
    if found is None:
        return None
    newest = found.newest()
    if newest == found:
        return None
    opener = newest.seats.filter(kind=TableSeat.Kind.HUMAN).order_by("pk").first()
    return {"code": newest.code, "by": opener.name if opener else ""}


def previous_match(table: Table, token: str | None) -> dict[str, Any] | None:
    """The match this table plays again, for its page: the finished match's score sheet
    (read-only), and, for a browser that held a seat there but has none here yet, that seat,
    to take again with one press."""
    finished = table.rematch_of
    if finished is None:
        return None
    seat = finished.seats.filter(token=token).first() if token else None
    return {"table": finished, "match": finished.match, "seat": seat}


# -- what a socket sends --------------------------------------------------------------------


def snapshot(table: Table, seats: list[TableSeat]) -> dict[str, Any]:
    """What the screens show of the table's row and its seats, as plain data. A service
    sends it with the announcement of what it has committed, so that a socket told of the
    change draws its view without reading the table again (views come from the game and
    from this alone; no hand, no secret)."""
    return {
        **{name: getattr(table, name) for name in TABLE_SHOWN},
        **{name: _iso(getattr(table, name)) for name in TIMES_SHOWN},
        "seats": [{name: getattr(s, name) for name in SEAT_SHOWN} for s in seats],
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


TABLE_SHOWN = (
    "id",
    "code",
    "status",
    "seat_count",
    "fill_level",
    "pace",
    "turn_limit",
    "version",
    "revision",
    "match_id",
    "deal_commitment",
)
SEAT_SHOWN = (
    "id",
    "position",
    "name",
    "kind",
    "bot_level",
    "stand_in",
    "ready_for",
    "channel_name",
    "claimed_by",
    "timeouts",
    "contribution",
    "contribution_by_server",
)
TIMES_SHOWN = ("next_round_at", "moved_at", "turn_due_at")


def _from_snapshot(data: dict[str, Any]) -> tuple[Table, list[TableSeat]]:
    """The table and seats of a :func:`snapshot`, as rows to draw from (never saved): what
    it does not carry is left empty, rather than to the columns' defaults (a new secret,
    the default rules)."""
    table = Table(
        **{name: data[name] for name in TABLE_SHOWN},
        **{name: parse_datetime(data[name]) if data[name] else None for name in TIMES_SHOWN},
        host_token="",
        rules={},
        seed=0,
        deal_secret="",
    )
    return table, [TableSeat(table=table, token="", **seat) for seat in data["seats"]]


def view_message(
    code: str,
    viewer: Viewer,
    *,
    with_sheet: bool = False,
    shown: dict | None = None,
    sent: Sent | None = None,
    whole: bool = False,
) -> tuple[str, int]:
    """The ``view`` message for one socket, as the JSON text it is sent as, with its
    regions drawn (docs/protocol.md), and the revision it shows: the table as ``shown``
    (a :func:`snapshot` an announcement carried) or, without one, as read now. With the
    socket's ``sent`` (games.wire), only the regions its page does not hold yet go (all of
    them when ``whole``); without, every region does."""
    drawn, revision = draw(code, viewer, with_sheet=with_sheet, shown=shown)
    if drawn is None:
        gone = {"type": "error", "code": "no_table", "message": "This table no longer exists."}
        return json.dumps(gone), 0
    return (sent or Sent()).message(drawn, whole=whole), revision


def draw(
    code: str, viewer: Viewer, *, with_sheet: bool = False, shown: dict | None = None
) -> tuple[Drawn | None, int]:
    """One socket's screen drawn, region by region, and the revision it shows (None for
    no such table).

    The regions every seat sees alike are drawn once per process for each version of the
    table (``Table.drawn``): the top bar, the board and its lanes, and the moves, by the
    names they show; the players, by the seats they show (the host's with its offers); and
    the score sheet. Only the round's end and the dock are drawn for each socket."""
    if shown is None:
        found = seated(code)
    else:  # the same rows for every socket of the table: read-only here
        key = ("rows", shown["revision"])
        found = kept(code, shown["version"], key, partial(_from_snapshot, shown))
    if found is None:
        return None, 0
    seen = _screen(*found, viewer, with_sheet)
    context = seen.context
    if context["view"] is None:
        html = render_to_string("games/regions/lobby.html", context)
        return Drawn(seen.data, (Region("table-lobby", html),), lobby=True), seen.revision
    table, seats, me = context["table"], context["seats"], context["me"]
    # The top bar's clock and last moves show each seat's timed-out turns and the
    # deadline, which can change without a move (a person back from a stand-in).
    shared_key = (
        "shared",
        table.turn_due_at,
        *((s.name, s.timeouts, s.stand_in) for s in seats),
    )
    # The host's rows offer a bot for each other person away: drawn apart.
    whose = ("host", me and me.position) if viewer.is_host else ("guest",)
    seats_key = ("players", *whose, *(_shown(s) for s in seats))
    context["lanes"] = lanes = table.drawn((*shared_key, "lanes"), context["lanes"])
    context["log"] = log = table.drawn((*shared_key, "log"), context["log"])
    rows = table.drawn((*seats_key, "rows"), partial(_player_rows, context))
    context["players"] = rows
    hand = context["hand"]
    regions = [
        _top(table.drawn((*shared_key, "top"), partial(render_to_string, TOP, context))),
        Region(
            "table-board",
            table.drawn((*shared_key, "board"), partial(render_to_string, BOARD, context)),
            tuple(Region(f"lane-{lane['index']}", lane["html"]) for lane in lanes),
        ),
        Region(
            "table-log",
            table.drawn((*shared_key, "log html"), partial(render_to_string, LOG, context)),
        ),
        Region(
            "table-players",
            table.drawn(seats_key, partial(render_to_string, PLAYERS, context)),
            tuple(Region(f"member-{row['seat'].position}", row["html"]) for row in rows),
        ),
        Region("table-round", render_to_string(ROUND, context)),
        _dock(render_to_string(DOCK, context), hand.strip()),
    ]
    if context["sheet_due"]:  # the rounds a version has recorded: once per version
        regions.append(Region("table-sheet", table.drawn(("sheet",), lambda: _draw_sheet(table))))

    drawn = Drawn(seen.data, tuple(regions), tuple(log), RECENT_MOVES)
    return drawn, seen.revision


def _dock(html: str, hand: str) -> Region:
    """The dock, with its status line (which changes with every turn) and the seat's hand
    regions inside."""
    inner = [Region("table-status", _element(html, '<p class="status" id="table-status">', "</p>"))]
    if hand:
        inner.append(Region("table-hand", hand))
    return Region("table-dock", html, tuple(inner))


def _element(html: str, start: str, end: str) -> str:
    """The element of ``html`` that opens with ``start`` and closes with the first ``end``."""
    at = html.index(start)
    return html[at : html.index(end, at) + len(end)]


def _top(html: str) -> Region:
    """The top bar, with its last moves (which change with every move) a region inside."""
    start = html.find('<ul id="table-last-moves"')
    if start < 0:
        return Region("table-top", html)
    moves = html[start : html.index("</ul>", start) + len("</ul>")]
    return Region("table-top", html, (Region("table-last-moves", moves),))


def _player_rows(context: dict[str, Any]) -> list[dict[str, Any]]:
    """The players' rows, each with its drawing: a socket sends a row alone when only it
    changed (games.wire)."""
    return [
        row | {"html": render_to_string(PLAYER, context | {"p": row})}
        for row in context["players"]()
    ]


def drawn_from_memory(shown: dict | None, with_sheet: bool) -> bool:
    """Whether the view of an announced table needs no read: this process holds the game
    at its version, and no score sheet is due (a round goes on)."""
    if shown is None or with_sheet:
        return False
    game = kept_game(shown["code"], shown["version"])
    return game is not None and game.round is not None and game.round.result is None


def _shown(seat: TableSeat) -> tuple:
    """What the players region shows of a seat, besides the game."""
    return (seat.position, seat.name, seat.kind, seat.bot_level, seat.stand_in, seat.connected)


def screen_context(
    table: Table,
    seats: list[TableSeat],
    me: TableSeat | None,
    game: Game | None,
    view: SeatView | None,
    *,
    is_host: bool = False,
) -> dict[str, Any]:
    """Everything the regions are drawn from: in the lobby the seats and the host's
    controls, in a game the board, the dock, the players and the round's end."""
    names = {s.position: s.name for s in seats}
    context: dict[str, Any] = {
        "table": table,
        "seats": seats,
        "me": me,
        "view": view,
        "names": names,
        "is_host": is_host,
        "closed": closed_words(table, started=game is not None),
    }
    if view is None or game is None:
        taken = {s.position: s for s in seats}
        context["places"] = [(p, taken.get(p)) for p in range(table.seat_count)]
        context["bot_levels"] = LEVELS
        return context
    # The board, the moves and the players are worked out when drawn (a template calls a
    # callable): a socket draws them once per version for all its seats (view_message).
    # The last moves are worked out here, as the board is drawn, once per version for all
    # the seats (they come from the public log alone): every view's data carries them too.
    ran_out = {s.position: s.timeouts for s in seats if s.timeouts}
    moves = table.drawn(
        ("last moves", *names.items(), *ran_out.items()),
        partial(last_moves, view, names, ran_out=ran_out),
    )
    closed = context["closed"]
    ended = game.is_over or bool(closed)  # nothing more is played at this table
    going_on = view.round_over and not ended  # between two rounds of a match going on
    context.update(
        lanes=partial(_board, table, view, names, moves),
        clock=_clock(table, seats, view),
        last_moves=moves,
        log=partial(_log, view, names),
        players=partial(_players, seats, me, view, ended, _runs_long_at(table)),
        hand="" if closed else _drawn_hand(table, view),
        prompt=Prompt(closed) if closed else _prompt(seats, me, game, view, names),
        round_over=view.round_over or bool(closed),
        match_over=game.is_over,
        winners=[names[s] for s in game.winners()] if game.is_over else [],
        next_round=game.rounds_played + 1,
        build_line=_builds_line(game, view),
        results=_results(game, view, names, ended) if view.round_over or closed else [],
        out_name=names.get(view.out_seat) if view.out_seat is not None else "",
        waiting_for=_waiting_for(seats, game) if going_on else [],
        stand_in_for=_stand_in_for(seats, me, view) if is_host and not ended else None,
    )
    return context


def closed_words(table: Table, *, started: bool) -> str:
    """Why an abandoned table was closed, in a sentence ('' for any other table): after how
    long without a move (a lobby, without a start), at its pace."""
    if table.status != Table.Status.ABANDONED:
        return ""
    span = duration_in_words(table.abandoned_after.total_seconds())
    if not started:
        return f"Nobody started the match for {span}, so this table was closed."
    return f"Nobody played for {span}, so this table was closed before the match was over."


def _claims(
    table: Table, seats: list[TableSeat], me: TableSeat | None, channel: str
) -> dict[str, Any]:
    """Requests for a seat from another screen (a lost phone), as one screen shows them:
    to somebody watching, the seats of the people who have left, to ask for theirs back,
    or the request this socket made while it waits; to a person who may answer them
    (models.answerers), the requests waiting."""
    if table.status != Table.Status.PLAYING:
        return {}
    if me is None:
        mine = next((s for s in seats if channel and s.claimed_by == channel), None)
        left = [s for s in seats if not s.is_bot and not s.connected]
        return {
            "mine": mine,
            "answerers": [s.name for s in answerers(seats)],
            "offer": [] if mine else left,
        }
    waiting = [s for s in seats if s.claimed_by]
    return {"waiting": waiting} if waiting and me in answerers(seats) else {}


def _draw_sheet(table: Table) -> str:
    return render_to_string(SHEET, {"sheet": sheet_context(table)})


def sheet_context(table: Table) -> dict[str, Any]:
    """The match's score sheet, read-only, as the scoring app draws it."""
    sheet = compute_sheet(table.match)
    said = standing(sheet) if sheet.leaders else "No round has been scored yet."
    return {"sheet": sheet, "viewer": SheetViewer(editor=False), "standing": said}


# -- the view's data ----------------------------------------------------------------------


def _table_data(table: Table, seats: list[TableSeat]) -> dict[str, Any]:
    """A view's data about the table and its seats, the same for every seat."""
    return {
        "type": "view",
        "version": table.version,
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


IN_THE_HTML = ("trains", "log")  # the board's lanes and the recent moves draw them whole


def _game_data(view: SeatView, game: Game, moves: Sequence[LastMove]) -> dict[str, Any]:
    """The game as the page's script and a program playing over the socket read it: what
    the regions draw in full (the trains, the log) is left to the HTML, not sent twice."""
    public = view.public_dict(recent=0)
    for key in IN_THE_HTML:
        del public[key]
    return (
        public
        | {"over": game.is_over, "last_moves": [move.as_dict() for move in moves]}
        | view.own_dict()
    )


# -- the regions' context -------------------------------------------------------------------


def _board(
    table: Table, view: SeatView, names: dict[int, str], moves: Sequence[LastMove]
) -> list[dict[str, Any]]:
    """The lanes, each with its drawing: under a key of all that a lane shows, so that the
    lanes a move leaves as they were are taken from the version before (Table.drawn_whole)."""
    lanes = _lanes(view, names, moves)
    for lane in lanes:
        marks = tuple(
            (tile["last_by"], tile["label"])
            for row in lane["rows"]
            for tile in row["tiles"]
            if tile["last_by"] is not None
        )
        key = ("lane", lane["index"], lane["title"], lane["hand"], lane["train"], marks)
        lane["html"] = table.drawn_whole(key, partial(render_to_string, LANE, {"lane": lane}))
    return lanes


def _lanes(
    view: SeatView, names: dict[int, str], moves: Sequence[LastMove] = ()
) -> list[dict[str, Any]]:
    """The trains in table order (seats', then public); every seat gets the same board, and
    the page's script puts the seat's own train first and lights its slots. The tiles laid
    in each seat's last move (``moves``) are marked with the seat, for the page to drop the
    mark from its own. A seat's lane says how many tiles its owner holds, apart from the
    train's length, and marks an owner about to go out, where everyone looks."""
    laid_by = {tuple(sorted(tile)): move.seat for move in moves for tile in move.tiles}
    lanes = []
    for index, train in enumerate(view.trains):
        owner = train.owner
        title = names.get(owner, f"Seat {owner}") if owner is not None else "Mexican train"
        if owner is None and len(view.trains) - view.players > 1:
            title = f"Mexican train {index - view.players + 1}"
        rows = [
            {
                "end": end,
                "branch": branch,
                "tiles": [
                    _laid(*tile, laid_by.get(tuple(sorted(tile))), names) for tile in branch.tiles
                ],
            }
            for end, branch in enumerate(train.branches)
        ]
        hand = view.hand_sizes[owner] if owner is not None else None
        lanes.append(
            {
                "index": index,
                "title": title,
                "hand": hand,
                "nearly_out": hand is not None and 0 < hand <= NEARLY_OUT,
                "train": train,
                "rows": rows,
            }
        )
    return lanes


def _laid(touching: int, open_: int, by: int | None, names: dict[int, str]) -> dict[str, Any]:
    """A tile as it lies in a train, read from the end it touches: a double crosswise. ``by``
    is the seat whose last move laid it, if one did: the label says so to a screen reader."""
    high, low = max(touching, open_), min(touching, open_)
    label = f"{high}-{low}"
    if by is not None:
        label += f", {_who(by, names)}'s last move"
    return {
        "first": touching,
        "second": open_,
        "double": high == low,
        "label": label,
        "last_by": by,
    }


def _drawn_hand(table: Table, view: SeatView) -> str:
    """The seat's hand drawn, under a key of all it shows, so that a hand a move leaves as
    it was (the tiles, where each plays) is taken from the version before; '' for none."""
    tiles = _hand(view)
    if not tiles:
        return ""
    key = ("hand", *(tuple(tile.values()) for tile in tiles))
    return table.drawn_whole(key, partial(render_to_string, HAND, {"tiles": tiles}))


def _hand(view: SeatView) -> list[dict[str, Any]]:
    """The seat's tiles, each with where it plays now (the page lights only those)."""
    if view.hand is None:
        return []
    targets: dict[tuple[int, int], list[list[int]]] = {}
    for action in view.legal:
        if action.kind == "play":
            targets.setdefault(action.tile, []).append([action.train, action.end])
    tiles = []
    for tile in view.hand:
        drawn = tile == view.drawn
        where = targets.get(tile, [])
        label = (
            name(tile)
            + (", just drawn" if drawn else "")
            + ("" if where else ", does not play now")
        )
        tiles.append(
            {
                "low": tile[0],
                "high": tile[1],
                "targets": json.dumps(where, separators=(",", ":")),
                "playable": bool(where),
                "drawn": drawn,
                "label": label,
            }
        )
    return tiles


def _builds_line(game: Game, view: SeatView) -> bool:
    """Whether the page may build this seat's first-turn line locally and send it at once.

    Only in the standard variant, where each next tile has only to match the line's open
    end; Chicken Foot and Cuban doubles open more ends, so there the line is played tile by
    tile and the server answers each step."""
    return (
        view.seat is not None
        and view.seat == view.turn
        and not view.round_over
        and view.is_first_turn(view.seat)
        and game.rules.first_turn == "line"
        and game.rules.variant == "standard"
        and not view.line_open
        and view.drawn is None
        and any(a.kind == "play" and a.train == view.seat for a in view.legal)
    )


def _results(
    game: Game, view: SeatView, names: dict[int, str], ended: bool
) -> list[dict[str, Any]]:
    """The round just played, best first: who scored what, and the totals so far; once
    nothing more is played (the match's end, a table closed), by the totals, so the
    winners (or those ahead) come first."""
    points = game.scores[-1] if game.scores else [0] * view.players
    totals = game.totals()
    result = game.round.result if game.round is not None else None
    rows = [
        {
            "name": names[seat],
            "points": points[seat],
            "total": totals[seat],
            "out": seat in view.outs,
            "me": seat == view.seat,
            "seat": seat,
            # Laid down only once the round is over: a table closed mid-round shows none.
            "held": _held(result.hands[seat], game.rules) if result is not None else None,
        }
        for seat in range(view.players)
    ]
    if ended:
        return sorted(rows, key=lambda row: (row["total"], row["points"]))
    return sorted(rows, key=lambda row: (row["points"], row["total"]))


def _held(hand: Sequence[Tile], rules: Rules) -> list[dict[str, Any]]:
    """A hand laid down at the round's end, tile by tile: what each tile costs by the one
    scoring function (a hand's score is the sum of its tiles' scores), and the part of it
    that is a double's penalty, so the card shows how the round's points add up."""
    held = []
    for tile in hand:
        points = score(HandCount.of([tile]), rules)
        penalty = rules.double_penalty if tile[0] == tile[1] else 0
        held.append(
            {"name": name(tile), "points": points, "penalty": penalty, "rest": points - penalty}
        )
    return held


def _waiting_for(seats: list[TableSeat], game: Game) -> list[str]:
    """The people the next round waits for (bots are always ready)."""
    upcoming = game.rounds_played + 1
    return [s.name for s in seats if not s.played_by_bot and s.ready_for < upcoming]


def _stand_in_for(seats: list[TableSeat], me: TableSeat | None, view: SeatView) -> TableSeat | None:
    """The person on turn whom the host may let a bot play for: away, and not the host."""
    turn = next((s for s in seats if s.position == view.turn), None)
    if turn is None or turn == me or view.round_over or not turn.is_away:
        return None
    return turn


def _players(
    seats: list[TableSeat],
    me: TableSeat | None,
    view: SeatView,
    ended: bool,
    runs_long_at: str | None,
) -> list[dict[str, Any]]:
    """One row per seat. Every seat gets the same rows (the page's script marks its own),
    but the host's also offer to let a bot play for a person who is away, or, from
    ``runs_long_at`` on (the page shows it then), for the person whose turn it is; none
    once nothing more is played (``ended``)."""
    rows = []
    for s in seats:
        tiles = view.hand_sizes[s.position] if s.position < len(view.hand_sizes) else 0
        if s.is_bot:
            presence, tag = "a bot", f"{s.bot_level} bot"
        else:
            presence = "connected" if s.connected else "away"
            tag = "a bot plays for now" if s.stand_in else ""
        rows.append(
            {
                "seat": s,
                "on": s.connected or s.is_bot,
                "presence": presence,
                "tag": tag,
                "tiles": tiles,
                "marked": view.trains[s.position].marked,
                "turn": s.position == view.turn and not view.round_over and not ended,
                "offer": s.is_away and s != me and not ended,
                "offer_from": runs_long_at
                if s.connected
                and s.position == view.turn
                and not s.stand_in
                and s != me
                and not view.round_over
                and not ended
                else None,
            }
        )
    return rows


def _runs_long_at(table: Table) -> str | None:
    """When the turn on since the last move runs long, as ISO time for the page's script."""
    at = table.turn_runs_long_at
    return at.isoformat() if at else None


def _log(view: SeatView, names: dict[int, str]) -> list[str]:
    """The recent moves, newest first."""
    return [_describe(e, names, view.players) for e in reversed(view.log[-RECENT_MOVES:])]


def _who(seat: int, names: dict[int, str]) -> str:
    return names.get(seat, f"Seat {seat}")


def _where(train: int, seat: int, names: dict[int, str], players: int) -> str:
    """A train as the player who laid a tile on it is said to have: their own is theirs."""
    if train >= players:
        return "the Mexican train"
    if train == seat:
        return "their own train"
    return f"{_who(train, names)}'s train"


def _describe(event: Event, names: dict[int, str], players: int) -> str:
    """A move of the public log, in words."""
    who = _who(event.seat, names)
    if event.kind == "play":
        return (
            f"{who} played {name(event.tile)} on {_where(event.train, event.seat, names, players)}."
        )
    if event.kind == "draw":
        return f"{who} drew a tile."
    if event.kind == "pass":
        return f"{who} passed."
    if event.kind == "place_engine":
        return f"{who} placed the engine {name(event.tile)}."
    return f"{who} ended their turn."


# -- each seat's last move ------------------------------------------------------------------


@dataclass(frozen=True)
class LastMove:
    """A seat's latest turn in the round, said in one sentence, so that every screen can
    show what the others just did (and a screen reader hear it) without reading the log.

    ``at`` is where the turn starts in the round's log: with the round's number it tells a
    page a new turn from one it has already announced."""

    seat: int
    text: str
    tiles: tuple[Tile, ...]  # laid in this turn
    at: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "text": self.text,
            "tiles": [list(t) for t in self.tiles],
            "at": self.at,
        }


def last_moves(
    view: SeatView, names: dict[int, str], *, ran_out: dict[int, int] | None = None
) -> list[LastMove]:
    """Each seat's latest turn of the round, the newest first; ``ran_out``, the timed-out
    turns in a row of the seats whose latest turn the clock played (services.clock).

    The engine's log records only what was done, so the markers are worked out here by the
    rules it applies (Clarification 9): a seat that passes, or draws a tile that does not
    play, puts a marker on its own train; laying a tile on its own train takes it off. The
    draws that hunt for the engine before it is placed put no marker on."""
    turns: list[list[tuple[int, Event]]] = []
    for index, event in enumerate(view.log):
        if turns and turns[-1][0][1].seat == event.seat:
            turns[-1].append((index, event))
        else:
            turns.append([(index, event)])
    placed = not view.rules.engine_from_hand
    marked = [False] * view.players
    latest: dict[int, LastMove] = {}
    for number, turn in enumerate(turns):
        seat = turn[0][1].seat
        hunting = not placed
        placed = placed or any(e.kind == PLACE_ENGINE for _, e in turn)
        ongoing = number == len(turns) - 1 and view.turn == seat and not view.round_over
        passed = not hunting and (
            any(e.kind == PASS for _, e in turn) or (turn[-1][1].kind == DRAW and not ongoing)
        )
        before = marked[seat]
        if any(e.kind == PLAY and e.train == seat for _, e in turn):
            marked[seat] = False
        marked[seat] = marked[seat] or passed
        said = _say_turn(
            [e for _, e in turn], names, view.players, hunting, passed, before and not marked[seat]
        )
        latest[seat] = LastMove(
            seat,
            _ran_out((ran_out or {}).get(seat, 0), _who(seat, names)) + said,
            tuple(e.tile for _, e in turn if e.kind == PLAY),
            turn[0][0],
        )
    return sorted(latest.values(), key=lambda move: move.at, reverse=True)


def _ran_out(times: int, who: str) -> str:
    """What the clock did for a person whose time ran out, before what their turn was."""
    if times == 0:
        return ""
    if times == 1:
        return f"{who}'s time ran out, so the bot played for {who}: "
    return f"{who}'s time ran out twice in a row, so a bot plays until {who} is back: "


def _clock(table: Table, seats: list[TableSeat], view: SeatView) -> dict[str, Any] | None:
    """The person on turn and their deadline, for the countdown every screen shows; none
    while a bot is on turn (it plays at once) or the table has no clock."""
    if table.turn_due_at is None or view.round_over or view.turn is None:
        return None
    seat = next((s for s in seats if s.position == view.turn), None)
    if seat is None or seat.played_by_bot:
        return None
    return {"name": seat.name, "due": table.turn_due_at}


def _say_turn(
    events: list[Event],
    names: dict[int, str],
    players: int,
    hunting: bool,
    passed: bool,
    marker_off: bool,
) -> str:
    """One turn in a sentence: what the seat did, in order, and what became of its marker."""
    seat = events[0].seat
    who = _who(seat, names)
    said: list[str] = []
    laid: list[str] = []  # tiles laid one after another on the same train
    for index, event in enumerate(events):
        if event.kind == PLAY:
            laid.append(name(event.tile))
            following = events[index + 1] if index + 1 < len(events) else None
            if following is None or following.kind != PLAY or following.train != event.train:
                said.append(f"played {_and(laid)} on {_where(event.train, seat, names, players)}")
                laid = []
        elif event.kind == DRAW:
            said.append(
                "drew a tile" if hunting or index == len(events) - 1 and not passed else "drew"
            )
        elif event.kind == PLACE_ENGINE:
            said.append(f"placed the engine {name(event.tile)}")
    if passed:
        said.append("passed")
    text = f"{who} {_and(said)}"
    if passed:
        return f"{text}: a marker is on {who}'s train."
    if marker_off:
        return f"{text}: {who}'s marker is off."
    return f"{text}."


def _and(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _prompt(
    seats: list[TableSeat],
    me: TableSeat | None,
    game: Game,
    view: SeatView,
    names: dict[int, str],
) -> Prompt:
    if game.is_over:
        winners_ = " and ".join(names[s] for s in game.winners())
        return Prompt(f"The match is over: {winners_} won.")
    if view.round_over:
        how = (
            f"{_and([names[s] for s in view.outs])} went out"
            if view.outs and not view.stalled
            else "nobody could play (stalled)"
        )
        text = f"Round {view.round_number} is over: {how}."
        ready = me is not None and me.ready_for > game.rounds_played
        return Prompt(text, mine=not ready, buttons=[] if ready or me is None else ["ready"])
    turn = view.turn
    if me is None or turn != me.position:
        seat = next(s for s in seats if s.position == turn)
        if seat.played_by_bot:
            return Prompt(f"{seat.name} (bot) is playing…")
        if not seat.connected:
            return Prompt(f"Waiting for {seat.name}, who has lost the connection.")
        return Prompt(f"{seat.name} is thinking…")
    kinds = {a.kind for a in view.legal}
    owed = view.owed_doubles
    if "place_engine" in kinds:
        return Prompt(
            f"You hold the {view.engine}-{view.engine}: place it in the hub.",
            True,
            ["place_engine"],
        )
    if not view.engine_placed:
        return Prompt("Nobody was dealt the engine: draw until somebody finds it.", True, ["draw"])
    if view.drawn is not None:
        return Prompt(f"You drew {name(view.drawn)} and it plays: play it.", True)
    if "end_turn" in kinds:
        return Prompt(
            "Keep building your line on your own train, or stop here.", True, ["end_turn"]
        )
    if "draw" in kinds:
        return Prompt("Nothing plays: draw a tile from the boneyard.", True, ["draw"])
    if "pass" in kinds:
        return Prompt("Nothing plays and nothing to draw: pass.", True, ["pass"])
    if owed and game.rules.double_scope == "table":
        train, number = owed[0]
        where = "the Mexican train" if train >= view.players else f"{names[train]}'s train"
        return Prompt(f"Cover the {number}-{number} on {where}.", True)
    if view.extra_owed:
        return Prompt("You laid a double: play again.", True)
    if view.is_first_turn(turn) and game.rules.first_turn == "line":
        return Prompt(
            "Your first turn: lay a line on your own train, tile by tile, or one tile elsewhere.",
            True,
            ["hint"],
        )
    return Prompt("Your turn: tap a tile, then where it goes.", True)

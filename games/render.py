"""The regions of a table's screen, rendered from one seat's view.

The page and the socket draw the same regions, each a top-level element with a stable id:
the page's script swaps each region it receives into the element with that id. They are
Jinja2 templates (templates/jinja2/games/regions/, config/jinja2.py says why); the lobby
and the score sheet, drawn far less often, are Django templates. The context built here is
all the templates get, so what a seat sees is decided in one place and the templates only
lay it out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.http import HttpRequest
from django.template import engines
from django.template.defaultfilters import pluralize
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from markupsafe import escape

from games.engine import Game, SeatView, winners
from games.engine.state import Event, Train
from games.engine.tiles import Tile, name
from scoring.rendering import Viewer, standing
from scoring.services import Sheet

from . import dominoes
from .models import BOT_LEVELS, Table, TableSeat

RECENT_MOVES = 14  # the tail of the public log a screen shows (and a view's data carries)


@dataclass
class Prompt:
    """The status line: what the table waits for, and the one button needed now."""

    text: str
    mine: bool = False
    buttons: list[str] = field(default_factory=list)


def region(name: str, context: dict[str, Any], request: HttpRequest | None = None) -> SafeString:
    """One region (or a group of them) drawn by its template in games/regions/. With the
    ``request`` of a page, its forms carry their CSRF field; a socket's copy has none, and
    htmx sends the token in a header instead."""
    template = engines["jinja2"].get_template(f"games/regions/{name}.html")
    return mark_safe(template.render(context, request))  # noqa: S308 - autoescaped


def seat_regions(context: dict[str, Any]) -> SafeString:
    """One seat's own regions, as a socket sends them: in a game its round's end, hand and
    prompt (and the score sheet when it is due); before the start the top bar and seats."""
    if context["view"] is None:
        return region("top", context) + render_to_string("games/partials/lobby.html", context)
    card = region("round", context) if context["round_over"] else _no_round_card()
    return card + _dock(context) + context.get("sheet_region", "")


@lru_cache(maxsize=1)
def _no_round_card() -> SafeString:
    """The round card while a round is played: empty, the same for every seat."""
    return region("round", {"round_over": False})


_HAND = "\x00hand\x00"  # where a kept dock takes its seat's hand: in no HTML
_docks: dict[tuple, str] = {}  # the dock drawn around _HAND, by everything else it shows


def _dock(context: dict[str, Any]) -> SafeString:
    """The dock (the prompt, its buttons and the hand), drawn once for every seat that shows
    the same prompt: the seats not on turn all read "Ben is thinking…", move after move, and
    only their hands differ, which are drawn (and kept) apart. The key holds all the dock
    shows but the hand (a test draws docks both ways)."""
    me, prompt, absent = context["me"], context["prompt"], context["stand_in_for"]
    key = (
        context["table"].code,
        prompt.text,
        prompt.mine,
        tuple(prompt.buttons),
        me.position if context["build_line"] else None,
        me is None,
        absent and (absent.position, absent.name),
        bool(context["hand"]),
    )
    shell = _docks.get(key)
    if shell is None:
        if len(_docks) >= 4096:  # a busy process's tables, a few prompts each
            _docks.clear()
        hand = mark_safe(_HAND) if context["hand"] else context["hand"]
        shell = _docks[key] = region("dock", {**context, "hand": hand})
    return mark_safe(shell.replace(_HAND, context["hand"]))  # noqa: S308 - both drawn here


def page_regions(context: dict[str, Any], request: HttpRequest) -> dict[str, SafeString]:
    """The regions the table page shows, drawn as the socket draws them (with the page's
    CSRF fields), for the page's Django template to place."""
    if context["view"] is None:
        return {"top": region("top", dict(context), request)}
    names = ("board", "round", "dock", "players", "log")
    return {"top": context["top"], **{name: region(name, dict(context), request) for name in names}}


def screen_context(
    table: Table,
    seats: list[TableSeat],
    me: TableSeat | None,
    game: Game | None,
    view: SeatView | None,
    *,
    is_host: bool = False,
    shared: bool = True,
) -> dict[str, Any]:
    """Everything the page's regions are rendered from: this seat's own part, and (unless
    ``shared`` is off, for a socket, which gets those regions from games.screens' cache)
    what all seats share: the top bar, the board, the recent moves and the players."""
    names = {s.position: s.name for s in seats}
    context: dict[str, Any] = {
        "table": table,
        "seats": seats,
        "me": me,
        "view": view,
        "names": names,
        "is_host": is_host,
    }
    if view is None or game is None:
        taken = {s.position: s for s in seats}
        context["places"] = [(p, taken.get(p)) for p in range(table.seat_count)]
        context["bot_levels"] = BOT_LEVELS
        return context
    if shared:
        context.update(shared_context(view, names), players=players(seats, me, view, game.is_over))
    context.update(
        hand=_hand(view),
        prompt=_prompt(table, seats, me, game, view, names),
        round_over=view.round_over,
        match_over=game.is_over,
        winners=[names[s] for s in winners(game.totals())] if game.is_over else [],
        next_round=game.rounds_played + 1,
        build_line=_builds_line(game, view),
        results=_results(game, view, names) if view.round_over else [],
        out_name=names.get(view.out_seat) if view.out_seat is not None else "",
        waiting_for=_waiting_for(seats, game) if view.round_over and not game.is_over else [],
        stand_in_for=_stand_in_for(seats, me, view) if is_host else None,
    )
    return context


def _stand_in_for(seats: list[TableSeat], me: TableSeat | None, view: SeatView) -> TableSeat | None:
    """The person on turn whom the host may let a bot play for: away, and not the host."""
    turn = next((s for s in seats if s.position == view.turn), None)
    if turn is None or turn == me or view.round_over or not turn.is_away:
        return None
    return turn


def shared_context(view: SeatView, names: dict[int, str]) -> dict[str, Any]:
    """The regions every seat sees alike (the top bar, the board, the recent moves): they
    depend on the public game only, so a process renders them once per version for all
    its sockets. The page's script puts the seat's own train first and lights its slots."""
    return {
        "view": view,
        "top": top_bar(view.round_number, view.rules.round_count, view.engine, view.boneyard_count),
        "board": _board(view, names),
        "log": _log_lines(view.log[-RECENT_MOVES:], tuple(names.items()), view.players),
        "engine": view.engine,
    }


@lru_cache(maxsize=1024)
def top_bar(round_number: int, round_count: int, engine: int, boneyard: int) -> SafeString:
    """The top bar of a game, drawn once for each round and count of the boneyard: most
    moves leave both as they were, at every table."""
    shown = {"round_number": round_number, "round_count": round_count}
    return region("top", {**shown, "engine": engine, "boneyard": boneyard})


def sheet_context(sheet: Sheet) -> dict[str, Any]:
    """A match's score sheet, read-only, as the scoring app renders it."""
    said = standing(sheet) if sheet.leaders else "No round has been scored yet."
    return {"sheet": sheet, "viewer": Viewer(editor=False), "standing": said}


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


def _results(game: Game, view: SeatView, names: dict[int, str]) -> list[dict[str, Any]]:
    """The round just played, best first: who scored what, and the totals so far."""
    points = game.scores[-1] if game.scores else [0] * view.players
    totals = game.totals()
    rows = [
        {
            "name": names[seat],
            "points": points[seat],
            "total": totals[seat],
            "out": seat == view.out_seat,
            "me": seat == view.seat,
        }
        for seat in range(view.players)
    ]
    return sorted(rows, key=lambda row: (row["points"], row["total"]))


def _waiting_for(seats: list[TableSeat], game: Game) -> list[str]:
    """The people the next round waits for (bots are always ready)."""
    upcoming = game.rounds_played + 1
    return [s.name for s in seats if not s.played_by_bot and s.ready_for < upcoming]


def _board(view: SeatView, names: dict[int, str]) -> SafeString:
    """The trains in table order (seats', then public); every seat gets the same board."""
    rows = []
    for index, train in enumerate(view.trains):
        owner = train.owner
        title = names.get(owner, f"Seat {owner}") if owner is not None else "Mexican train"
        if owner is None and len(view.trains) - view.players > 1:
            title = f"Mexican train {index - view.players + 1}"
        rows.append(_drawn_for(train, (index, title), _lane_html))
    return mark_safe("".join(rows))  # noqa: S308 - lanes built by _lane_html


# What was drawn from the engine's own objects, by the object itself: a move hands its
# trains and its log's events on to the next state unchanged but for the one it changed, so
# they are found again by identity, where the caches behind (keyed by value) would hash a
# whole train or event on each of the five trains and fourteen lines of every version.
_drawn: dict[int, tuple[object, tuple, str]] = {}  # id -> (the object, what else, drawn)


def _drawn_for(thing: Any, also: tuple, draw: Callable[..., str]) -> str:
    """``draw(*also, thing)``, kept for this very object (and ``also``). The entry holds
    the object, so its id is not given to another while kept."""
    kept = _drawn.get(id(thing))
    if kept is not None and kept[0] is thing and kept[1] == also:
        return kept[2]
    drawn = draw(*also, thing)
    if len(_drawn) >= 16_384:  # a busy process's tables, a version or two each
        _drawn.clear()
    _drawn[id(thing)] = (thing, also, drawn)
    return drawn


@lru_cache(maxsize=4096)
def _lane_html(index: int, title: str, train: Train) -> SafeString:
    """A train's row of the board, kept by the train as it stands: a move changes one
    train, and the others are drawn again for every version of every busy table. Built
    here rather than by a template, like a hand's tiles: one train is drawn anew on every
    move of every table, and through a template it cost five times as much."""
    owner, marked, owed = train.owner, train.marked, train.owes_cover
    label, count = escape(title), train.tile_count
    classes = "lane" + " lane--public" * (owner is None) + " lane--owed" * owed
    classes += " lane--marked" * marked
    owner_data = "" if owner is None else f' data-owner="{owner}"'
    tags = '    <span class="tag tag--marker">marker: open to all</span>\n' * marked
    tags += '    <span class="tag tag--owed">double to cover</span>\n' * owed
    html = [
        f'<div class="{classes}" data-train="{index}"{owner_data}>\n'
        '  <div class="lane__head">\n'
        f'    <span class="lane__title">{label}<span class="lane__you"> (you)</span></span>\n'
        f"{tags}"
        f'    <span class="lane__count">{count} tile{pluralize(count)}</span>\n'
        "  </div>\n"
    ]
    for end, branch in enumerate(train.branches):
        fork = ", branch" if branch.parent is not None else ""
        tiles = "".join(dominoes.laid(*tile) for tile in branch.tiles)
        html.append(
            f'  <div class="lane__row" data-row="{index}-{end}" role="group" '
            f'aria-label="{label}{fork}, open end {branch.open}">\n'
            f"    {tiles}\n"
            f'    <button type="button" class="slot{" slot--owed" * branch.owed}"\n'
            f'            data-train="{index}" data-end="{end}" data-open="{branch.open}"\n'
            f'            aria-label="Play on {label}, open end {branch.open}'
            f'{", a double to cover" * branch.owed}"\n'
            f"            disabled>{branch.open}</button>\n"
            "  </div>\n"
        )
    html.append("</div>\n")
    return mark_safe("".join(html))  # noqa: S308 - the title escaped, the rest numbers


def _hand(view: SeatView) -> SafeString:
    """The seat's tiles as buttons, built here rather than in a template loop: the dock is
    rendered for every seat on every move, and this is most of it."""
    if view.hand is None:
        return mark_safe("")
    plays = tuple((a.tile, a.train, a.end) for a in view.legal if a.kind == "play")
    return _hand_html(view.hand, plays, view.drawn)


@lru_cache(maxsize=4096)
def _hand_html(
    hand: tuple[Tile, ...], plays: tuple[tuple[Tile, int, int], ...], drawn: Tile | None
) -> SafeString:
    """A whole hand, kept: three seats of four only watch a move, and their hands look
    just as they did before it."""
    targets: dict[Tile, list[tuple[int, int]]] = {}
    for tile, train, end in plays:
        targets.setdefault(tile, []).append((train, end))
    tiles = (_hand_tile(t, tuple(targets.get(t, ())), t == drawn) for t in hand)
    return mark_safe("".join(tiles))  # noqa: S308 - tiles built by _hand_tile


@lru_cache(maxsize=8192)
def _hand_tile(tile: Tile, targets: tuple[tuple[int, int], ...], drawn: bool) -> SafeString:
    """One tile of a hand: kept, since most tiles of most hands look the same move after
    move (no place to play, or the same one)."""
    classes = "tile tile--hand" + (" tile--playable" if targets else "")
    classes += " tile--drawn" if drawn else ""
    label = name(tile) + (", just drawn" if drawn else "")
    label += "" if targets else ", does not play now"
    where = json.dumps([list(target) for target in targets], separators=(",", ":"))
    return mark_safe(  # noqa: S308 - numbers and fixed words only
        f'<button type="button" class="{classes}" data-tile="{tile[0]}-{tile[1]}" '
        f'data-targets="{where}" aria-pressed="false" aria-label="{label}">'
        f"{dominoes.svg(tile[1], tile[0], True)}</button>"
    )


def _prompt(
    table: Table,
    seats: list[TableSeat],
    me: TableSeat | None,
    game: Game,
    view: SeatView,
    names: dict[int, str],
) -> Prompt:
    if game.is_over:
        winners_ = " and ".join(names[s] for s in winners(game.totals()))
        return Prompt(f"The match is over: {winners_} won.")
    if view.round_over:
        how = (
            f"{names[view.out_seat]} went out"
            if view.out_seat is not None
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


def stand_in_offered(seat: TableSeat, me: TableSeat | None, match_over: bool) -> bool:
    """Whether the host's players region offers to let a bot play for ``seat``: a person
    away, other than the host, while the match goes on."""
    return seat.is_away and seat != me and not match_over


def players(
    seats: list[TableSeat], me: TableSeat | None, view: SeatView, match_over: bool
) -> list[dict]:
    """One row per seat, every value the template shows worked out here: every seat sees
    this region on every move, and a template looking up attributes of models is slow."""
    rows = []
    for s in seats:
        tiles = view.hand_sizes[s.position] if s.position < len(view.hand_sizes) else 0
        if s.is_bot:
            presence, tag = "a bot", f"{s.bot_level} bot"
        else:
            presence = "connected" if s.connected else "away"
            tag = "a bot plays for now" if s.stand_in else ""
        shown = {
            "name": s.name,
            "on": s.connected or s.is_bot,
            "presence": presence,
            "tag": tag,
            "tiles": tiles,
            "last_tile": tiles == 1,
            "marked": view.trains[s.position].marked,
        }
        rows.append(
            {
                **shown,
                "me": me is not None and s.position == me.position,
                "position": s.position,
                "turn": s.position == view.turn and not view.round_over,
                "offer": stand_in_offered(s, me, match_over),
                "html": _member_html(tuple(shown.items())),
            }
        )
    return rows


@lru_cache(maxsize=4096)
def _member_html(shown: tuple[tuple[str, Any], ...]) -> SafeString:
    """A player's row, kept: most rows stay as they were from one move to the next."""
    return region("member", dict(shown))


def _log_lines(
    events: tuple[Event, ...], names: tuple[tuple[int, str], ...], players: int
) -> list[str]:
    """The recent moves, newest first, in words: each move's line is written once and kept,
    as a table's log shows the same moves, one more at a time, version after version."""
    return [_drawn_for(event, (names, players), _describe) for event in reversed(events)]


@lru_cache(maxsize=8192)
def _describe(names: tuple[tuple[int, str], ...], players: int, event: Event) -> str:
    seats = dict(names)
    who = seats.get(event.seat, f"Seat {event.seat}")
    if event.kind == "play":
        if event.train < players:
            where = (
                "their own train" if event.train == event.seat else f"{seats[event.train]}'s train"
            )
        else:
            where = "the Mexican train"
        return f"{who} played {name(event.tile)} on {where}."
    if event.kind == "draw":
        return f"{who} drew a tile."
    if event.kind == "pass":
        return f"{who} passed."
    if event.kind == "place_engine":
        return f"{who} placed the engine {name(event.tile)}."
    return f"{who} ended their turn."

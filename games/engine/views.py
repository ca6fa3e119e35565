"""What one seat may see: the only window bots and browsers get onto a game.

A view holds the seat's own hand and everything public (the layout, hand sizes, markers,
the boneyard's size, the public log, the scores). It never holds another seat's tiles or
the boneyard's contents, not even after the round ends: the scores say what a hand cost.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .actions import Action
from .moves import offered_actions
from .rules import Rules
from .state import Event, Game, Train
from .tiles import Tile

_new = tuple.__new__


class SeatView(NamedTuple):
    seat: int | None  # None: a spectator
    players: int
    rules: Rules
    round_number: int
    engine: int
    engine_placed: bool
    hand: tuple[Tile, ...] | None
    hand_sizes: tuple[int, ...]
    trains: tuple[Train, ...]
    boneyard_count: int
    turn: int
    first_turns: int  # a bit per seat still to take its first turn: see is_first_turn
    line_open: bool
    extra_owed: bool
    drawn: Tile | None  # only the drawer sees what they drew
    log: tuple[Event, ...]
    scores: tuple[tuple[int, ...], ...]  # finished rounds
    round_over: bool
    stalled: bool
    out_seat: int | None
    outs: tuple[int, ...]  # every seat that went out (more than one: everyone_first_turn)
    legal: tuple[Action, ...]

    def is_first_turn(self, seat: int) -> bool:
        return bool(self.first_turns >> seat & 1)

    @property
    def my_train(self) -> Train | None:
        return None if self.seat is None else self.trains[self.seat]

    @property
    def owed_doubles(self) -> list[tuple[int, int]]:
        return [
            (i, b.open) for i, train in enumerate(self.trains) for b in train.branches if b.owed
        ]

    def as_dict(self, recent: int | None = None) -> dict[str, Any]:
        """The view as JSON-ready data (tiles as two-number lists), with the whole log or
        only its ``recent`` last events (a screen shows a few, and sends a view per seat on
        every move)."""
        return {**self.public_dict(recent), **self.own_dict()}

    def public_dict(self, recent: int | None = None) -> dict[str, Any]:
        """The part of :meth:`as_dict` that every seat's view of this game holds alike: a
        server building a view for each seat of a table builds (and encodes) it once."""
        log = self.log if recent is None else self.log[max(0, len(self.log) - recent) :]
        return {
            "players": self.players,
            "round": self.round_number,
            "rounds": self.rules.round_count,
            "engine": self.engine,
            "engine_placed": self.engine_placed,
            "hand_sizes": list(self.hand_sizes),
            "trains": [_train_dict(t) for t in self.trains],
            "boneyard": self.boneyard_count,
            "turn": self.turn,
            "first_turns": [self.is_first_turn(s) for s in range(self.players)],
            "line_open": self.line_open,
            "extra_owed": self.extra_owed,
            "log": [_event_dict(e) for e in log],
            "scores": [list(s) for s in self.scores],
            "round_over": self.round_over,
            "stalled": self.stalled,
            "out_seat": self.out_seat,
            "outs": list(self.outs),
        }

    def own_dict(self) -> dict[str, Any]:
        """The part of :meth:`as_dict` that is this seat's alone: its hand, the tile it has
        just drawn and what it may do now."""
        return {
            "seat": self.seat,
            "hand": None if self.hand is None else [list(t) for t in self.hand],
            "drawn": None if self.drawn is None else list(self.drawn),
            "legal": [a.to_dict() for a in self.legal],
        }


def view_for(game: Game, seat: int | None) -> SeatView:
    """The view of ``seat`` (``None`` for a spectator, who sees no hand)."""
    rules, players, _, _, scores, rnd, _ = game
    if rnd is None:
        raise ValueError("No round has been dealt yet.")
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"There is no seat {seat} at this table.")
    number, engine, _, hands, boneyard, trains, turn, placed, first_turns, ts, log, result = rnd
    mine = seat is not None and seat == turn
    # Built positionally with tuple.__new__: a view is made for every action of self-play,
    # and the keyword constructor of a named tuple of 22 fields costs twice as much.
    return _new(
        SeatView,
        (
            seat,
            players,
            rules,
            number,
            engine,
            placed,
            None if seat is None else hands[seat],
            tuple(map(len, hands)),
            trains,
            len(boneyard),
            turn,
            first_turns,
            ts.line_open,
            ts.extra_owed,
            ts.drawn if mine else None,  # only the drawer sees what they drew
            log,
            scores,
            result is not None,  # round_over
            result is not None and result.reason == "stalled",
            None if result is None else result.out_seat,
            () if result is None else result.outs,
            offered_actions(game, seat) if mine else (),
        ),
    )


def _train_dict(train: Train) -> dict[str, Any]:
    return {
        "owner": train.owner,
        "marked": train.marked,
        "started_by_owner": train.started_by_owner,
        "branches": [
            {
                "tiles": [list(t) for t in b.tiles],
                "open": b.open,
                "owed": b.owed,
                "parent": b.parent,
                "at": b.at,
            }
            for b in train.branches
        ],
    }


def _event_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": event.seat, "kind": event.kind}
    if event.tile is not None:
        data["tile"] = list(event.tile)
    if event.train is not None:
        data.update(train=event.train, end=event.end)
    if event.ends:
        data["ends"] = list(event.ends)
    return data

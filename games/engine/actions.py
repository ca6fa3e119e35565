"""The action vocabulary: everything a seat can do, as small immutable values.

A first-turn line is not one action but a run of ``play`` actions on the player's own
train, closed by ``end_turn`` when the player chooses to stop; that keeps
``legal_actions`` a short list (a hand of 15 has far too many lines to enumerate) and
makes every step of a line individually checkable and replayable.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .tiles import Tile

PLAY = "play"
DRAW = "draw"
PASS = "pass"
END_TURN = "end_turn"
PLACE_ENGINE = "place_engine"
KINDS = (PLAY, DRAW, PASS, END_TURN, PLACE_ENGINE)


class Action(NamedTuple):
    """``play`` names a tile, a train (seats' trains by seat number, then the public
    trains) and an open end of that train; the other kinds name only the seat."""

    kind: str
    seat: int
    tile: Tile | None = None
    train: int | None = None
    end: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.kind == PLAY:
            data.update(tile=list(self.tile or ()), train=self.train, end=self.end)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Read an action written by :meth:`to_dict`; a clear ``ValueError`` otherwise."""
        if not isinstance(data, dict):
            raise ValueError(f"An action is an object, not {data!r}.")
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"Unknown action {kind!r}: expected one of {', '.join(KINDS)}.")
        seat = data.get("seat")
        if type(seat) is not int:
            raise ValueError(f"An action needs a seat number, not {seat!r}.")
        if kind != PLAY:
            return cls(kind, seat)
        tile = data.get("tile")
        if (
            not isinstance(tile, list | tuple)
            or len(tile) != 2
            or not all(type(v) is int and v >= 0 for v in tile)
        ):
            raise ValueError(f"A play needs a tile as two numbers, not {tile!r}.")
        train, end = data.get("train"), data.get("end", 0)
        if type(train) is not int or type(end) is not int:
            raise ValueError("A play needs a train number and an open-end number.")
        return cls(PLAY, seat, (min(tile), max(tile)), train, end)


def play(seat: int, tile: Tile, train: int, end: int = 0) -> Action:
    return Action(PLAY, seat, (min(tile), max(tile)), train, end)


def draw(seat: int) -> Action:
    return Action(DRAW, seat)


def pass_turn(seat: int) -> Action:
    return Action(PASS, seat)


def end_turn(seat: int) -> Action:
    return Action(END_TURN, seat)


def place_engine(seat: int) -> Action:
    return Action(PLACE_ENGINE, seat)

"""What a browser may ask of a table over the socket, checked for shape before anything else.

A message is a JSON object with a ``type``. Game intents carry the ``version`` of the view
they were based on, so an intent sent from an out-of-date screen (or replayed after a
reconnect) is refused as stale instead of being applied to a table that has moved on. The
shapes are documented, with examples, in docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import Action
from games.engine.actions import DRAW, END_TURN, PASS, PLACE_ENGINE, PLAY

GAME_INTENTS = ("play", "line", "draw", "pass", "end_turn", "place_engine")
TABLE_INTENTS = ("ready", "ping")
MAX_LINE = 40  # no hand in any set holds more tiles than this in one line


class BadMessage(ValueError):
    """A message that is not one of the protocol's shapes; the text says what is wrong."""


@dataclass(frozen=True)
class Intent:
    type: str
    version: int | None = None
    plays: tuple[tuple[tuple[int, int], int, int], ...] = field(default=())  # tile, train, end

    def actions(self, seat: int) -> list[Action]:
        """The engine actions this intent asks for, taken by ``seat``. A line is its plays;
        the service ends the turn after them if the line is still open."""
        if self.type in ("play", "line"):
            return [Action(PLAY, seat, tile, train, end) for tile, train, end in self.plays]
        kind = {"draw": DRAW, "pass": PASS, "end_turn": END_TURN, "place_engine": PLACE_ENGINE}
        return [Action(kind[self.type], seat)]


def parse(message: Any) -> Intent:
    """Read a client message; raises :class:`BadMessage` with what is wrong."""
    if not isinstance(message, dict):
        raise BadMessage("A message is a JSON object with a type.")
    kind = message.get("type")
    if kind in TABLE_INTENTS:
        return Intent(kind)
    if kind not in GAME_INTENTS:
        known = ", ".join(GAME_INTENTS + TABLE_INTENTS)
        raise BadMessage(f"Unknown message type {kind!r}: expected one of {known}.")
    version = message.get("version")
    if type(version) is not int or version < 0:
        raise BadMessage("A move must say which version of the table it was based on.")
    if kind == "play":
        return Intent(kind, version, (_play(message),))
    if kind == "line":
        plays = message.get("plays")
        if not isinstance(plays, list) or not 1 <= len(plays) <= MAX_LINE:
            raise BadMessage(f"A line is a list of 1 to {MAX_LINE} plays.")
        return Intent(kind, version, tuple(_play(p) for p in plays))
    return Intent(kind, version)


def _play(data: Any) -> tuple[tuple[int, int], int, int]:
    if not isinstance(data, dict):
        raise BadMessage("A play is an object with a tile, a train and an end.")
    tile, train, end = data.get("tile"), data.get("train"), data.get("end", 0)
    if (
        not isinstance(tile, list)
        or len(tile) != 2
        or not all(type(v) is int and 0 <= v <= 18 for v in tile)
    ):
        raise BadMessage("A tile is two numbers from 0 to 18, like [5, 12].")
    if type(train) is not int or type(end) is not int or train < 0 or end < 0:
        raise BadMessage("A play names a train and an open end by number.")
    return (min(tile), max(tile)), train, end

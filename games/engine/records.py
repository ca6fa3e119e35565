"""Game records: the complete, replayable story of a match, as JSON Lines.

A record is to this app what PGN is to chess. It is written while a match is played (the
online move log, the simulator) and read back to replay a match move by move (the admin,
bug reports, tests). The format is described in ``docs/records.md``; :func:`replay`
accepts a record only if every deal is a fair deal and every action is legal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .actions import DRAW, Action
from .errors import IllegalAction
from .moves import apply
from .rules import Rules, RulesError
from .setup import Order, next_round
from .state import Deal, Game, Round
from .tiles import Tile

FORMAT = 1


class RecordError(ValueError):
    """A record that cannot be replayed; ``line`` is the 1-based line that broke it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


# -- writing ------------------------------------------------------------------------------


def match_record(game: Game, names: list[str] | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "type": "match",
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "seed": game.seed,
        "first_seat": game.first_seat,
    }
    if names is not None:
        record["names"] = list(names)
    return record


def deal_record(rnd: Round) -> dict[str, Any]:
    return {
        "type": "deal",
        "round": rnd.number,
        "engine": rnd.engine,
        "first_seat": rnd.first_seat,
        "hands": [_tiles(h) for h in rnd.hands],  # a fresh round: the hands as dealt
        "boneyard": _tiles(rnd.boneyard),
    }


def action_record(before: Game, action: Action) -> dict[str, Any]:
    """The record of ``action`` taken in ``before``; a draw names the tile it drew, so a
    reader can follow the story without working out the boneyard."""
    rnd = before.round
    assert rnd is not None
    record: dict[str, Any] = {"type": "action", "round": rnd.number, **action.to_dict()}
    if action.kind == DRAW and rnd.boneyard:
        record["tile"] = list(rnd.boneyard[0])
    return record


def round_end_record(rnd: Round) -> dict[str, Any]:
    result = rnd.result
    assert result is not None
    return {
        "type": "round_end",
        "round": rnd.number,
        "reason": result.reason,
        "out_seat": result.out_seat,
        "hands": [_tiles(h) for h in result.hands],
        "scores": list(result.scores),
        # Several seats out only under everyone_first_turn: records without it keep their shape.
        **({"outs": list(result.outs)} if len(result.outs) > 1 else {}),
    }


def match_end_record(game: Game) -> dict[str, Any]:
    totals = game.totals()
    return {"type": "match_end", "totals": totals, "winners": game.winners()}


def step(game: Game, action: Action) -> tuple[Game, list[dict[str, Any]]]:
    """Apply ``action`` and return the new game with the record lines it adds: the action,
    and the end of the round (and of the match) when the action ends them."""
    after = apply(game, action)
    return after, [action_record(game, action), *_endings(after)]


def deal_step(game: Game, order: Order | None = None) -> tuple[Game, list[dict[str, Any]]]:
    """Deal the next round (from the seed, or in ``order``) and return the new game with its
    record lines (a deal can stall at once, and then its round's end follows)."""
    after = next_round(game, order=order)
    assert after.round is not None
    return after, [deal_record(after.round), *_endings(after)]


def _endings(game: Game) -> list[dict[str, Any]]:
    rnd = game.round
    if rnd is None or rnd.result is None:
        return []
    if game.is_over:
        return [round_end_record(rnd), match_end_record(game)]
    return [round_end_record(rnd)]


class Recorder:
    """Keeps the record of a match as it is played: call :meth:`apply` and
    :meth:`next_round` instead of the engine's own functions."""

    def __init__(
        self, game: Game, names: list[str] | None = None, order: Order | None = None
    ) -> None:
        """``order``: how the rounds after the first are dealt (None: from the seed)."""
        self.order = order
        self.records: list[dict[str, Any]] = [match_record(game, names)]
        if game.round is not None:
            self.records += [deal_record(game.round), *_endings(game)]

    def apply(self, game: Game, action: Action) -> Game:
        after, lines = step(game, action)
        self.records += lines
        return after

    def next_round(self, game: Game) -> Game:
        after, lines = deal_step(game, self.order)
        self.records += lines
        return after


def dumps(records: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


def loads(text: str) -> list[dict[str, Any]]:
    """Parse JSON Lines; blank lines are skipped, a broken line is a :class:`RecordError`."""
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise RecordError(number, f"not JSON ({error.msg}).") from None
    return records


# -- reading ------------------------------------------------------------------------------


def replay(records: Iterable[dict[str, Any]]) -> list[Game]:
    """Every state of the match a record tells, in order: the state after each deal and
    after each action. Raises :class:`RecordError` at the first record that breaks a rule
    or disagrees with what the engine works out (a round's scores, the final totals)."""
    return [game for _, game in replay_steps(records)]


def replay_steps(records: Iterable[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Game]]:
    """Like :func:`replay`, pairing each deal or action record with the state after it."""
    replayer = Replayer()
    for record in records:
        game = replayer.feed(record)
        if game is not None:
            yield record, game


class Replayer:
    """Replays a record one line at a time, so a long-lived reader (an online table's move
    log) can catch up with new lines without replaying the match from its start."""

    def __init__(self, game: Game | None = None) -> None:
        """Start from nothing, or from ``game``: a state the lines to come carry on from."""
        self.game = game
        self.line = 0
        self._ended = game is None or game.round is None or game.round.result is not None

    def feed(self, record: dict[str, Any]) -> Game | None:
        """Take the next line; returns the new state after a deal or an action, else None.
        Raises :class:`RecordError` if the line breaks a rule (and then stays as it was)."""
        self.line += 1
        try:
            return self._feed(record)
        except (IllegalAction, RulesError, ValueError, KeyError, TypeError) as error:
            self.line -= 1
            raise RecordError(self.line + 1, _message(error)) from None

    def _feed(self, record: dict[str, Any]) -> Game | None:
        kind = record.get("type") if isinstance(record, dict) else None
        game = self.game
        if kind == "match":
            if game is not None:
                raise ValueError("a second match record.")
            self.game = _read_match(record)
            return None
        if game is None:
            raise ValueError("a record must start with its match record.")
        if kind == "deal":
            if not self._ended:
                raise ValueError("a deal before the round under way ended.")
            self.game = next_round(game, _read_deal(record))
            self._ended = False
            return self.game
        if kind == "action":
            self.game = _read_action(game, record)
            return self.game
        if kind == "round_end":
            _check_round_end(game, record)
            self._ended = True
        elif kind == "match_end":
            _check_match_end(game, record)
        else:
            raise ValueError(f"unknown record type {kind!r}.")
        return None


def _read_match(record: dict[str, Any]) -> Game:
    if record.get("format", FORMAT) != FORMAT:
        raise ValueError(f"format {record.get('format')!r} is not format {FORMAT}.")
    rules = Rules.from_dict(record["rules"])
    players = _whole(record, "players")
    first_seat = _whole(record, "first_seat", 0)
    rules.hand_size_for(players)
    if not 0 <= first_seat < players:
        raise ValueError(f"first_seat {first_seat} is not a seat of {players}.")
    names = record.get("names")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(n, str) for n in names)
    ):
        raise ValueError(f"names must be a list of {players} texts, one a seat.")
    return Game(rules=rules, players=players, seed=_whole(record, "seed", 0), first_seat=first_seat)


def _read_deal(record: dict[str, Any]) -> Deal:
    return Deal(
        number=_whole(record, "round"),
        engine=_whole(record, "engine"),
        first_seat=_whole(record, "first_seat"),
        hands=tuple(_read_tiles(h) for h in record["hands"]),
        boneyard=_read_tiles(record["boneyard"]),
    )


def _read_action(game: Game, record: dict[str, Any]) -> Game:
    rnd = game.round
    if rnd is None or _whole(record, "round") != rnd.number:
        raise ValueError(f"an action of round {record.get('round')!r} during another round.")
    action = Action.from_dict(record)
    if action.kind == DRAW and "tile" in record:
        drawn = _read_tile(record["tile"])
        if not rnd.boneyard or rnd.boneyard[0] != drawn:
            top = rnd.boneyard[0] if rnd.boneyard else "nothing"
            raise ValueError(f"the draw names {list(drawn)}, but the boneyard gives {top}.")
    return apply(game, action)


def _check_round_end(game: Game, record: dict[str, Any]) -> None:
    rnd = game.round
    if rnd is None or rnd.result is None:
        raise ValueError("a round_end record, but the round is still being played.")
    expected = round_end_record(rnd)
    for key in ("round", "reason", "out_seat", "scores", "hands", "outs"):
        if not _same(record.get(key), expected.get(key)):
            raise ValueError(
                f"round_end says {key} {record.get(key)!r}, the play gives {expected.get(key)!r}."
            )


def _check_match_end(game: Game, record: dict[str, Any]) -> None:
    if not game.is_over:
        raise ValueError("a match_end record before the last round was played.")
    expected = match_end_record(game)
    for key in ("totals", "winners"):
        if not _same(record.get(key), expected[key]):
            raise ValueError(
                f"match_end says {key} {record.get(key)!r}, the play gives {expected[key]!r}."
            )


def _whole(record: dict[str, Any], key: str, default: int | None = None) -> int:
    """A field that must be a whole number: ``1.0`` or ``true`` is refused, as a record
    written by :class:`Recorder` never holds one (and ``1.0 == 1`` would let it pass)."""
    if key not in record and default is not None:
        return default
    value = record[key]
    if type(value) is not int:
        raise ValueError(f"{key} must be a whole number, not {value!r}.")
    return value


def _same(given: Any, expected: Any) -> bool:
    """Equal, and of the same types all the way down (``[1.0]`` is not ``[1]``)."""
    if type(given) is not type(expected):
        return False
    if isinstance(expected, list):
        return len(given) == len(expected) and all(map(_same, given, expected))
    return given == expected


def _message(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing field {error.args[0]!r}."
    return str(error)


def _tiles(tiles: Iterable[Tile]) -> list[list[int]]:
    return [list(t) for t in tiles]


def _read_tile(value: Any) -> Tile:
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        raise ValueError(f"{value!r} is not a tile (two numbers).")
    return (min(value), max(value))


def _read_tiles(values: Any) -> tuple[Tile, ...]:
    if not isinstance(values, list):
        raise ValueError(f"{values!r} is not a list of tiles.")
    return tuple(_read_tile(v) for v in values)

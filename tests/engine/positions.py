"""Hand-made positions for scenario tests.

A scenario names the hands, the boneyard and what is already on the table, and gets a
Game whose round is in that position; the engine then plays on from there exactly as in a
dealt round. Positions need not hold a whole set: the tests check rules, not conservation.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Branch, Game, Round, Rules, Train, apply, legal_actions, tile
from games.engine.tiles import Tile


def t(text: str) -> Tile:
    """``t("12-5")`` is the tile 12-5, written the way players say it."""
    a, b = text.split("-")
    return tile(int(a), int(b))


def tiles(text: str) -> tuple[Tile, ...]:
    """``tiles("12-5 5-5 0-0")``: several tiles."""
    return tuple(t(word) for word in text.split())


def laid(engine: int, text: str) -> Branch:
    """A branch from the hub with the tiles of ``text`` laid in order, each turned to match."""
    open_number = engine
    placed = []
    for x in tiles(text):
        other = x[1] if x[0] == open_number else x[0]
        assert open_number in x, f"{x} does not follow {open_number}"
        placed.append((open_number, other))
        open_number = other
    return Branch(tuple(placed), open_number)


def position(
    hands: Sequence[str],
    *,
    rules: Rules | None = None,
    boneyard: str = "",
    engine: int = 12,
    turn: int = 0,
    trains: dict[int | str, str] | None = None,
    marked: Sequence[int] = (),
    first_turns: Sequence[int] | None = (),
    started: Sequence[int] | None = None,
    number: int | None = None,
    engine_placed: bool = True,
) -> Game:
    """A game in a made-up position.

    ``trains`` maps a seat (or ``"public"``, ``"public1"``) to the tiles already on its
    train; ``first_turns`` lists the seats still to take their first turn (none by
    default: most scenarios are about later turns); ``started`` lists the seats that have
    laid a tile on their own train (default: those whose train has tiles).
    """
    rules = rules or Rules()
    players = len(hands)
    trains = trains or {}
    started = [s for s in range(players) if s in trains] if started is None else started
    personal = tuple(
        Train(
            owner=seat,
            branches=(laid(engine, trains.get(seat, "")),),
            marked=seat in marked,
            started_by_owner=seat in started,
        )
        for seat in range(players)
    )
    public = tuple(
        Train(
            owner=None,
            branches=(laid(engine, trains.get("public" + ("" if i == 0 else str(i)), "")),),
        )
        for i in range(rules.public_trains)
    )
    firsts = range(players) if first_turns is None else first_turns
    rnd = Round(
        number=number if number is not None else rules.round_count - engine,
        engine=engine,
        first_seat=turn,
        hands=tuple(tiles(h) for h in hands),
        boneyard=tiles(boneyard),
        trains=personal + public,
        turn=turn,
        engine_placed=engine_placed,
        first_turns=sum(1 << s for s in firsts),
    )
    return Game(rules=rules, players=players, round=rnd)


def plays(game: Game, seat: int | None = None) -> set[tuple[str, int, int]]:
    """The legal plays of the seat on turn as ``(tile, train, end)``, tiles written "12-5"."""
    seat = game.round.turn if seat is None else seat
    return {
        (f"{a.tile[1]}-{a.tile[0]}", a.train, a.end)
        for a in legal_actions(game, seat)
        if a.kind == "play"
    }


def kinds(game: Game, seat: int | None = None) -> set[str]:
    seat = game.round.turn if seat is None else seat
    return {a.kind for a in legal_actions(game, seat)}


def run(game: Game, *actions) -> Game:
    for action in actions:
        game = apply(game, action)
    return game

"""Starting matches and dealing rounds from a seed."""

from __future__ import annotations

import random
from collections.abc import Callable

from .moves import settle
from .rules import Rules
from .state import Branch, Deal, Game, Round, Train
from .tiles import Tile, full_set

# How a round's tiles are put in order, given the round's number: the match seed's shuffle
# by default, or a deal nobody chooses (games.engine.deal_seed.Committed).
Order = Callable[[list[Tile], int], list[Tile]]


def new_game(
    rules: Rules, players: int, seed: int = 0, first_seat: int = 0, order: Order | None = None
) -> Game:
    """A match with round 1 dealt. Refuses a table that does not fit the set."""
    rules.hand_size_for(players)  # raises RulesError naming the setting
    if not 0 <= first_seat < players:
        raise ValueError(f"The first seat must be 0 to {players - 1}, not {first_seat}.")
    game = Game(rules=rules, players=players, seed=seed, first_seat=first_seat)
    return next_round(game, order=order)


def round_first_seat(game: Game, number: int) -> int:
    """Round ``number`` starts one seat to the left of the round before (Clarification 1)."""
    return (game.first_seat + number - 1) % game.players


def deal(game: Game, number: int, order: Order | None = None) -> Deal:
    """The deal of round ``number``, shuffled from the match seed (or put in ``order``):
    the same seed and round always give the same hands, so a match can be replayed or
    re-dealt for a test."""
    rules = game.rules
    engine = rules.round_double(number)
    tiles: list[Tile] = list(full_set(rules.highest_double))
    if not rules.engine_from_hand:
        tiles.remove((engine, engine))
    if order is None:
        random.Random(f"mexican-train/{game.seed}/{number}").shuffle(tiles)
    else:
        tiles = order(tiles, number)
    size = rules.hand_size_for(game.players)
    hands = tuple(tuple(tiles[s * size : (s + 1) * size]) for s in range(game.players))
    return Deal(
        number=number,
        engine=engine,
        first_seat=round_first_seat(game, number),
        hands=hands,
        boneyard=tuple(tiles[game.players * size :]),
    )


def next_round(game: Game, dealt: Deal | None = None, order: Order | None = None) -> Game:
    """The match with its next round dealt (from the seed or in ``order``, or from
    ``dealt`` in a replay)."""
    if game.is_over:
        raise ValueError("The match is over: every round has been played.")
    if game.round is not None and not game.round.is_over:
        raise ValueError(f"Round {game.round.number} is still being played.")
    number = game.rounds_played + 1
    if dealt is None:
        dealt = deal(game, number, order)  # fair by construction: nothing to check
    else:
        check_deal(game, dealt, number)
    rnd = start_round(game.rules, dealt)
    return game._replace(round=rnd) if rnd.result is None else game.finished(rnd)


def check_deal(game: Game, dealt: Deal, number: int) -> None:
    """Refuse a deal that is not a fair deal of this round (a hand-edited record, say)."""
    rules = game.rules
    if dealt.number != number:
        raise ValueError(f"Expected the deal of round {number}, got round {dealt.number}.")
    if dealt.engine != rules.round_double(number):
        raise ValueError(
            f"Round {number} starts from the double {rules.round_double(number)}, "
            f"not {dealt.engine}."
        )
    if dealt.first_seat != round_first_seat(game, number):
        raise ValueError(f"Round {number} starts at seat {round_first_seat(game, number)}.")
    size = rules.hand_size_for(game.players)
    if len(dealt.hands) != game.players or any(len(h) != size for h in dealt.hands):
        raise ValueError(f"Each of the {game.players} hands must hold {size} tiles.")
    expected = set(full_set(rules.highest_double))
    if not rules.engine_from_hand:
        expected.discard((dealt.engine, dealt.engine))
    dealt_tiles = [t for hand in dealt.hands for t in hand] + list(dealt.boneyard)
    if len(dealt_tiles) != len(expected) or set(dealt_tiles) != expected:
        raise ValueError("The hands and the boneyard must hold every tile of the set once.")


def start_round(rules: Rules, dealt: Deal) -> Round:
    players = len(dealt.hands)
    personal = tuple(
        Train(owner=seat, branches=(Branch((), dealt.engine),)) for seat in range(players)
    )
    public = tuple(
        Train(owner=None, branches=(Branch((), dealt.engine),)) for _ in range(rules.public_trains)
    )
    engine_tile = (dealt.engine, dealt.engine)
    holder = next((s for s, hand in enumerate(dealt.hands) if engine_tile in hand), None)
    if rules.engine_from_hand:
        turn = holder if holder is not None else dealt.first_seat
    else:
        turn = dealt.first_seat
    rnd = Round(
        number=dealt.number,
        engine=dealt.engine,
        first_seat=dealt.first_seat,
        hands=dealt.hands,
        boneyard=dealt.boneyard,
        trains=personal + public,
        turn=turn,
        engine_placed=not rules.engine_from_hand,
        first_turns=(1 << players) - 1,
    )
    # A deal can stall at once (drawing off and nobody holds the engine's number).
    return settle(rules, rnd)

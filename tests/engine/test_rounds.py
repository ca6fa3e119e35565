"""Dealing rounds: the seeded shuffle, round progression, rotation, who starts."""

import pytest

from games.engine import Rules, apply, deal, legal_actions, new_game, next_round
from games.engine.actions import draw, place_engine
from games.engine.setup import round_first_seat, start_round
from games.engine.state import Deal
from games.engine.tiles import full_set

from .positions import kinds, t


def test_deal_is_deterministic_from_the_seed():
    a = new_game(Rules(), 4, seed=11)
    b = new_game(Rules(), 4, seed=11)
    c = new_game(Rules(), 4, seed=12)
    assert a.round.hands == b.round.hands and a.round.boneyard == b.round.boneyard
    assert a.round.hands != c.round.hands


def test_deal_holds_every_tile_but_the_engine_once():
    game = new_game(Rules(), 4, seed=3)
    rnd = game.round
    dealt = [x for hand in rnd.hands for x in hand] + list(rnd.boneyard)
    assert sorted(dealt) == sorted(set(full_set(12)) - {(12, 12)})
    assert [len(h) for h in rnd.hands] == [15, 15, 15, 15]
    assert len(rnd.boneyard) == 90 - 60


def test_each_round_is_dealt_differently():
    game = new_game(Rules(), 4, seed=3)
    assert deal(game, 1).hands != deal(game, 2).hands


def test_round_progression_follows_the_rounds_setting():
    game = new_game(Rules(rounds=3), 3, seed=5)
    engines = []
    while True:
        engines.append(game.round.engine)
        game = _finish_round(game)
        if game.is_over:
            break
        game = next_round(game)
    assert engines == [2, 1, 0]
    assert game.rounds_played == 3
    with pytest.raises(ValueError, match="match is over"):
        next_round(game)


def test_next_round_refused_while_a_round_is_being_played():
    game = new_game(Rules(), 4, seed=5)
    with pytest.raises(ValueError, match="still being played"):
        next_round(game)


def test_first_seat_rotates_each_round():
    game = new_game(Rules(), 4, seed=5, first_seat=2)
    assert [round_first_seat(game, k) for k in range(1, 7)] == [2, 3, 0, 1, 2, 3]
    assert game.round.turn == 2 and game.round.first_seat == 2
    game = next_round(_finish_round(game))
    assert game.round.turn == 3


def test_first_seat_must_be_a_seat():
    with pytest.raises(ValueError, match="first seat"):
        new_game(Rules(), 4, first_seat=4)


def test_a_forged_deal_is_refused():
    game = new_game(Rules(), 2, seed=1)
    finished = _finish_round(game)
    honest = deal(finished, 2)
    cheat = honest._replace(hands=(honest.hands[0][:-1] + (honest.boneyard[0],), honest.hands[1]))
    with pytest.raises(ValueError, match="every tile of the set once"):
        next_round(finished, cheat)
    with pytest.raises(ValueError, match="starts from the double 11"):
        next_round(finished, honest._replace(engine=5))
    with pytest.raises(ValueError, match="starts at seat"):
        next_round(finished, honest._replace(first_seat=0))


def test_engine_from_hand_the_holder_places_it_and_play_passes_to_the_left():
    hands = (
        (t("12-12"), t("12-3")),
        (t("3-4"), t("5-6")),
        (t("1-1"), t("2-2")),
    )
    boneyard = tuple(x for x in full_set(12) if x not in {y for h in hands for y in h})
    game = new_game(Rules(engine_from_hand=True, hand_size=2), 3, seed=1, first_seat=1)
    game = _redeal(game, Deal(1, 12, 1, hands, boneyard))
    assert game.round.turn == 0  # the holder, not the round's first seat
    assert legal_actions(game, 0) == [place_engine(0)]
    game = apply(game, place_engine(0))
    assert game.round.engine_placed and t("12-12") not in game.round.hands[0]
    assert game.round.turn == 1
    assert game.round.is_first_turn(0)  # placing the engine was a turn of its own


def test_engine_from_hand_nobody_holds_it_seats_draw_in_turn_until_found():
    hands = ((t("1-2"),), (t("3-4"),))
    rest = [x for x in full_set(12) if x not in {(1, 2), (3, 4), (12, 12)}]
    boneyard = (rest[0], rest[1], (12, 12)) + tuple(rest[2:])
    game = _redeal(
        new_game(Rules(engine_from_hand=True, hand_size=1, draw_before_passing=False), 2, seed=1),
        Deal(1, 12, 0, hands, boneyard),
    )
    assert game.round.turn == 0 and kinds(game) == {"draw"}
    game = apply(game, draw(0))  # not the engine: kept, and the next seat hunts
    assert game.round.turn == 1 and len(game.round.hands[0]) == 2
    assert not game.round.trains[0].marked
    game = apply(game, draw(1))
    assert game.round.turn == 0
    game = apply(game, draw(0))  # found it: the drawer places it
    assert game.round.turn == 0 and legal_actions(game, 0) == [place_engine(0)]
    game = apply(game, place_engine(0))
    assert game.round.turn == 1 and game.round.engine_placed


def _redeal(game, dealt):
    """The same match with round 1 dealt as given."""
    return game._replace(round=start_round(game.rules, dealt))


def _finish_round(game):
    """Play the round out with the first legal action each time."""
    while game.round.result is None:
        seat = game.round.turn
        game = apply(game, legal_actions(game, seat)[0])
    return game

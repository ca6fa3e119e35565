"""What a seat may see."""

import json

import pytest

from games.engine import Rules, apply, new_game, view_for
from games.engine.actions import draw, play

from .positions import position


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    game = new_game(Rules(), 4, seed=2)
    view = view_for(game, 1)
    assert view.hand == game.round.hands[1]
    assert view.hand_sizes == (15, 15, 15, 15)
    assert view.boneyard_count == 30
    data = view.as_dict()
    assert data["hand"] == [list(x) for x in game.round.hands[1]]
    assert "boneyard" in data and data["boneyard"] == 30


def test_a_spectator_sees_no_hand_and_no_legal_actions():
    game = new_game(Rules(), 4, seed=2)
    view = view_for(game, None)
    assert view.hand is None and view.legal == ()
    assert view.as_dict()["hand"] is None


def test_only_the_seat_on_turn_gets_its_legal_actions():
    game = new_game(Rules(), 4, seed=2)
    turn = game.round.turn
    assert view_for(game, turn).legal
    assert view_for(game, (turn + 1) % 4).legal == ()


def test_only_the_drawer_sees_the_drawn_tile():
    game = position(["1-2", "3-4"], boneyard="12-6 9-9")
    game = apply(game, draw(0))
    assert view_for(game, 0).drawn == (6, 12)
    assert view_for(game, 1).drawn is None
    assert view_for(game, None).drawn is None
    assert "drawn" not in json.dumps(view_for(game, 1).as_dict()["log"])


def test_the_data_of_a_view_can_carry_only_the_last_events_of_the_log():
    game = position(["1-2", "3-4"], boneyard="9-9 8-8 7-7")  # none of them plays
    for seat in (0, 1, 0):
        game = apply(game, draw(seat))
    whole = view_for(game, 1).as_dict()["log"]
    assert len(whole) >= 3
    assert view_for(game, 1).as_dict(recent=2)["log"] == whole[-2:]
    assert view_for(game, 1).as_dict(recent=14)["log"] == whole
    assert view_for(game, 1).as_dict(recent=0)["log"] == []


def test_after_the_round_the_view_gives_scores_not_hands():
    game = position(["12-3", "1-1 2-2"])
    game = apply(game, play(0, (3, 12), 0))
    view = view_for(game, 0)
    assert view.round_over and view.out_seat == 0 and view.scores == ((0, 6),)
    assert "hands" not in view.as_dict()


def test_view_for_refuses_a_seat_that_does_not_exist():
    game = new_game(Rules(), 2, seed=2)
    with pytest.raises(ValueError, match="no seat 5"):
        view_for(game, 5)

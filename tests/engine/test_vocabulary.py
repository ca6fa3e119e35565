"""Tiles, actions as data, and the invariant checker itself."""

import pytest

from games.engine import Action, Rules, new_game
from games.engine.actions import draw, play
from games.engine.invariants import violations
from games.engine.tiles import is_double, name, other_end, parse, pips, tile

from .positions import position


def test_tiles_have_one_canonical_order_and_are_read_high_end_first():
    assert tile(5, 12) == tile(12, 5) == (5, 12)
    assert name((5, 12)) == "12-5"
    assert parse("5-12") == parse(" 12 - 5 ") == (5, 12)
    assert pips((5, 12)) == 17 and is_double((3, 3)) and not is_double((3, 4))
    assert other_end((5, 12), 12) == 5 and other_end((5, 12), 5) == 12
    with pytest.raises(ValueError, match="not a tile"):
        parse("twelve")


def test_actions_round_trip_through_json_data():
    for action in (play(2, (12, 5), 3, 1), draw(1), Action("pass", 0), Action("end_turn", 3)):
        assert Action.from_dict(action.to_dict()) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "An action is an object"),
        ({"kind": "steal", "seat": 0}, "Unknown action 'steal'"),
        ({"kind": "draw", "seat": "0"}, "needs a seat number"),
        ({"kind": "play", "seat": 0, "tile": [1], "train": 0}, "tile as two numbers"),
        ({"kind": "play", "seat": 0, "tile": [1, -2], "train": 0}, "tile as two numbers"),
        ({"kind": "play", "seat": 0, "tile": [1, 2], "train": "mine"}, "train number"),
        ({"kind": "play", "seat": 0, "tile": [1, 2], "train": 0, "end": 1.5}, "open-end number"),
    ],
)
def test_malformed_actions_are_refused_with_a_clear_message(data, message):
    with pytest.raises(ValueError, match=message):
        Action.from_dict(data)


def test_a_fresh_deal_breaks_no_invariant():
    assert violations(new_game(Rules(), 4, seed=1)) == []


def test_the_invariant_checker_notices_a_lost_or_doubled_tile():
    game = new_game(Rules(), 2, seed=1)
    rnd = game.round
    lost = game._replace(round=rnd._replace(boneyard=rnd.boneyard[1:]))
    assert any("not conserved" in v for v in violations(lost))
    doubled = game._replace(round=rnd._replace(boneyard=rnd.boneyard + rnd.boneyard[:1]))
    assert any("two places" in v for v in violations(doubled))


def test_the_invariant_checker_notices_a_marked_public_train():
    game = position(["12-3", "1-1"])
    rnd = game.round
    public = rnd.trains[2]._replace(marked=True)
    marked = game._replace(round=rnd._replace(trains=rnd.trains[:2] + (public,)))
    assert "a public train carries a marker" in violations(marked)

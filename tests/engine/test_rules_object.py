"""The rules object: sets, hand sizes, validation, presets and JSON."""

import pytest

from games.engine import PRESETS, Rules, RulesError, preset
from games.engine.rules import describe, preset_name
from games.engine.tiles import full_set, hand_pips, set_size


@pytest.mark.parametrize(("n", "count"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_supported_sets_hold_every_pair_once(n, count):
    assert set_size(n) == count
    assert len(set(full_set(n))) == count


def test_double_twelve_set_holds_1092_pips():
    assert hand_pips(full_set(12)) == 1092


def test_unsupported_set_is_refused_naming_the_setting():
    with pytest.raises(RulesError) as refused:
        Rules(highest_double=10)
    assert refused.value.setting == "highest_double"
    assert "double-10 is not a supported set" in str(refused.value)


@pytest.mark.parametrize(
    ("players", "size"), [(2, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10), (9, 8), (10, 8)]
)
def test_hand_size_table_double_twelve(players, size):
    assert Rules().hand_size_for(players) == size


@pytest.mark.parametrize(
    ("players", "size"), [(2, 8), (4, 8), (5, 7), (6, 7), (7, 6), (8, 6), (9, 5), (10, 5)]
)
def test_hand_size_table_double_nine(players, size):
    assert Rules(highest_double=9).hand_size_for(players) == size


@pytest.mark.parametrize(
    ("n", "players", "size"),
    [(6, 2, 4), (6, 5, 3), (6, 8, 3), (15, 4, 22), (15, 10, 11), (18, 4, 31), (18, 6, 25)],
)
def test_hand_size_other_sets_scale_the_double_twelve_table(n, players, size):
    assert Rules(highest_double=n).hand_size_for(players) == size


def test_hand_size_override():
    assert Rules(hand_size=11).hand_size_for(4) == 11


def test_table_that_does_not_fit_the_set_is_refused():
    with pytest.raises(RulesError) as refused:
        Rules(highest_double=6).hand_size_for(10)
    assert refused.value.setting == "players"
    assert "10 hands of 3 need 30 tiles, but a double-6 set deals only 27" in str(refused.value)


def test_overridden_hand_that_does_not_fit_names_hand_size():
    with pytest.raises(RulesError) as refused:
        Rules(hand_size=23).hand_size_for(4)
    assert refused.value.setting == "hand_size"


def test_deal_may_use_every_tile_with_engine_from_hand():
    # Seven hands of 13 are all 91 tiles: too many when the engine waits in the hub.
    with pytest.raises(RulesError, match="deals only 90"):
        Rules(hand_size=13).hand_size_for(7)
    assert Rules(hand_size=13, engine_from_hand=True).hand_size_for(7) == 13


@pytest.mark.parametrize("players", [1, 11])
def test_players_are_two_to_ten(players):
    with pytest.raises(RulesError, match="2 to 10 players"):
        Rules().hand_size_for(players)


@pytest.mark.parametrize(
    ("settings", "setting"),
    [
        ({"rounds": 0}, "rounds"),
        ({"rounds": 14}, "rounds"),
        ({"highest_double": 9, "rounds": 11}, "rounds"),
        ({"hand_size": 0}, "hand_size"),
        ({"public_trains": 4}, "public_trains"),
        ({"public_trains": -1}, "public_trains"),
        ({"first_turn": "two_tiles"}, "first_turn"),
        ({"double_scope": "everywhere"}, "double_scope"),
        ({"variant": "domino"}, "variant"),
        ({"double_blank_value": 25}, "double_blank_value"),
        ({"double_penalty": 7}, "double_penalty"),
        ({"double_penalty": 105}, "double_penalty"),
        ({"out_score": -5}, "out_score"),
        ({"draw_before_passing": 1}, "draw_before_passing"),
        ({"double_penalty": True}, "double_penalty"),
        ({"double_scope": "own_train", "doubles_must_be_covered": False}, "double_scope"),
        ({"double_scope": "own_train", "variant": "cuban"}, "double_scope"),
    ],
)
def test_settings_that_make_no_sense_are_refused_naming_the_setting(settings, setting):
    with pytest.raises(RulesError) as refused:
        Rules(**settings)
    assert refused.value.setting == setting
    assert str(refused.value).startswith(f"{setting}: ")


def test_defaults_are_those_of_rules_md():
    rules = Rules()
    assert rules.highest_double == 12
    assert rules.round_count == 13
    assert rules.public_trains == 1
    assert rules.first_turn == "line"
    assert rules.draw_before_passing and rules.doubles_must_be_covered
    assert rules.double_scope == "table"
    assert not (rules.double_plays_again or rules.engine_from_hand or rules.unstarted_trains_open)
    assert rules.variant == "standard"
    assert (rules.double_blank_value, rules.double_penalty, rules.out_score) == (0, 0, 0)


def test_presets():
    assert preset("standard") == Rules()
    assert preset("family") == Rules(double_blank_value=50, double_plays_again=True)
    assert preset("short").round_count == 10
    assert preset_name(Rules(rounds=10)) == "short"
    with pytest.raises(RulesError, match="not a preset"):
        preset("speedy")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_json_round_trip(name):
    rules = PRESETS[name]
    assert Rules.from_json(rules.to_json()) == rules


def test_from_dict_refuses_unknown_settings_and_fills_defaults():
    with pytest.raises(RulesError) as refused:
        Rules.from_dict({"double_blank_value": 50, "speed": 3})
    assert refused.value.setting == "speed"
    assert Rules.from_dict({"double_blank_value": 50}) == Rules(double_blank_value=50)


def test_changed_validates_like_a_new_object():
    assert Rules().changed(double_penalty=50).double_penalty == 50
    with pytest.raises(RulesError):
        Rules().changed(double_penalty=51)
    with pytest.raises(RulesError):
        Rules().changed(nonsense=1)


def test_differences_and_descriptions():
    assert Rules(double_blank_value=50).differences(Rules()) == {"double_blank_value": (50, 0)}
    assert describe("double_blank_value", 50) == "Double-blank is worth 50"
    assert describe("draw_before_passing", False) == "Draw before passing: off"
    assert describe("variant", "chicken_foot") == "Variant: Chicken Foot"
    assert describe("own_train_first", "off") == "Tiles go on your own train first: never"
    assert describe("engine_hunt", "in_turn").startswith("When nobody holds the double, seats")
    assert describe("highest_double", 9) == "Set: double-9"
    assert describe("rounds", None) == "Rounds to play: one per double"


@pytest.mark.parametrize(("rounds", "first", "last"), [(13, 12, 0), (10, 9, 0), (7, 6, 0)])
def test_round_doubles_run_down_to_the_double_blank(rounds, first, last):
    rules = Rules(rounds=rounds)
    assert rules.round_double(1) == first
    assert rules.round_double(rounds) == last


def test_a_round_beyond_the_rounds_setting_has_no_double():
    with pytest.raises(RulesError, match="there is no round 14 of 13"):
        Rules().round_double(14)
    with pytest.raises(RulesError) as refused:
        Rules().round_double(0)
    assert refused.value.reason == "there is no round 0 of 13."

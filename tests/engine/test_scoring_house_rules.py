"""The scoring house rules from other tables (RULES.md, "House rules from other tables"):
``round_engines``, ``blank_value``, ``out_on_double`` and ``tie_break``, each shown under
both of its values."""

import pytest

from games.engine import HandCount, Rules, RulesError, apply, new_game, score, winners
from games.engine.actions import play
from games.engine.records import Recorder, replay

from .positions import position, t, tiles

# -- round_engines ----------------------------------------------------------------------


def test_seven_rounds_count_down_to_the_blank_by_default():
    rules = Rules(rounds=7)
    assert [rules.round_double(k) for k in range(1, 8)] == [6, 5, 4, 3, 2, 1, 0]
    assert new_game(rules, 4, seed=1).round.engine == 6


def test_seven_rounds_from_the_highest_run_twelve_down_to_six():
    rules = Rules(rounds=7, round_engines="from_highest")
    assert [rules.round_double(k) for k in range(1, 8)] == [12, 11, 10, 9, 8, 7, 6]
    assert new_game(rules, 4, seed=1).round.engine == 12


def test_a_full_match_is_the_same_either_way():
    both = [Rules(round_engines=r) for r in ("to_blank", "from_highest")]
    assert [r.round_double(1) for r in both] == [12, 12]
    assert [r.round_double(13) for r in both] == [0, 0]


def test_a_record_of_rounds_from_the_highest_replays():
    game = new_game(Rules(rounds=2, round_engines="from_highest"), 2, seed=3)
    recorder = Recorder(game)
    assert replay(recorder.records)[0].round.engine == 12


# -- blank_value ------------------------------------------------------------------------


def test_a_blank_half_counts_nothing_by_default_and_25_under_blank_value():
    hand = HandCount.of(tiles("6-0 5-4"))
    assert hand.blanks == 1
    assert score(hand, Rules()) == 15
    assert score(hand, Rules(blank_value=25)) == 40  # the 6-0 counts 31


def test_the_double_blank_counts_the_larger_of_its_value_and_two_blank_halves():
    hand = HandCount.of(tiles("0-0"))
    assert hand.blanks == 0  # its halves are the double-blank's, counted once
    assert score(hand, Rules(blank_value=25)) == 50
    assert score(hand, Rules(blank_value=25, double_blank_value=50)) == 50
    assert score(hand, Rules(double_blank_value=50)) == 50
    assert score(hand, Rules()) == 0


def test_blank_halves_score_at_a_round_end_and_matching_is_unchanged():
    rules = Rules(blank_value=25)
    game = position(["12-3", "3-0 0-0"], rules=rules)
    game = apply(game, play(0, t("12-3"), 0))
    assert game.round.result.scores == (0, 3 + 25 + 50)


# -- out_on_double ----------------------------------------------------------------------


def _out_on(last: str, rules: Rules):
    game = position([last, "4-1 2-2"], rules=rules, trains={0: "12-3"})
    return apply(game, play(0, t(last), 0))


def test_going_out_on_a_double_adds_out_on_double_to_the_out_score():
    rules = Rules(out_on_double=-50, out_score=-10)
    game = _out_on("3-3", rules)
    assert game.round.result.out_on_double == (0,)
    assert game.round.result.scores == (-60, 9)


def test_going_out_on_another_tile_adds_nothing():
    game = _out_on("3-5", Rules(out_on_double=50))
    assert game.round.result.out_on_double == ()
    assert game.round.result.scores == (0, 9)


def test_out_on_double_is_zero_by_default():
    assert _out_on("3-3", Rules()).round.result.scores == (0, 9)


def test_a_stalled_round_has_nobody_out_on_a_double():
    assert score(HandCount(12, 1), Rules(out_on_double=100), on_double=True) == 12


def test_out_on_double_takes_multiples_of_five_from_minus_50_to_100():
    for bad in (7, -55, 105):
        with pytest.raises(RulesError, match="out_on_double"):
            Rules(out_on_double=bad)


def test_blank_value_is_0_or_25():
    with pytest.raises(RulesError, match="blank_value"):
        Rules(blank_value=10)


# -- tie_break --------------------------------------------------------------------------


def test_tied_totals_are_shared_by_default():
    assert winners([40, 31, 31], None) == [1, 2]


def test_rounds_out_breaks_a_tie_for_the_lowest_total():
    assert winners([40, 31, 31], [3, 1, 2]) == [2]  # seat 0's three outs do not count


def test_a_tie_in_rounds_out_too_is_shared():
    assert winners([31, 31, 50], [2, 2, 0]) == [0, 1]


def test_a_match_counts_the_rounds_each_seat_went_out_in():
    rules = Rules(rounds=1, tie_break="rounds_out")
    game = position(["12-3", "3-1 2-2"], rules=rules, number=1)
    game = apply(game, play(0, t("12-3"), 0))
    assert game.outs == ((0,),)
    assert game.winners() == [0]
    tied = game._replace(scores=((5, 5),), outs=((1,),))
    assert tied.winners() == [1]
    assert tied._replace(rules=Rules(rounds=1)).winners() == [0, 1]

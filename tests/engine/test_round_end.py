"""The end of a round, scoring through the one scoring function, and match totals."""

import pytest

from games.engine import HandCount, Rules, apply, score, totals, winners
from games.engine.actions import pass_turn, play

from .positions import position, run, t, tiles


def test_going_out_ends_the_round_at_once_even_mid_line():
    game = position(["12-3 3-4", "1-1 2-2"], first_turns=[0, 1])
    game = run(game, play(0, t("12-3"), 0), play(0, t("3-4"), 0))
    assert game.round.result.reason == "out"
    assert game.round.result.scores == (0, 6)
    assert game.scores == ((0, 6),)


def test_going_out_with_a_double_still_owed_a_cover_ends_the_round():
    game = position(["3-3", "3-1 2-2"], trains={0: "12-3"})
    game = apply(game, play(0, t("3-3"), 0))
    assert game.round.result.out_seat == 0


def test_nothing_more_can_be_played_in_a_finished_round():
    game = position(["12-3", "12-1"])
    game = apply(game, play(0, t("12-3"), 0))
    with pytest.raises(Exception, match="Round 1 is over"):
        apply(game, play(1, t("12-1"), 1))


def test_a_round_stalls_when_the_boneyard_is_empty_and_nobody_could_play():
    # Seat 1 could play 9-8 if seat 0's train were marked: not stalled yet.
    game = position(["1-2", "9-8 4-4"], trains={0: "12-9"})
    assert game.round.result is None
    game = apply(game, pass_turn(0))
    assert game.round.result is None and game.round.turn == 1
    game = apply(game, play(1, t("9-8"), 0))
    # Now nobody holds an 8 or a 12: stalled at once, without passes round the table.
    assert game.round.result.reason == "stalled"
    assert game.round.result.out_seat is None
    assert game.round.result.scores == (3, 8)


def test_a_stall_with_drawing_off_is_noticed_even_with_tiles_in_the_boneyard():
    rules = Rules(draw_before_passing=False)
    game = position(["1-2 12-3", "4-5"], rules=rules, boneyard="3-5 6-6")
    game = apply(game, play(0, t("12-3"), 0))
    # Seat 0 still holds the 1-2, seat 1 the 4-5: no 3 or 12 anywhere in hand.
    assert game.round.result.reason == "stalled"


def test_a_stalled_round_scores_pips_for_everybody_and_nobody_gets_the_out_bonus():
    rules = Rules(out_score=-10, double_blank_value=50, double_penalty=5)
    game = position(["1-2", "0-0 4-4"], rules=rules, trains={0: "12-9"})
    game = apply(game, pass_turn(0))
    assert game.round.result.reason == "stalled"
    # Clarification 13: the double-blank value and the double penalty apply as in any hand.
    assert game.round.result.scores == (3, 50 + 5 + 8 + 5)


def test_the_player_who_goes_out_scores_the_out_score():
    rules = Rules(out_score=-10)
    game = position(["12-3", "1-1 2-2"], rules=rules)
    game = apply(game, play(0, t("12-3"), 0))
    assert game.round.result.scores == (-10, 6)


# -- the worked examples of the seeds -----------------------------------------------------


def hand_score(text, **settings):
    return score(HandCount.of(tiles(text)), Rules(**settings))


def test_worked_round_of_the_double_nine():
    assert score(None, Rules()) == 0  # Cara went out
    assert hand_score("2-2 5-4") == 13  # Dev
    assert hand_score("4-1 6-6 3-0") == 20  # Alice
    assert hand_score("12-11") == 23  # Ben


def test_worked_four_rounds_of_running_totals():
    # Alice, Ben, Cara, Dev; None is "went out".
    rounds = [(20, 23, None, 13), (31, 15, 27, 8), (None, 22, 14, 36), (18, 12, 41, None)]
    scored = [[0 if p is None else score(HandCount(p), Rules()) for p in r] for r in rounds]
    match_totals = totals(scored, 4)
    assert match_totals == [69, 72, 82, 57]
    assert winners(match_totals) == [3]  # Dev leads; Cara is last
    assert max(match_totals) == match_totals[2]


def test_worked_hand_of_three_tiles_and_the_double_penalty():
    assert hand_score("6-4 3-3 5-0") == 21
    assert hand_score("6-4 3-3 5-0", double_penalty=50) == 71


def test_worked_double_six_with_a_fifty_penalty():
    assert hand_score("6-6", double_penalty=50) == 62


def test_double_blank_value():
    assert hand_score("0-0 1-0") == 1
    assert hand_score("0-0 1-0", double_blank_value=50) == 51
    # The double-blank is a double too: the penalty applies on top.
    assert hand_score("0-0", double_blank_value=50, double_penalty=10) == 60


def test_hand_counts_refuse_impossible_hands():
    with pytest.raises(ValueError, match="negative"):
        HandCount(-1)
    with pytest.raises(ValueError, match="at least one double"):
        HandCount(0, doubles=0, double_blank=True)


def test_tied_totals_share_the_win():
    assert winners([40, 31, 31, 77]) == [1, 2]
    assert winners([]) == []


def test_negative_totals_are_possible():
    assert totals([(-10, 5), (-10, 7)], 2) == [-20, 12]
    assert winners([-20, 12]) == [0]

"""Doubles: covering, the two scopes, another play, Chicken Foot and Cuban forks."""

import pytest

from games.engine import IllegalAction, Rules, apply
from games.engine.actions import draw, end_turn, play

from .positions import kinds, plays, position, run, t

MEXICAN = 2  # in two-seat positions; three-seat positions use 3


def test_doubles_must_be_covered_before_any_other_play():
    game = position(["12-12 5-6", "12-1 1-4", "12-3"], trains={0: "12-5"})
    game = apply(game, play(0, t("12-12"), 3))  # on the Mexican train
    assert game.round.owed_doubles() == [(3, 12)]
    assert game.round.turn == 1
    # Seat 1 could start its own train with 12-1, but only the cover is legal: 12-1 on 12-12.
    assert plays(game) == {("12-1", 3, 0)}
    with pytest.raises(IllegalAction, match="must be covered first"):
        apply(game, play(1, t("12-1"), 1))
    game = apply(game, play(1, t("12-1"), 3))
    assert not game.round.owed_doubles()


def test_anybody_may_cover_a_double_on_a_private_unmarked_train():
    # Clarification 4: under the table scope the cover goes wherever the double is.
    game = position(["5-5 1-1", "5-9 4-4"], trains={0: "12-5"}, turn=0)
    game = apply(game, play(0, t("5-5"), 0))
    assert game.round.turn == 1
    assert plays(game) == {("9-5", 0, 0)}
    game = apply(game, play(1, t("5-9"), 0))
    assert game.round.trains[0].branches[0].open == 9


def test_a_player_who_cannot_cover_draws_then_marks_and_the_duty_passes_round_the_table():
    game = position(["5-5 1-1", "2-3 4-4", "0-0 6-6"], trains={0: "12-5"}, boneyard="8-8 5-7")
    game = apply(game, play(0, t("5-5"), 0))
    assert kinds(game) == {"draw"}
    game = apply(game, draw(1))  # draws 8-8: no cover, so mark and pass
    assert game.round.trains[1].marked and game.round.turn == 2
    game = apply(game, draw(2))  # draws 5-7: it covers, so it must be played
    assert plays(game) == {("7-5", 0, 0)}
    game = apply(game, play(2, t("5-7"), 0))
    assert not game.round.owed_doubles()


def test_only_one_double_is_uncovered_at_a_time_under_the_table_scope():
    game = position(["5-5 1-1", "5-6 6-6", "1-2"], trains={0: "12-5", 1: "12-6"}, turn=0)
    game = apply(game, play(0, t("5-5"), 0))
    # Seat 1 may not lay its own 6-6 before the 5-5 is covered.
    assert plays(game) == {("6-5", 0, 0)}


def test_double_scope_own_train_closes_only_the_train_it_sits_on():
    rules = Rules(double_scope="own_train")
    game = position(["5-5 1-1", "12-1 3-9", "1-2"], rules=rules, trains={0: "12-5"}, marked=[0])
    game = apply(game, play(0, t("5-5"), 0))
    assert game.round.turn == 1
    # Play goes on elsewhere; seat 0's train waits for a 5 (none in seat 1's hand).
    assert plays(game) == {("12-1", 1, 0), ("12-1", 3, 0)}
    game = apply(game, play(1, t("12-1"), 3))
    assert game.round.owed_doubles() == [(0, 5)]


def test_double_scope_own_train_a_cover_follows_the_usual_access_rules():
    rules = Rules(double_scope="own_train")
    game = position(["5-5 1-1", "5-9 3-3"], rules=rules, trains={0: "12-5", 1: "12-3"})
    game = apply(game, play(0, t("5-5"), 0))
    # Seat 0's train carries no marker: seat 1 may not cover there.
    assert plays(game) == {("3-3", 1, 0)}
    with pytest.raises(IllegalAction, match="closed to you"):
        apply(game, play(1, t("5-9"), 0))


def test_double_scope_own_train_uncovered_doubles_may_be_covered_in_any_order():
    rules = Rules(double_scope="own_train")
    game = position(
        ["5-5 6-1 5-2", "6-6 9-9 0-0"],
        rules=rules,
        trains={0: "12-5", "public": "12-6"},
        marked=[0],
    )
    game = run(game, play(0, t("5-5"), 0), play(1, t("6-6"), MEXICAN))
    assert game.round.owed_doubles() == [(0, 5), (MEXICAN, 6)]
    assert plays(game) == {("5-2", 0, 0), ("6-1", MEXICAN, 0)}


def test_going_out_on_a_double_ends_the_round_and_nobody_covers_it():
    game = position(["7-7", "1-2 3-3"], trains={0: "12-7"})
    game = apply(game, play(0, t("7-7"), 0))
    result = game.round.result
    assert result.reason == "out" and result.out_seat == 0
    assert result.scores == (0, 9)


def test_doubles_are_ordinary_tiles_when_the_rule_is_off():
    rules = Rules(doubles_must_be_covered=False)
    game = position(["5-5 1-1", "12-1 3-9"], rules=rules, trains={0: "12-5"})
    game = apply(game, play(0, t("5-5"), 0))
    assert not game.round.owed_doubles()
    assert plays(game) == {("12-1", 1, 0), ("12-1", MEXICAN, 0)}


def test_the_engine_in_the_hub_is_never_owed_a_cover():
    game = position(["12-1", "3-3"])
    assert not game.round.owed_doubles()
    assert plays(game) == {("12-1", 0, 0), ("12-1", MEXICAN, 0)}


# -- a double earns another play ----------------------------------------------------------


def test_double_plays_again_the_player_covers_their_own_double():
    rules = Rules(double_plays_again=True)
    game = position(["5-5 5-8 1-1", "5-9"], rules=rules, trains={0: "12-5"})
    game = apply(game, play(0, t("5-5"), 0))
    assert game.round.turn == 0 and game.round.turn_state.extra_owed
    assert plays(game) == {("8-5", 0, 0)}
    game = apply(game, play(0, t("5-8"), 0))
    assert game.round.turn == 1 and not game.round.owed_doubles()


def test_double_plays_again_the_extra_tile_must_cover_even_under_own_train_scope():
    rules = Rules(double_plays_again=True, double_scope="own_train")
    game = position(["5-5 5-8 12-1", "9-9"], rules=rules, trains={0: "12-5"})
    game = apply(game, play(0, t("5-5"), 0))
    assert plays(game) == {("8-5", 0, 0)}  # not the 12-1 on the Mexican train
    with pytest.raises(IllegalAction, match="extra play must cover the double"):
        apply(game, play(0, t("12-1"), MEXICAN))


def test_double_plays_again_cannot_cover_draws_then_marks_and_the_duty_passes():
    rules = Rules(double_plays_again=True)
    game = position(["5-5 1-1", "5-9"], rules=rules, trains={0: "12-5"}, boneyard="2-3 4-4")
    game = apply(game, play(0, t("5-5"), 0))
    assert kinds(game) == {"draw"}
    game = apply(game, draw(0))
    assert game.round.trains[0].marked and game.round.turn == 1
    assert plays(game) == {("9-5", 0, 0)}


def test_double_plays_again_follows_a_line_that_ends_on_a_double():
    rules = Rules(double_plays_again=True)
    game = position(["12-3 3-3 1-1", "4-4"], rules=rules, first_turns=[0, 1], boneyard="3-6")
    game = run(game, play(0, t("12-3"), 0), play(0, t("3-3"), 0))
    assert game.round.turn_state.extra_owed
    with pytest.raises(IllegalAction, match="must play again"):
        apply(game, end_turn(0))
    game = apply(game, draw(0))  # no cover in hand: draw, and the 3-6 covers
    game = apply(game, play(0, t("3-6"), 0))
    assert game.round.turn == 1 and not game.round.owed_doubles()


def test_double_plays_again_a_drawn_double_that_is_played_earns_another_play():
    rules = Rules(double_plays_again=True)
    game = position(["1-2 6-9", "4-4"], rules=rules, trains={0: "12-5"}, boneyard="5-5 5-6")
    game = run(game, draw(0), play(0, t("5-5"), 0))
    assert game.round.turn == 0 and kinds(game) == {"draw"}  # a second draw, for the cover
    game = run(game, draw(0), play(0, t("5-6"), 0))
    assert game.round.turn == 1 and not game.round.owed_doubles()


def test_double_plays_again_where_no_cover_is_owed_the_extra_play_is_any_legal_play():
    # Pinned reading of Clarification 8 with the duty off: the extra tile goes anywhere legal,
    # and a player with no extra play draws and, failing that, marks like any other turn.
    rules = Rules(double_plays_again=True, doubles_must_be_covered=False)
    game = position(["5-5 12-1 3-4", "9-9"], rules=rules, trains={0: "12-5"}, boneyard="0-6 7-7")
    game = apply(game, play(0, t("5-5"), 0))
    assert game.round.turn == 0
    assert plays(game) == {("12-1", MEXICAN, 0)}
    game = apply(game, play(0, t("12-1"), MEXICAN))
    assert game.round.turn == 1

    stuck = position(["5-5 3-4", "9-9"], rules=rules, trains={0: "12-5"}, boneyard="0-6 7-7")
    stuck = run(stuck, play(0, t("5-5"), 0), draw(0))
    assert stuck.round.trains[0].marked and stuck.round.turn == 1


# -- Chicken Foot -------------------------------------------------------------------------


def test_chicken_foot_a_double_is_branched_three_ways_before_normal_play_resumes():
    rules = Rules(variant="chicken_foot")
    game = position(
        ["5-5 5-1 12-2", "5-2 5-3 9-9", "5-4 6-6"], rules=rules, trains={0: "12-5"}, marked=[0]
    )
    game = apply(game, play(0, t("5-5"), 0))
    train = game.round.trains[0]
    assert [b.open for b in train.branches] == [5, 5, 5]
    assert all(b.owed for b in train.branches)
    assert [(b.parent, b.at) for b in train.branches] == [(None, 0), (0, 1), (0, 1)]
    # Each of the next plays fills one branch; nothing else is legal meanwhile.
    assert plays(game) == {
        ("5-2", 0, 0),
        ("5-2", 0, 1),
        ("5-2", 0, 2),
        ("5-3", 0, 0),
        ("5-3", 0, 1),
        ("5-3", 0, 2),
    }
    game = run(game, play(1, t("5-2"), 0, 0), play(2, t("5-4"), 0, 1))
    assert plays(game) == {("5-1", 0, 2)}  # seat 0's 12-2 must wait
    game = apply(game, play(0, t("5-1"), 0, 2))
    assert not game.round.owed_doubles()
    assert [b.open for b in game.round.trains[0].branches] == [2, 4, 1]
    # Normal play resumes on every branch of the foot.
    assert ("5-3", 0, 0) not in plays(game)


def test_chicken_foot_own_train_scope_fills_the_foot_before_any_other_tile_on_that_train():
    rules = Rules(variant="chicken_foot", double_scope="own_train")
    game = position(["5-5 5-1 12-2", "12-3 9-9"], rules=rules, trains={0: "12-5"}, marked=[0])
    game = apply(game, play(0, t("5-5"), 0))
    assert plays(game) == {("12-3", 1, 0), ("12-3", MEXICAN, 0)}


def test_chicken_foot_with_the_duty_off_the_branches_are_plain_open_ends():
    rules = Rules(variant="chicken_foot", doubles_must_be_covered=False)
    game = position(["5-5 5-1 12-2", "12-3 9-9"], rules=rules, trains={0: "12-5"}, marked=[0])
    game = apply(game, play(0, t("5-5"), 0))
    assert not game.round.owed_doubles()
    assert plays(game) == {("12-3", 1, 0), ("12-3", MEXICAN, 0)}


def test_chicken_foot_with_double_plays_again_the_extra_tile_is_one_branch():
    rules = Rules(variant="chicken_foot", double_plays_again=True)
    game = position(["5-5 5-1 5-2", "5-3 9-9"], rules=rules, trains={0: "12-5"})
    game = run(game, play(0, t("5-5"), 0), play(0, t("5-1"), 0, 1))
    assert game.round.turn == 1
    assert len(game.round.owed_doubles()) == 1  # two branches still to fill, on one double


# -- Cuban --------------------------------------------------------------------------------


def test_cuban_a_laid_double_forks_its_train_and_is_never_owed_a_cover():
    rules = Rules(variant="cuban")
    game = position(["5-5 5-1", "12-3 9-9"], rules=rules, trains={0: "12-5"}, marked=[0])
    game = apply(game, play(0, t("5-5"), 0))
    train = game.round.trains[0]
    assert [b.open for b in train.branches] == [5, 5]
    assert not game.round.owed_doubles()
    assert game.round.turn == 1
    assert plays(game) == {("12-3", 1, 0), ("12-3", MEXICAN, 0)}


def test_cuban_both_ends_of_a_fork_grow_on_their_own():
    rules = Rules(variant="cuban")
    game = position(["5-5 5-1 5-2", "9-9"], rules=rules, trains={0: "12-5"}, first_turns=[0])
    game = run(game, play(0, t("5-5"), 0), play(0, t("5-1"), 0, 1), play(0, t("5-2"), 0, 0))
    branches = game.round.trains[0].branches
    assert [b.open for b in branches] == [2, 1]
    assert branches[0].tiles == ((12, 5), (5, 5), (5, 2))
    assert branches[1].tiles == ((5, 1),)

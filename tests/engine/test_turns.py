"""A turn: where a tile may go, the first-turn line, drawing, passing and markers."""

import pytest

from games.engine import IllegalAction, Rules, apply, legal_actions
from games.engine.actions import draw, end_turn, pass_turn, play

from .positions import kinds, plays, position, run, t

MEXICAN = 2  # in a two-seat position, trains 0 and 1 are the seats', 2 is the Mexican train


def test_a_tile_plays_when_one_end_matches_and_is_turned_to_leave_the_other_open():
    game = position(["12-5 3-4", "1-1"], trains={0: "12-7"})
    assert plays(game) == {("12-5", 2, 0)}
    game = apply(game, play(0, t("12-5"), MEXICAN))
    assert game.round.trains[MEXICAN].branches[0].tiles == ((12, 5),)
    assert game.round.trains[MEXICAN].branches[0].open == 5


def test_an_unstarted_train_needs_the_engine_number():
    game = position(["12-5 11-4", "1-1"], marked=[1])
    assert plays(game) == {("12-5", 0, 0), ("12-5", 1, 0), ("12-5", 2, 0)}


def test_a_tile_that_does_not_match_is_refused():
    game = position(["12-5 3-4", "1-1"])
    with pytest.raises(IllegalAction, match="4-3 does not match the open end 12"):
        apply(game, play(0, t("3-4"), 0))


def test_you_cannot_play_a_tile_you_do_not_hold():
    game = position(["12-5", "12-1"])
    with pytest.raises(IllegalAction, match="You do not hold 12-1"):
        apply(game, play(0, t("12-1"), 0))


def test_it_must_be_your_turn():
    game = position(["12-5", "12-1"])
    with pytest.raises(IllegalAction, match="not seat 1's turn: seat 0 is to play"):
        apply(game, play(1, t("12-1"), 1))
    assert legal_actions(game, 1) == []


def test_nonsense_is_refused_with_a_clear_message():
    game = position(["12-5", "12-1"])
    with pytest.raises(IllegalAction, match="no seat 7"):
        apply(game, play(7, t("12-1"), 1))
    with pytest.raises(IllegalAction, match="no train 9"):
        apply(game, play(0, t("12-5"), 9))
    with pytest.raises(IllegalAction, match="has no open end 3"):
        apply(game, play(0, t("12-5"), 0, 3))
    with pytest.raises(IllegalAction, match="'fly' is not an action"):
        apply(game, play(0, t("12-5"), 0)._replace(kind="fly"))


def test_own_train_is_always_open_to_its_owner_and_closed_to_others_without_a_marker():
    game = position(["5-6", "12-1"], trains={0: "12-5", 1: "12-6"}, turn=0)
    assert plays(game) == {("6-5", 0, 0)}
    with pytest.raises(IllegalAction, match="seat 1's train is closed to you"):
        apply(game, play(0, t("5-6"), 1))


def test_a_marked_train_is_open_to_everybody():
    game = position(["5-6", "12-1"], trains={0: "12-5", 1: "12-6"}, marked=[1])
    assert plays(game) == {("6-5", 0, 0), ("6-5", 1, 0)}


def test_mexican_train_is_open_to_all_from_the_first_turn():
    game = position(["12-3 3-4", "1-1"], first_turns=[0, 1])
    assert ("12-3", MEXICAN, 0) in plays(game)
    game = apply(game, play(0, t("12-3"), MEXICAN))
    assert game.round.turn == 1  # a single play elsewhere ends the first turn


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_public_trains_setting(count):
    game = position(["12-3", "1-1"], rules=Rules(public_trains=count))
    public = [train for train in game.round.trains if train.is_public]
    assert len(public) == count
    assert {train for _, train, _ in plays(game)} == {0, *range(2, 2 + count)}


def test_passing_marks_only_your_own_train_never_a_public_one():
    game = position(["1-2", "3-4"], trains={"public": "12-8"})
    game = apply(game, pass_turn(0))
    assert game.round.trains[0].marked
    assert not game.round.trains[MEXICAN].marked
    assert game.round.turn == 1


def test_marker_comes_off_when_the_owner_plays_on_their_own_train():
    game = position(["5-6 9-9", "1-1"], trains={0: "12-5"}, marked=[0])
    game = apply(game, play(0, t("5-6"), 0))
    assert not game.round.trains[0].marked


def test_marker_stays_on_when_the_owner_plays_elsewhere():
    game = position(["12-6 9-8", "1-1"], trains={0: "12-5"}, marked=[0])
    game = apply(game, play(0, t("12-6"), MEXICAN))
    assert game.round.trains[0].marked


def test_unstarted_trains_open_setting():
    hands = ["12-3 4-4", "1-1"]
    closed = position(hands, rules=Rules(unstarted_trains_open=False))
    assert plays(closed) == {("12-3", 0, 0), ("12-3", 2, 0)}
    open_ = position(hands, rules=Rules(unstarted_trains_open=True))
    assert plays(open_) == {("12-3", 0, 0), ("12-3", 1, 0), ("12-3", 2, 0)}


def test_unstarted_train_stays_open_until_its_owner_lays_a_tile_on_it():
    rules = Rules(unstarted_trains_open=True)
    game = position(["12-3 3-5", "3-9 1-1"], rules=rules, turn=0)
    game = run(game, play(0, t("12-3"), 1))  # seat 0 starts seat 1's train
    assert not game.round.trains[1].started_by_owner
    game = run(game, play(1, t("3-9"), 1))  # now its owner lays a tile on it
    assert game.round.trains[1].started_by_owner
    assert ("5-3", 1, 0) not in plays(game, 0)


# -- the first-turn line ------------------------------------------------------------------


def test_first_turn_line_lays_several_tiles_on_your_own_train():
    game = position(["12-3 3-5 5-9 8-8", "1-1"], first_turns=[0, 1])
    game = run(game, play(0, t("12-3"), 0))
    assert game.round.turn == 0 and game.round.turn_state.line_open
    assert plays(game) == {("5-3", 0, 0)}  # the line goes on your own train only
    assert "end_turn" in kinds(game)
    game = run(game, play(0, t("3-5"), 0), play(0, t("5-9"), 0))
    # Nothing more plays on the line: the turn ends by itself.
    assert game.round.turn == 1
    assert game.round.trains[0].branches[0].open == 9
    assert not game.round.is_first_turn(0)


def test_first_turn_line_may_stop_whenever_the_player_chooses():
    game = position(["12-3 3-5 5-9", "1-1"], first_turns=[0, 1])
    game = run(game, play(0, t("12-3"), 0), end_turn(0))
    assert game.round.turn == 1 and game.round.hands[0] == (t("3-5"), t("5-9"))


def test_first_turn_line_cannot_go_elsewhere():
    game = position(["12-3 3-6 12-4", "1-1"], first_turns=[0, 1])
    game = apply(game, play(0, t("12-3"), 0))
    with pytest.raises(IllegalAction, match="first-turn line goes on your own train only"):
        apply(game, play(0, t("12-4"), MEXICAN))


def test_first_turn_line_a_double_in_the_line_is_covered_by_the_next_tile():
    game = position(["12-3 3-3 3-7 7-1", "1-1"], first_turns=[0, 1])
    game = run(game, play(0, t("12-3"), 0), play(0, t("3-3"), 0))
    assert game.round.trains[0].branches[0].owed
    assert plays(game) == {("7-3", 0, 0)}
    game = run(game, play(0, t("3-7"), 0), play(0, t("7-1"), 0))
    assert game.round.trains[0].branches[0].tiles == ((12, 3), (3, 3), (3, 7), (7, 1))
    assert not game.round.owed_doubles()


def test_first_turn_line_ending_on_a_double_leaves_it_uncovered():
    game = position(["12-3 3-3 9-9", "3-8 1-1"], first_turns=[0, 1])
    game = run(game, play(0, t("12-3"), 0), play(0, t("3-3"), 0))
    # No tile covers the 3-3: the line is over, and the next player owes the cover.
    assert game.round.turn == 1
    assert game.round.owed_doubles() == [(0, 3)]
    assert plays(game) == {("8-3", 0, 0)}


def test_first_turn_is_spent_even_when_the_player_only_draws():
    game = position(["1-2", "1-1"], first_turns=[0, 1], boneyard="4-5 12-6")
    game = apply(game, draw(0))
    assert game.round.turn == 1 and not game.round.is_first_turn(0)


def test_no_line_after_a_draw():
    game = position(["1-2 6-5", "1-1"], first_turns=[0, 1], boneyard="12-6 9-9")
    game = apply(game, draw(0))
    assert game.round.turn_state.drawn == t("12-6")
    assert plays(game) == {("12-6", 0, 0), ("12-6", 2, 0)}
    game = apply(game, play(0, t("12-6"), 0))
    assert game.round.turn == 1  # 6-5 would follow, but only the drawn tile may be played


def test_first_turn_one_tile_setting():
    game = position(["12-3 3-5", "1-1"], rules=Rules(first_turn="one_tile"), first_turns=[0, 1])
    game = apply(game, play(0, t("12-3"), 0))
    assert game.round.turn == 1
    assert "end_turn" not in kinds(game, 1)


def test_end_turn_is_only_for_a_line():
    game = position(["12-3", "1-1"])
    with pytest.raises(IllegalAction, match="Only a first-turn line can be ended"):
        apply(game, end_turn(0))


# -- cannot play: draw, play or mark ------------------------------------------------------


def test_a_player_with_a_legal_play_must_play_and_cannot_draw_or_pass():
    game = position(["12-3", "1-1"], boneyard="4-4")
    assert kinds(game) == {"play"}
    with pytest.raises(IllegalAction, match="a player who can play must play"):
        apply(game, draw(0))
    with pytest.raises(IllegalAction, match="a player who can play must play"):
        apply(game, pass_turn(0))


def test_cannot_play_draws_and_a_drawn_playable_tile_must_be_played():
    game = position(["1-2 3-4", "1-1"], boneyard="12-6 9-9")
    assert legal_actions(game, 0) == [draw(0)]
    game = apply(game, draw(0))
    assert game.round.turn == 0 and game.round.turn_state.drawn == t("12-6")
    assert kinds(game) == {"play"}  # no passing with a playable drawn tile
    with pytest.raises(IllegalAction, match="a player who can play must play"):
        apply(game, pass_turn(0))
    with pytest.raises(IllegalAction, match="already drawn"):
        apply(game, draw(0))


def test_after_a_draw_only_the_drawn_tile_may_be_played():
    # Whatever else the player tries after drawing, the rule named is the drawn-tile rule.
    game = position(["1-2 5-4", "1-1"], boneyard="12-6 6-4", trains={"public": "12-3"})
    game = apply(game, draw(0))
    with pytest.raises(IllegalAction, match="only the drawn tile may be played"):
        apply(game, play(0, t("5-4"), MEXICAN))


def test_a_drawn_tile_that_does_not_play_is_kept_the_marker_goes_on_and_the_turn_passes():
    game = position(["1-2", "1-1"], boneyard="4-5 12-6")
    game = apply(game, draw(0))
    assert game.round.hands[0] == (t("1-2"), t("4-5"))
    assert game.round.trains[0].marked
    assert game.round.turn == 1
    assert game.round.log[-1].kind == "draw" and game.round.log[-1].tile is None


def test_with_the_boneyard_empty_the_marker_goes_on_and_the_turn_passes():
    game = position(["1-2", "12-1"])
    assert legal_actions(game, 0) == [pass_turn(0)]
    with pytest.raises(IllegalAction, match="boneyard is empty"):
        apply(game, draw(0))
    game = apply(game, pass_turn(0))
    assert game.round.trains[0].marked and game.round.turn == 1


def test_draw_before_passing_off_passes_without_drawing():
    rules = Rules(draw_before_passing=False)
    game = position(["1-2", "12-1"], rules=rules, boneyard="12-6 4-4")
    assert legal_actions(game, 0) == [pass_turn(0)]
    with pytest.raises(IllegalAction, match="Draw before passing is off"):
        apply(game, draw(0))
    game = apply(game, pass_turn(0))
    assert game.round.trains[0].marked
    assert game.round.hands[0] == (t("1-2"),) and len(game.round.boneyard) == 2


def test_you_must_draw_before_passing_while_the_boneyard_has_tiles():
    game = position(["1-2", "1-1"], boneyard="4-4")
    with pytest.raises(IllegalAction, match="Draw a tile first"):
        apply(game, pass_turn(0))


def test_draw_and_pass_log_the_numbers_the_player_could_not_use():
    game = position(["1-2", "1-1"], boneyard="4-5", trains={0: "12-7", "public": "12-9"})
    game = apply(game, draw(0))
    assert game.round.log[-1].ends == (7, 9)

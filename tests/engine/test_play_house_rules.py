"""The play house rules from other tables (RULES.md, "House rules from other tables"):
``own_train_first``, ``draw_on_first_turn``, ``optional_draw``, ``extra_play_optional``,
``dead_doubles_free`` and ``engine_replacement``, each on a constructed position under both
of its values."""

import pytest

from games.engine import IllegalAction, Rules, RulesError, apply, legal_actions, new_game
from games.engine.actions import END_TURN, draw, end_turn, pass_turn, place_engine, play
from games.engine.setup import start_round
from games.engine.state import Deal
from games.engine.tiles import full_set

from .positions import kinds, plays, position, run, t

# -- own_train_first --------------------------------------------------------------------


def _first_turn(rule: str):
    """Seat 0's first turn: 12-5 fits its own train and the Mexican train, 12-4 likewise."""
    return position(
        ["12-5 12-4", "3-3"], rules=Rules(own_train_first=rule, first_turn="one_tile"),
        first_turns=[0, 1],
    )  # fmt: skip


def test_own_train_first_off_lets_a_first_turn_tile_go_on_the_mexican_train():
    assert (("12-5", 2, 0) in plays(_first_turn("off"))) is True


def test_own_train_first_keeps_a_first_turn_on_the_own_train():
    game = _first_turn("first_turn")
    assert plays(game) == {("12-5", 0, 0), ("12-4", 0, 0)}
    with pytest.raises(IllegalAction, match="own train in your first turn"):
        apply(game, play(0, t("12-5"), 2))


def test_own_train_first_until_started_holds_on_a_later_turn_too():
    game = position(
        ["12-5 5-1", "3-3"], rules=Rules(own_train_first="until_started"), trains={"public": "12-5"}
    )
    assert plays(game) == {("12-5", 0, 0)}  # 5-1 would fit the Mexican train's 5
    game = position(
        ["12-5 5-1", "3-3"], rules=Rules(own_train_first="first_turn"), trains={"public": "12-5"}
    )
    assert ("5-1", 2, 0) in plays(game)  # not a first turn: anywhere open


def test_own_train_first_still_lets_a_cover_owed_elsewhere_be_laid():
    """Under the own_train scope the owed 6-6 closes only the Mexican train, whose cover
    seat 0 may lay although its own train has no tile yet."""
    rules = Rules(own_train_first="until_started", double_scope="own_train")
    game = position(["6-1 12-2", "3-3"], rules=rules, trains={"public": "12-6 6-6"})
    game = game._replace(round=game.round._replace(trains=_owed_public(game)))
    assert plays(game) == {("6-1", 2, 0), ("12-2", 0, 0)}


def _owed_public(game):
    trains = list(game.round.trains)
    public = trains[-1]
    trains[-1] = public._replace(branches=(public.branches[0]._replace(owed=True),))
    return tuple(trains)


# -- draw_on_first_turn -----------------------------------------------------------------


def _stuck_first_turn(rules: Rules):
    return position(["1-2", "3-3"], rules=rules, boneyard="4-5", first_turns=[0, 1])


def test_a_first_turn_with_no_play_draws_by_default():
    assert kinds(_stuck_first_turn(Rules())) == {"draw"}


def test_draw_on_first_turn_off_marks_the_train_and_passes():
    game = _stuck_first_turn(Rules(draw_on_first_turn=False))
    assert kinds(game) == {"pass"}
    with pytest.raises(IllegalAction, match="Nobody draws in their first turn"):
        apply(game, draw(0))
    game = apply(game, pass_turn(0))
    assert game.round.trains[0].marked and game.round.turn == 1


# -- optional_draw ----------------------------------------------------------------------


def _can_play(rules: Rules):
    return position(["12-5", "3-3"], rules=rules, boneyard="4-5 6-6")


def test_a_player_who_can_play_may_not_draw_by_default():
    assert kinds(_can_play(Rules())) == {"play"}
    with pytest.raises(IllegalAction, match="may not draw"):
        apply(_can_play(Rules()), draw(0))


def test_optional_draw_lets_a_player_who_could_play_draw_instead():
    game = _can_play(Rules(optional_draw=True))
    assert kinds(game) == {"play", "draw"}
    game = apply(game, draw(0))  # 4-5 does not play: kept, and the train is marked
    assert game.round.hands[0] == (t("12-5"), t("4-5"))
    assert game.round.trains[0].marked and game.round.turn == 1


def test_optional_draw_needs_draw_before_passing():
    with pytest.raises(RulesError, match="optional_draw"):
        Rules(optional_draw=True, draw_before_passing=False)


# -- extra_play_optional ----------------------------------------------------------------


def _after_a_double(rules: Rules):
    """Seat 0 lays 5-5 on its own train and holds nothing that covers it."""
    game = position(["5-5 1-2 3-4", "6-6"], rules=rules, boneyard="5-1", trains={0: "12-5"})
    return apply(game, play(0, t("5-5"), 0))


def test_the_extra_play_is_owed_by_default_and_drawn_for():
    game = _after_a_double(Rules(double_plays_again=True))
    assert kinds(game) == {"draw"}
    with pytest.raises(IllegalAction, match="must play again"):
        apply(game, end_turn(0))


def test_extra_play_optional_ends_the_turn_without_a_draw_or_a_marker():
    game = _after_a_double(Rules(double_plays_again=True, extra_play_optional=True))
    assert [a.kind for a in legal_actions(game, 0)] == [END_TURN]
    with pytest.raises(IllegalAction, match="never drawn for"):
        apply(game, draw(0))
    game = apply(game, end_turn(0))
    assert game.round.turn == 1 and not game.round.trains[0].marked
    assert game.round.boneyard == (t("5-1"),)
    assert game.round.owed_doubles() == [(0, 5)]  # still owed, now by the next player


# -- dead_doubles_free ------------------------------------------------------------------


def _dead_double(rules: Rules):
    """Seat 0 lays the 9-9 on its train; no 9 is left in a hand or the boneyard. Seat 1
    holds 12-5, which fits its own train."""
    game = position(["9-9 1-2", "12-5 2-5"], rules=rules, trains={0: "12-9"}, boneyard="1-3")
    return apply(game, play(0, t("9-9"), 0))


def test_a_double_nobody_can_cover_stays_owed_by_default():
    game = _dead_double(Rules())
    assert game.round.owed_doubles() == [(0, 9)]
    assert kinds(game) == {"draw"}  # nothing but the cover is legal, and nobody has a 9


def test_dead_doubles_free_counts_it_as_covered_and_play_goes_on():
    game = _dead_double(Rules(dead_doubles_free=True))
    assert game.round.owed_doubles() == []
    assert plays(game) == {("12-5", 1, 0), ("12-5", 2, 0)}  # its own train, the Mexican


# -- engine_replacement -----------------------------------------------------------------


def _holder_places(rules: Rules):
    hands = ((t("12-12"), t("12-3")), (t("3-4"), t("5-6")))
    boneyard = tuple(x for x in full_set(12) if x not in {y for h in hands for y in h})
    game = new_game(rules, 2, seed=1)
    game = game._replace(round=start_round(rules, Deal(1, 12, 0, hands, boneyard)))
    return apply(game, place_engine(0)), boneyard


def test_the_engine_placed_from_a_dealt_hand_is_not_replaced_by_default():
    game, boneyard = _holder_places(Rules(engine_from_hand=True, hand_size=2))
    assert game.round.hands[0] == (t("12-3"),) and game.round.boneyard == boneyard


def test_engine_replacement_draws_a_tile_for_the_engine_placed():
    rules = Rules(engine_from_hand=True, hand_size=2, engine_replacement=True)
    game, boneyard = _holder_places(rules)
    assert game.round.hands[0] == (t("12-3"), boneyard[0])
    assert game.round.boneyard == boneyard[1:]
    assert game.round.turn == 1


def test_an_engine_found_in_the_hunt_is_not_replaced():
    rules = Rules(engine_from_hand=True, hand_size=1, engine_replacement=True)
    hands = ((t("1-2"),), (t("3-4"),))
    rest = [x for x in full_set(12) if x not in {(1, 2), (3, 4), (12, 12)}]
    boneyard = ((12, 12), *rest)
    game = new_game(rules, 2, seed=1)
    game = game._replace(round=start_round(rules, Deal(1, 12, 0, hands, boneyard)))
    game = apply(game, draw(0))
    game = apply(game, place_engine(0))
    assert game.round.hands[0] == (t("1-2"),)
    assert len(game.round.boneyard) == len(rest)


# -- engine_hunt ------------------------------------------------------------------------


def _hunt(rule: str):
    """Three seats, nobody dealt the 12-12; seat 1 draws it on the first pass."""
    hands = ((t("1-2"),), (t("3-4"),), (t("5-6"),))
    rest = [x for x in full_set(12) if x not in {(1, 2), (3, 4), (5, 6), (12, 12)}]
    boneyard = (rest[0], (12, 12), *rest[1:])
    rules = Rules(engine_from_hand=True, hand_size=1, engine_hunt=rule)
    game = new_game(rules, 3, seed=1)
    game = game._replace(round=start_round(rules, Deal(1, 12, 0, hands, boneyard)))
    return apply(apply(game, draw(0)), draw(1))


def test_in_turn_whoever_draws_the_engine_places_it_at_once():
    game = _hunt("in_turn")
    assert game.round.turn == 1 and kinds(game) == {"place_engine"}
    assert [len(h) for h in game.round.hands] == [2, 2, 1]


def test_together_the_pass_is_finished_before_the_engine_is_placed():
    game = _hunt("together")
    assert game.round.turn == 2 and kinds(game) == {"draw"}  # seat 2 still draws
    game = apply(game, draw(2))
    assert [len(h) for h in game.round.hands] == [2, 2, 2]  # hands stay even
    assert game.round.turn == 1 and kinds(game) == {"place_engine"}
    game = apply(game, place_engine(1))
    assert game.round.turn == 2  # play starts at the placer's left


def test_engine_hunt_needs_the_engine_from_a_hand():
    with pytest.raises(RulesError, match="engine_hunt"):
        Rules(engine_hunt="together")


# -- everyone_first_turn ----------------------------------------------------------------


def _early_outs(rule: bool):
    """Seats 0 and 1 each hold one tile that plays at once; seat 2 cannot play."""
    rules = Rules(everyone_first_turn=rule, first_turn="one_tile", out_score=-10)
    game = position(["12-3", "12-4", "1-2 3-6"], rules=rules, first_turns=[0, 1, 2])
    return apply(game, play(0, t("12-3"), 0))


def test_going_out_ends_the_round_at_once_by_default():
    game = _early_outs(False)
    assert game.round.result.outs == (0,) and game.round.result.scores == (-10, 16, 12)


def test_everyone_first_turn_plays_the_first_turns_out_and_every_early_out_scores():
    game = _early_outs(True)
    assert game.round.result is None and game.round.turn == 1
    game = apply(game, play(1, t("12-4"), 1))  # out too; seat 2 still to have its turn
    assert game.round.result is None and game.round.turn == 2
    game = apply(game, pass_turn(2))
    result = game.round.result
    assert (result.reason, result.outs, result.scores) == ("out", (0, 1), (-10, -10, 12))
    assert game.outs == ((0, 1),)


def test_an_early_out_still_scores_when_the_round_then_stalls():
    rules = Rules(everyone_first_turn=True, first_turn="one_tile", out_score=-10)
    game = position(["12-3", "1-2"], rules=rules, first_turns=[0, 1])
    game = apply(game, play(0, t("12-3"), 0))
    result = game.round.result
    assert (result.reason, result.outs, result.scores) == ("stalled", (0,), (-10, 3))


def test_the_round_ends_once_the_last_first_turn_is_taken():
    rules = Rules(everyone_first_turn=True, first_turn="one_tile")
    game = position(["12-3", "12-4 5-6", "12-1 6-6"], rules=rules, first_turns=[0, 1, 2])
    game = run(game, play(0, t("12-3"), 0), play(1, t("12-4"), 1))
    game = apply(game, play(2, t("12-1"), 2))  # the last first turn: seat 0 out, round over
    assert game.round.result.outs == (0,)
    assert game.round.result.scores == (0, 11, 12)

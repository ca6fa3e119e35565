"""The strategic bot's heuristics, each on a hand-made position.

Seat 0 is the bot and on turn; the engine is the 12-12 unless a test says otherwise. Each
heuristic is shown both ways where it can be: the position where it applies and a twin
where it does not, so a test fails if the bot merely happens to like one tile.
"""

from __future__ import annotations

from games.bots import StrategicBot, best_line, greedy
from games.engine import Event, Rules, apply, view_for
from games.engine.actions import DRAW, END_TURN, PLAY
from tests.engine.positions import position, tiles

OPPONENTS = ["1-1 2-2 3-3 4-4", "1-1 2-2 3-3 4-4", "1-1 2-2 3-3 4-4"]


def decide(game, seat=0):
    return StrategicBot()(view_for(game, seat))


def where(action):
    """The decision as (tile as written, train): easy to read in an assertion."""
    return f"{action.tile[1]}-{action.tile[0]}", action.train


def test_the_first_turn_lays_the_planners_best_line_tile_by_tile():
    hand = "12-3 3-5 5-5 5-8 8-1 12-7 7-2 9-10"
    game = position([hand, *OPPONENTS], first_turns=[0, 1, 2, 3])
    laid = []
    while game.round.turn == 0:
        action = decide(game)
        assert action.kind == PLAY and action.train == 0
        laid.append(action.tile)
        game = apply(game, action)
    assert laid == best_line(tiles(hand), 12) == list(tiles("12-3 3-5 5-5 5-8 8-1"))


def test_it_plays_a_double_only_with_a_cover_in_hand():
    # Own train ends on 5; the Mexican train on 9.
    without_cover = position(["5-5 9-1 11-10", *OPPONENTS], trains={0: "12-5", "public": "12-9"})
    assert where(decide(without_cover)) != ("5-5", 0)
    rules = Rules(double_plays_again=True)
    with_cover = position(
        ["5-5 5-6 9-1 11-10", *OPPONENTS], trains={0: "12-5", "public": "12-9"}, rules=rules
    )
    assert where(decide(with_cover)) == ("5-5", 0)


def test_it_covers_its_own_double_where_a_double_earns_another_play():
    rules = Rules(double_plays_again=True)
    game = position(
        ["5-5 5-6 9-1 11-10", *OPPONENTS], trains={0: "12-5", "public": "12-9"}, rules=rules
    )
    game = apply(game, decide(game))
    assert game.round.turn == 0  # the double earned another play
    assert where(decide(game)) == ("6-5", 0)


def test_in_the_endgame_it_dumps_its_heaviest_tile():
    # 11-10 extends its own train; 2-1 could go on the Mexican train.
    hands = ["11-10 2-1 3-4", *OPPONENTS]
    trains = {0: "12-11", "public": "12-2"}
    assert where(decide(position(hands, trains=trains))) == ("2-1", 4)  # orphans first
    hands[2] = "6-5"  # seat 2 is down to one tile
    assert where(decide(position(hands, trains=trains))) == ("11-10", 0)


def test_it_plays_on_its_own_train_first_when_marked():
    hands = ["11-10 10-9 2-1 3-4", *OPPONENTS]
    trains = {0: "12-11", "public": "12-2"}
    assert where(decide(position(hands, trains=trains))) == ("2-1", 4)
    assert where(decide(position(hands, trains=trains, marked=[0]))) == ("11-10", 0)


def test_it_keeps_a_spare_for_its_own_train():
    # 11-5 is its only tile for its own train (open on 5): the heaviest, and it would fit
    # the Mexican train (open on 11) too. Seat 1's train is marked and open on 2.
    game = position(
        ["11-5 2-1 3-9", *OPPONENTS],
        trains={0: "12-5", 1: "12-2", "public": "12-11"},
        marked=[1],
    )
    assert where(greedy(view_for(game, 0)))[0] == "11-5"
    assert where(decide(game)) == ("2-1", 1)


def test_it_opens_the_mexican_train_only_with_an_end_nobody_can_use():
    # 12-3 would open the Mexican train on 3; its own train (open on 5) has 5-6 6-7.
    hand = "5-6 6-7 12-3 1-9"
    game = position([hand, *OPPONENTS], trains={0: "12-5"})
    assert where(decide(game)) == ("6-5", 0)
    # Every other 3 is already on the table: nobody can follow a 3.
    threes = " ".join(f"3-{n}" for n in range(13) if n != 12)
    dead = position([hand, *OPPONENTS], trains={0: "12-5", 1: "12-0 0-3", 2: "12-4"})
    dead = dead._replace(round=_with_tiles_on_table(dead.round, tiles(threes)))
    assert where(decide(dead)) == ("12-3", 4)


def test_it_opens_the_mexican_train_when_everybody_else_drew_on_that_number():
    hand = "5-6 6-7 12-3 1-9"
    game = position([hand, *OPPONENTS], trains={0: "12-5"})
    drew = tuple(Event(seat, DRAW, ends=(3, 12)) for seat in (1, 2, 3))
    game = game._replace(round=game.round._replace(log=drew))
    assert where(decide(game)) == ("12-3", 4)


def _with_tiles_on_table(rnd, extra):
    """The round with ``extra`` laid on a train of their own: seen by everybody, and out of
    anybody's reach (a position need not be a reachable one)."""
    from games.engine import Branch, Train

    branch = Branch(tuple(extra), -1)
    return rnd._replace(trains=rnd.trains + (Train(owner=None, branches=(branch,)),))


def test_it_ends_the_turn_after_a_double_only_when_nobody_else_can_cover_it():
    # extra_play_optional: after 5-5 it may cover with 5-6 or end the turn.
    rules = Rules(double_plays_again=True, extra_play_optional=True)
    hands = ["5-5 5-6 9-1 11-10", *OPPONENTS]
    game = position(hands, trains={0: "12-5", "public": "12-9"}, rules=rules)
    game = apply(game, decide(game))
    assert game.round.turn == 0 and game.round.turn_state.extra_owed
    assert where(decide(game)) == ("6-5", 0)  # somebody else may hold a 5: cover it
    fives = " ".join(f"5-{n}" for n in range(13) if n not in (5, 6, 12))
    blocked = game._replace(round=_with_tiles_on_table(game.round, tiles(fives)))
    assert decide(blocked).kind == END_TURN  # the double blocks everybody else


def test_it_draws_instead_of_playing_only_when_that_beats_every_play():
    # optional_draw: its only play is 5-5 on the Mexican train, with no cover in hand.
    # Its own train is marked already. Every tile it has not seen carries a 5, so a drawn
    # tile is sure to play.
    rules = Rules(optional_draw=True)
    hands = ["5-5 9-1 11-10", *OPPONENTS]
    trains = {0: "12-7", "public": "12-5"}
    in_play = {(1, 9), (10, 11), (7, 12)}  # its hand and its own train

    def on_table_but(unseen):
        return " ".join(
            f"{a}-{b}"
            for a in range(13)
            for b in range(a, 13)
            if 5 not in (a, b) and (a, b) not in in_play | unseen
        )

    def decide_in(on_table):
        game = position(hands, rules=rules, trains=trains, marked=[0], boneyard="5-0")
        game = game._replace(round=_with_tiles_on_table(game.round, tiles(on_table)))
        assert {a.kind for a in view_for(game, 0).legal} == {PLAY, DRAW}
        return decide(game)

    assert decide_in(on_table_but(set())).kind == DRAW
    # With the five heaviest tiles unseen too, a drawn tile may be kept: its pips and a
    # tile more to get rid of.
    heavy = {(10, 10), (10, 12), (11, 11), (11, 12), (12, 12)}
    assert decide_in(on_table_but(heavy)).kind == PLAY

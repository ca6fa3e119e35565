"""What a seat infers about hidden tiles from its view."""

from __future__ import annotations

from games.bots.knowledge import Knowledge
from games.engine import Event, Rules, view_for
from games.engine.actions import DRAW, PASS, PLAY
from tests.engine.positions import position

RULES = Rules(highest_double=6)


def knowledge(game, seat=0) -> Knowledge:
    return Knowledge.from_view(view_for(game, seat))


def test_tiles_in_its_hand_and_on_the_table_are_not_unseen():
    game = position(["6-1 1-1", "2-3", "4-5"], rules=RULES, engine=6, trains={1: "6-2"})
    unseen = knowledge(game).unseen
    assert not unseen & {(1, 6), (1, 1), (2, 6), (6, 6)}
    assert (2, 3) in unseen and (4, 5) in unseen  # other hands are unseen, not known
    assert len(unseen) == 28 - 4


def test_a_seat_that_drew_lacks_the_numbers_then_on_offer_until_it_draws_again():
    game = position(["6-1", "2-3", "4-5"], rules=RULES, engine=6)
    log = (Event(1, DRAW, ends=(6, 2)), Event(1, PLAY, (0, 2), 1, 0), Event(2, PASS, ends=(4,)))
    game = game._replace(round=game.round._replace(log=log))
    known = knowledge(game)
    assert known.lacking[1] == {6, 2} and known.lacking[2] == {4}
    assert not known.may_hold(1, 2) and known.may_hold(1, 5) and not known.may_hold(2, 4)
    log += (Event(2, PASS, ends=(3,)), Event(1, DRAW, ends=(5,)))
    game = game._replace(round=game.round._replace(log=log))
    known = knowledge(game)
    assert known.lacking[2] == {3, 4}  # passing draws nothing: what it lacked, it lacks
    assert known.lacking[1] == {5}  # the new tile may carry a 6 or a 2


def test_a_number_with_no_unseen_tile_is_held_by_nobody():
    sixes = " ".join(f"6-{n}" for n in range(6))
    game = position([sixes, "2-3", "4-5"], rules=RULES, engine=6)
    known = knowledge(game)
    assert known.unseen_with(6) == 0
    assert not known.may_hold(1, 6) and not known.may_hold(2, 6)
    assert known.unseen_with(3) == 6  # seven tiles carry a 3, and it holds the 6-3


def test_the_guesses_from_first_turns_hold_for_the_strategic_bot():
    """A strategic seat lays its best line, so the end its line stopped on (or the engine,
    when it played elsewhere) is a number it lacks until it draws: never wrong against it."""
    from games.bots import make_bot
    from games.bots.knowledge import _line_ends
    from games.engine import apply, new_game

    guessed = 0
    for seed in range(6):
        game = new_game(Rules(), players=4, seed=seed)
        bot = make_bot("strategic")
        while game.round.result is None:
            view = view_for(game, game.round.turn)
            known = Knowledge.from_view(view, lines=True)
            for seat, hand in enumerate(game.round.hands):
                if seat == view.turn:
                    continue  # it may hold a tile it just drew and has yet to play
                lacking = known.lacking[seat]
                assert not any(a in lacking or b in lacking for a, b in hand), (seat, hand)
            guessed += len(_line_ends(view))
            game = apply(game, bot(view))
    assert guessed > 0

"""Bots see a SeatView and nothing else: hidden tiles cannot change what they do.

Two games that differ only in what seat s cannot see (the other hands and the boneyard,
shuffled among themselves) give seat s the same view, and every bot must then make the
same decision in both. A bot that peeked at a hand or the boneyard would fail this.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import LEVELS, POLICIES, make_bot
from games.engine import Rules, SeatView, apply, new_game, view_for
from games.engine.state import Game


def hidden_shuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with every tile seat ``seat`` cannot see dealt out again at random."""
    rnd = game.round
    others = [s for s in range(game.players) if s != seat]
    hidden = [t for s in others for t in rnd.hands[s]] + list(rnd.boneyard)
    rng.shuffle(hidden)
    hands = list(rnd.hands)
    for s in others:
        hands[s], hidden = tuple(hidden[: len(hands[s])]), hidden[len(hands[s]) :]
    return game._replace(round=rnd._replace(hands=tuple(hands), boneyard=tuple(hidden)))


# The policies: the expert's decision also depends on how many deals its clock allows
# (tests/bots/test_expert.py pins it for a number of deals).
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), level=st.sampled_from(POLICIES))
def test_a_bot_decides_from_its_view_alone(seed, steps, level):
    rng = random.Random(seed)
    rules = rng.choice([Rules(), Rules(variant="cuban"), Rules(double_plays_again=True)])
    game = new_game(rules, players=4, seed=seed)
    for _ in range(steps):  # play into the round with greedy moves
        if game.round.result is not None:
            break
        game = apply(game, make_bot("greedy")(view_for(game, game.round.turn)))
    if game.round.result is not None:
        return
    seat = game.round.turn
    twin = hidden_shuffled(game, seat, rng)
    view, twin_view = view_for(game, seat), view_for(twin, seat)
    assert view == twin_view  # the engine's side of the bargain
    assert make_bot(level, seed)(view) == make_bot(level, seed)(twin_view)


def test_a_bot_is_handed_a_seat_view_and_answers_with_one_of_its_legal_actions():
    game = new_game(Rules(), players=4, seed=3)
    view = view_for(game, game.round.turn)
    assert isinstance(view, SeatView)
    for level in LEVELS:
        assert make_bot(level, budget=0.05)(view) in view.legal

"""The round's card lays every hand down: the tiles each seat still held, adding up to the
points the card shows, by the engine's one scoring function."""

from __future__ import annotations

import random

import pytest

from games import screens
from games.engine import new_game, records, view_for
from games.engine.rules import BLANK_VALUES, DOUBLE_BLANK_VALUES, OUT_SCORES
from games.engine.tiles import name
from games.simulate import play_match, random_rules

# Every value of every scoring setting, each in matches whose other settings are random.
SCORING = [
    *({"double_blank_value": value} for value in DOUBLE_BLANK_VALUES),
    *({"out_score": value} for value in OUT_SCORES),
    *({"blank_value": value} for value in BLANK_VALUES),
    *({"double_penalty": value} for value in (0, 5, 50, 100)),
    *({"out_on_double": value} for value in (-50, 0, 25)),
]


def round_ends(fixed: dict, seed: int):
    """Each state of a random bots' match in which a round has just ended."""
    rng = random.Random(f"round-hands/{seed}")
    players = rng.randint(2, 5)
    rules = random_rules(rng, players, fixed)
    played = play_match(rules, ["random"] * players, seed, record=True)
    for game in records.replay(played.records):
        if game.round is not None and game.round.result is not None:
            yield game


@pytest.mark.parametrize("fixed", SCORING, ids=lambda f: "-".join(map(str, *f.items())))
def test_the_round_cards_hands_add_up_to_the_points_shown(fixed):
    ended = 0
    for seed in range(3):
        for game in round_ends(fixed, seed):
            result = game.round.result
            names = {seat: f"P{seat}" for seat in range(game.players)}
            for seat in [*range(game.players), None]:
                view = view_for(game, seat)
                rows = screens._results(game, view, names, game.is_over)
                by_name = {row["name"]: row for row in rows}
                for player in range(game.players):
                    row = by_name[names[player]]
                    hand = result.hands[player]
                    assert [tile["name"] for tile in row["held"]] == [name(t) for t in hand]
                    assert row["points"] == result.scores[player]
                    if player in result.outs:
                        assert row["held"] == []
                    else:
                        assert sum(tile["points"] for tile in row["held"]) == row["points"]
                    for tile in row["held"]:
                        assert tile["rest"] + tile["penalty"] == tile["points"]
                        double = tile["name"].split("-")[0] == tile["name"].split("-")[1]
                        assert tile["penalty"] == (game.rules.double_penalty if double else 0)
            ended += 1
    assert ended >= 3


def test_a_round_still_being_played_lays_no_hand_down():
    """A table closed in the middle of a round shows its totals, but nobody's tiles."""
    rules = random_rules(random.Random("closed"), 3, {"double_penalty": 10})

    game = new_game(rules, players=3, seed=4)
    view = view_for(game, 0)
    rows = screens._results(game, view, {0: "A", 1: "B", 2: "C"}, True)
    assert all(row["held"] is None for row in rows)

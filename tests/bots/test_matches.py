"""Bots play whole matches legally under every combination of settings."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import POLICIES
from games.simulate import play_match, random_rules
from tests.engine.strategies import fitting_players


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_every_bot_plays_legal_matches_under_random_rules(seed, data):
    players = data.draw(st.integers(2, 6))
    # Short matches keep this fast; the rounds setting has its own engine tests.
    rules = random_rules(random.Random(seed), players, {"rounds": 1})
    bots = data.draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    result = play_match(rules, bots, seed, first_seat=seed % players, check=True)
    assert result.violations == []
    assert len(result.round_scores) == 1
    assert result.winners


def test_random_rules_are_valid_and_fit_the_table():
    rng = random.Random(1)
    seen = set()
    for _ in range(300):
        players = rng.randint(2, 10)
        rules = random_rules(rng, players)
        assert players in fitting_players(rules)
        seen.add((rules.variant, rules.highest_double, rules.double_scope))
    assert len(seen) > 20  # a mix, not the same settings over and over


def test_fixed_settings_are_kept_in_a_random_mix():
    rules = random_rules(random.Random(2), 4, {"variant": "chicken_foot", "rounds": 2})
    assert rules.variant == "chicken_foot" and rules.rounds == 2

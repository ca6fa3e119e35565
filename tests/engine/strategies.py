"""Hypothesis strategies: every combination of settings, tables that fit, random games."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.engine import Rules, RulesError
from games.engine.rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS


@st.composite
def rules(draw, max_rounds: int = 2) -> Rules:
    """Any valid rules object; ``max_rounds`` keeps matches short enough to test by the
    thousand (the rounds setting itself is covered by its own scenario tests)."""
    top = draw(st.sampled_from([6, 9, 12, 15, 18]))
    variant = draw(st.sampled_from(VARIANTS))
    covered = draw(st.booleans())
    owed = covered and variant != "cuban"
    drawing, again, from_hand = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    return Rules(
        highest_double=top,
        rounds=draw(st.integers(1, min(max_rounds, top + 1))),
        hand_size=draw(st.one_of(st.none(), st.integers(1, 12))),
        public_trains=draw(st.integers(0, 3)),
        unstarted_trains_open=draw(st.booleans()),
        first_turn=draw(st.sampled_from(["line", "one_tile"])),
        draw_before_passing=drawing,
        doubles_must_be_covered=covered,
        double_scope=draw(st.sampled_from(["table", "own_train"])) if owed else "table",
        double_plays_again=again,
        engine_from_hand=from_hand,
        variant=variant,
        double_blank_value=draw(st.sampled_from([0, 50])),
        double_penalty=draw(st.sampled_from([0, 5, 50, 100])),
        out_score=draw(st.sampled_from([0, -10])),
        round_engines=draw(st.sampled_from(["to_blank", "from_highest"])),
        blank_value=draw(st.sampled_from([0, 25])),
        out_on_double=draw(st.sampled_from([0, -50, 25, 100])),
        tie_break=draw(st.sampled_from(["share", "rounds_out"])),
        own_train_first=draw(st.sampled_from(["off", "first_turn", "until_started"])),
        draw_on_first_turn=draw(st.booleans()),
        optional_draw=drawing and draw(st.booleans()),
        extra_play_optional=again and draw(st.booleans()),
        dead_doubles_free=draw(st.booleans()),
        engine_replacement=from_hand and draw(st.booleans()),
        everyone_first_turn=draw(st.booleans()),
        engine_hunt=draw(st.sampled_from(["in_turn", "together"])) if from_hand else "in_turn",
    )


def fitting_players(rules: Rules) -> list[int]:
    """The numbers of players whose hands the rules' set can deal."""
    fits = []
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            rules.hand_size_for(players)
        except RulesError:
            continue
        fits.append(players)
    return fits


@st.composite
def tables(draw, max_rounds: int = 2) -> tuple[Rules, int, int, random.Random]:
    """Rules, a number of players that fits them, a seed, and a random source for choices."""
    chosen = draw(rules(max_rounds))
    fitting = fitting_players(chosen)
    players = draw(st.sampled_from(fitting)) if fitting else None
    if players is None:  # an overridden hand too big for any table: take the default hand
        chosen = chosen.changed(hand_size=None)
        players = 2
    return chosen, players, draw(st.integers(0, 2**32)), draw(st.randoms(use_true_random=False))

"""The sentence above the sheet says something true at every stage of a round: a blank
cell is not a 0, so a half-entered round is counted, not led by the players still missing."""

import pytest

from games.engine.rules import Rules
from scoring import services
from scoring.rendering import standing

from .conftest import enter

pytestmark = pytest.mark.django_db


def said(match) -> str:
    return standing(services.compute_sheet(match))


def test_a_half_entered_first_round_says_how_many_counts_are_in(seed_match):
    assert said(seed_match) == "No scores yet: tap a cell to enter a count."
    enter(seed_match, 1, 0, 20)
    enter(seed_match, 1, 1, 23)
    assert said(seed_match) == "Round 1: 2 of 4 counts entered."


def test_the_lead_counts_only_rounds_every_player_has_entered(seed_match):
    for seat, pips in enumerate((20, 23, None, 13)):
        enter(seed_match, 1, seat, pips)
    assert said(seed_match) == "After 1 of 13 rounds: Cara leads on 0."
    enter(seed_match, 2, 2, 40)  # Cara's next count is in; the others' are not yet
    assert said(seed_match) == (
        "After 1 of 13 rounds: Cara leads on 0. Round 2: 1 of 4 counts entered."
    )


def test_a_tie_is_shared_and_the_last_round_names_the_winner(db):
    match = services.create_match(["Ana", "Ben", "Cy"], Rules(rounds=2), by="Ana")
    for seat, pips in enumerate((10, 10, 12)):
        enter(match, 1, seat, pips)
    assert said(match) == "After 1 of 2 rounds: Ana and Ben lead on 10."
    for seat, pips in enumerate((5, None, 1)):
        enter(match, 2, seat, pips)
    assert said(match) == "Ben wins on 10."

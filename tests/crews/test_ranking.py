"""The ratings in words: a place among the members rated ("2nd of 3") and how the latest
game night moved it, worked out from the stored figures; nobody's figure is part of it."""

import pytest

from crews.models import Rating
from crews.ranking import DOWN, NEW, STEADY, UP, ordinal, places

ANA, BEN, CY, ZED = 1, 2, 3, 4
NAMES = {ANA: "Ana", BEN: "Ben", CY: "Cy"}  # Zed is a guest: rated, but no line


def rated(player, mu, sigma=1.0, before=None):
    """A rating whose figure (mu less three sigma) is ``mu - 3``; ``before``: its mu before
    the latest night (sigma 1 then too), or None if not rated before it."""
    return Rating(
        player_id=player,
        mu=mu,
        sigma=sigma,
        matches=2,
        mu_before=before,
        sigma_before=None if before is None else 1.0,
    )


def words(lines):
    return [(line.name, line.place, line.direction, line.trend) for line in lines]


def test_places_best_first_with_the_trend_of_the_latest_night():
    lines = places(
        [rated(ANA, 20, before=30), rated(BEN, 25, before=22), rated(CY, 30, before=20)],
        NAMES,
    )
    assert words(lines) == [
        ("Cy", "1st of 3", UP, "up 2 places"),
        ("Ben", "2nd of 3", STEADY, "steady"),
        ("Ana", "3rd of 3", DOWN, "down 2 places"),
    ]


def test_someone_first_rated_on_the_latest_night_is_new_and_the_others_move_round_them():
    lines = places([rated(ANA, 20, before=30), rated(BEN, 25)], NAMES)
    assert words(lines) == [
        ("Ben", "1st of 2", NEW, "first rated"),
        ("Ana", "2nd of 2", DOWN, "down 1 place"),
    ]


def test_people_level_share_a_place_and_a_guest_has_no_line():
    lines = places([rated(ANA, 20), rated(BEN, 20), rated(CY, 10), rated(ZED, 40)], NAMES)
    assert [line.place for line in lines] == ["joint 1st of 3", "joint 1st of 3", "3rd of 3"]


@pytest.mark.parametrize(
    ("number", "said"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th")]
    + [(21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th")],
)
def test_ordinals_read_as_said(number, said):
    assert ordinal(number) == said

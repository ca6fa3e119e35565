"""Merging a person entered twice: everything they did moves to the person who stays and
nothing is lost; a merge that cannot be right (two people who sat at the same match, a bot,
one person twice) is refused and changes nothing."""

from __future__ import annotations

import pytest

from common.names import key
from crews import services as crews
from crews.merging import merge_people, plan
from crews.models import Crew, Member, Rating, Season
from crews.ratings import ratings, season_matches
from crews.results import results
from scoring import services as sheets
from scoring.entries import Refused
from scoring.models import Change, Entry, Match, Player, Seat

from .played import TWO_ROUNDS, crew_of, crew_sheet, play

pytestmark = pytest.mark.django_db

THREE = [[None, 10, 20], [5, None, 7]]


def counts() -> dict[str, int]:
    return {
        "seats": Seat.objects.count(),
        "entries": Entry.objects.count(),
        "changes": Change.objects.count(),
        "matches": Match.objects.count(),
        "members": Member.objects.count(),
        "players": Player.objects.count(),
    }


def snapshot() -> dict[str, object]:
    """Everything a refused merge must leave as it was."""
    return {
        **counts(),
        "seats by player": sorted(Seat.objects.values_list("pk", "player_id")),
        "members": sorted(Member.objects.values_list("pk", "player_id", "device", "name_key")),
        "ratings": sorted(Rating.objects.values_list("season_id", "player_id", "mu", "matches")),
    }


@pytest.fixture
def twice():
    """Ana, and Anna: the same friend, who joined the crew again from a new phone and was
    seated under that name; Anna is also in a second crew and at a sheet kept without one."""
    crew, members = crew_of("Ana", "Ben", "Cara")
    anna, _ = crews.join(crew, "Anna", "phone-Anna")
    crew_sheet(crew, ["Ana", "Ben", "Cara"], THREE)
    crew_sheet(crew, ["Anna", "Ben", "Cara"], [[4, None, 9], [None, 3, 8]])
    other = Crew.objects.create(name="Tuesday")
    Season.objects.create(crew=other, number=1)
    Member.objects.create(crew=other, player=anna.player, name_key=key("Anna"))
    outside = play(
        sheets.create_match(["Anna", "Dev"], TWO_ROUNDS, by="Dev", known=[anna.player]),
        [[None, 4], [6, None]],
    )
    return crew, other, members["Ana"].player, anna.player, outside


def test_a_merge_moves_every_seat_membership_and_rating_and_loses_nothing(twice):
    crew, other, ana, anna, outside = twice
    before = counts()
    anna_seats = list(Seat.objects.filter(player=anna).values_list("pk", flat=True))
    anna_entries = list(Entry.objects.filter(seat__player=anna).values_list("pk", flat=True))
    ana_matches = set(ana.matches.values_list("pk", flat=True))
    anna_matches = set(anna.matches.values_list("pk", flat=True))
    assert len(anna_seats) == 2 and len(anna_entries) == 4

    report = merge_people(ana, anna, by="staff")

    assert (report.seats, report.memberships_moved, report.memberships_merged) == (2, 1, 1)
    assert report.seasons_rerated == 1
    assert "Anna" in report.message and "Ana" in report.message and "staff" in report.message
    after = counts()
    assert after == {**before, "members": before["members"] - 1, "players": before["players"] - 1}
    assert not Player.objects.filter(pk=anna.pk).exists()
    assert set(Seat.objects.filter(pk__in=anna_seats).values_list("player", flat=True)) == {ana.pk}
    assert Entry.objects.filter(pk__in=anna_entries, seat__player=ana).count() == 4
    assert set(ana.matches.values_list("pk", flat=True)) == ana_matches | anna_matches
    assert outside.seats.get(position=0).player == ana
    # One membership in the crew both were in, and Anna's other crew is Ana's now.
    assert list(crew.members.filter(player=ana).values_list("device", flat=True)) == ["phone-Ana"]
    moved = other.members.get()
    assert (moved.player, moved.name_key) == (ana, key("Ana"))


def test_the_ratings_of_the_seasons_concerned_are_worked_out_again(twice):
    crew, _, ana, anna, _ = twice
    season = crew.current_season()
    assert Rating.objects.get(season=season, player=ana).matches == 1
    assert Rating.objects.get(season=season, player=anna).matches == 1

    merge_people(ana, anna, by="staff")

    stored = {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.filter(season=season)}
    assert stored == ratings(results(season_matches(season)))
    assert stored[ana.pk][2] == 2
    assert anna.pk not in stored


def test_a_phone_that_was_the_merged_member_is_the_one_who_stays(twice):
    crew, _, ana, anna, _ = twice
    crews.leave(crew, "phone-Ana")  # Ana's old phone is gone; Anna's is the one she uses

    merge_people(ana, anna, by="staff")

    membership = crew.members.get(player=ana)
    assert (membership.device, membership.left_at) == ("phone-Anna", None)
    assert crews.member_of(crew, "phone-Anna") == membership


def test_two_people_who_sat_at_the_same_match_are_refused_and_nothing_changes(twice):
    crew, _, ana, _, _ = twice
    ben = crew.members.get(player__name="Ben").player
    before = snapshot()

    with pytest.raises(Refused, match="sat at the same match"):
        merge_people(ana, ben, by="staff")

    assert snapshot() == before


def test_a_person_is_not_merged_with_themselves_nor_with_a_bot(twice):
    _, _, ana, _, _ = twice
    online = sheets.create_match(
        ["Dev", "Greedy bot 1"], TWO_ROUNDS, kind=Match.Kind.ONLINE, bots=["", "greedy"]
    )
    bot = online.seats.get(position=1).player
    before = snapshot()

    with pytest.raises(Refused, match="one person already"):
        merge_people(ana, ana, by="staff")
    with pytest.raises(Refused, match="bot"):
        merge_people(ana, bot, by="staff")
    with pytest.raises(Refused, match="bot"):
        merge_people(bot, ana, by="staff")

    assert snapshot() == before


def test_a_crew_with_another_member_of_that_name_is_refused(twice):
    _, other, ana, anna, _ = twice
    namesake = Player.objects.create(name="ANA")
    Member.objects.create(crew=other, player=namesake, name_key=key("ANA"), colour="#d62728")
    before = snapshot()

    with pytest.raises(Refused, match="another member named ANA"):
        plan(ana, anna)
    with pytest.raises(Refused, match="another member named ANA"):
        merge_people(ana, anna, by="staff")

    assert snapshot() == before

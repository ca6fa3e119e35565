"""Crews through their services: making one, joining from devices, claiming a member who is
on another device, leaving, seasons, and matches counted for the crew (opened from it, or
filed afterwards), with the refusals that change nothing."""

import pytest

from crews import services
from crews.models import CrewMatch, Member, Rating
from games import services as tables
from games.engine.rules import Rules
from games.models import Table
from scoring import services as sheets
from scoring.entries import EntryValue, Refused
from scoring.models import Match, Player, Seat

pytestmark = pytest.mark.django_db

ONE_ROUND = Rules(rounds=1)


@pytest.fixture
def crew():
    crew, _ = services.create_crew("Thursday dominoes", "Ana", "device-ana")
    services.join(crew, "Ben", "device-ben")
    services.join(crew, "Cara", "device-cara")
    return crew


def member(crew, name):
    return crew.members.get(player__name=name)


def test_a_crew_starts_with_its_first_season_and_its_founder():
    crew, ana = services.create_crew("  Thursday   dominoes ", "Ana", "device-ana")
    assert crew.name == "Thursday dominoes"
    assert crew.current_season().number == 1
    assert ana.device == "device-ana" and ana.name == "Ana"
    assert services.member_of(crew, "device-ana") == ana


def test_members_get_different_colours_and_may_choose_their_own(crew):
    colours = [m.colour for m in crew.members.all()]
    assert len(set(colours)) == 3
    dev, _ = services.join(crew, "Dev", "device-dev", colour="#AABBCC", emoji="🦊")
    assert (dev.colour, dev.emoji) == ("#aabbcc", "🦊")


@pytest.mark.parametrize(
    ("colour", "emoji"), [("red", ""), ("#12345", ""), ("", "abc"), ("", "🦊" * 9)]
)
def test_bad_looks_are_refused_and_nobody_joins(crew, colour, emoji):
    with pytest.raises(Refused):
        services.join(crew, "Dev", "device-dev", colour=colour, emoji=emoji)
    assert not crew.members.filter(player__name="Dev").exists()


def test_a_lookalike_name_is_the_same_member_not_a_second_one(crew):
    # "АNA" with a Cyrillic А, and a zero-width space: the same name as Ana's.
    for typed in ("ANA", "\u0410na", "A\u200bna"):
        found, status = services.join(crew, typed, "device-stranger")
        assert found == member(crew, "Ana") and status == services.WAITING
    assert crew.members.count() == 3


def test_claiming_a_member_on_another_device_waits_for_a_member_present(crew):
    ana = member(crew, "Ana")
    claimed, status = services.join(crew, "Ana", "new-phone")
    assert status == services.WAITING and claimed.claimed_by == "new-phone"
    assert services.member_of(crew, "new-phone") is None
    with pytest.raises(Refused, match="Only a member"):  # the asking phone is nobody yet
        services.answer_claim(crew, ana.pk, "new-phone", approve=True)
    services.answer_claim(crew, ana.pk, "device-ben", approve=True)
    ana.refresh_from_db()
    assert (ana.device, ana.claimed_by) == ("new-phone", "")
    assert services.member_of(crew, "device-ana") is None


def test_a_refused_claim_leaves_the_member_where_it_was(crew):
    ana = member(crew, "Ana")
    services.join(crew, "Ana", "new-phone")
    services.answer_claim(crew, ana.pk, "device-ana", approve=False)
    ana.refresh_from_db()
    assert (ana.device, ana.claimed_by) == ("device-ana", "")
    with pytest.raises(Refused, match="Nobody is asking"):
        services.answer_claim(crew, ana.pk, "device-ben", approve=True)


def test_the_same_device_joining_again_is_simply_back(crew):
    again, status = services.join(crew, "ben", "device-ben")
    assert again == member(crew, "Ben") and status == services.JOINED


def test_a_member_who_leaves_keeps_their_results_under_their_name(crew):
    match = services.open_sheet(crew, ["Ana", "Ben"], ONE_ROUND, by="Ana")
    ben = services.leave(crew, "device-ben")
    assert ben.left_at is not None and services.member_of(crew, "device-ben") is None
    assert match.seats.get(position=1).player == ben.player
    assert Member.objects.filter(pk=ben.pk).exists()
    back, status = services.join(crew, "Ben", "device-ben")
    assert back == ben and status == services.JOINED and back.left_at is None


def test_a_sheet_for_the_crew_seats_its_members_and_guests(crew):
    match = services.open_sheet(crew, ["Cara", "Eve", "ana"], ONE_ROUND, by="Cara")
    seats = list(match.seats.select_related("player"))
    assert seats[0].player == member(crew, "Cara").player
    assert seats[2].player == member(crew, "Ana").player
    assert not Member.objects.filter(player=seats[1].player).exists()  # Eve, a guest
    assert CrewMatch.objects.get(match=match).season == crew.current_season()


def test_a_new_season_takes_the_next_matches_and_leaves_the_old_ones(crew):
    first = services.open_sheet(crew, ["Ana", "Ben"], ONE_ROUND, by="Ana")
    season = services.new_season(crew, "Spring")
    second = services.open_sheet(crew, ["Ana", "Ben"], ONE_ROUND, by="Ana")
    assert (season.number, str(season)) == (2, "Spring")
    assert CrewMatch.objects.get(match=first).season.number == 1
    assert CrewMatch.objects.get(match=second).season == season


def finish(match, counts):
    for seat, count in enumerate(counts):
        value = EntryValue.out() if count is None else EntryValue.count(count)
        sheets.record_entry(match, 1, seat, value, base_version=0, client_id=None, by="Ana")


def test_a_match_played_without_the_crew_is_filed_by_mapping_seats(
    crew, django_capture_on_commit_callbacks
):
    match = sheets.create_match(["Anita", "B.", "Zoe"], ONE_ROUND, by="Anita")
    with django_capture_on_commit_callbacks(execute=True):
        finish(match, [None, 12, 30])
    guests = [s.player for s in match.seats.all()]
    ana, ben = member(crew, "Ana"), member(crew, "Ben")
    filing = services.file_match(crew, match, {0: ana.pk, 1: ben.pk}, by="Ana")
    seats = {s.position: s.player for s in match.seats.all()}
    assert (seats[0], seats[1], seats[2]) == (ana.player, ben.player, guests[2])
    assert filing.season == crew.current_season()
    assert set(Rating.objects.filter(season=filing.season).values_list("player", flat=True)) == {
        ana.player_id,
        ben.player_id,
        guests[2].pk,
    }
    assert all(Player.objects.filter(pk=p.pk).exists() for p in guests)  # nothing deleted
    with pytest.raises(Refused, match="filed already"):
        services.file_match(crew, match, {}, by="Ana")


@pytest.mark.parametrize(
    ("mapping", "reason"),
    [
        ({0: "Ana", 1: "Ana"}, "named twice"),
        ({5: "Ana"}, "seats of this match"),
    ],
)
def test_filing_refusals_change_nothing(crew, mapping, reason):
    match = sheets.create_match(["X", "Y"], ONE_ROUND, by="X")
    before = list(Seat.objects.filter(match=match).values_list("player", flat=True))
    with pytest.raises(Refused, match=reason):
        services.file_match(
            crew, match, {p: member(crew, n).pk for p, n in mapping.items()}, by="Ana"
        )
    assert list(Seat.objects.filter(match=match).values_list("player", flat=True)) == before
    assert not CrewMatch.objects.filter(match=match).exists()


def test_a_bots_seat_is_never_filed_as_a_members(crew):
    match = sheets.create_match(
        ["X", "Greedy bot"], ONE_ROUND, kind=Match.Kind.ONLINE, bots=["", "greedy"]
    )
    bot = match.seats.get(position=1).player
    with pytest.raises(Refused, match="was a bot's"):
        services.file_match(crew, match, {1: member(crew, "Ana").pk}, by="Ana")
    assert match.seats.get(position=1).player == bot
    assert not CrewMatch.objects.filter(match=match).exists()


def test_a_member_already_at_the_match_cannot_take_a_second_seat(crew):
    match = services.open_sheet(crew, ["Ana", "Guest"], ONE_ROUND, by="Ana")
    CrewMatch.objects.filter(match=match).delete()
    with pytest.raises(Refused, match="another seat"):
        services.file_match(crew, match, {1: member(crew, "Ana").pk}, by="Ana")


def test_an_online_table_for_the_crew_counts_for_it_with_its_bot_apart(crew):
    table, host = tables.create_table(rules=ONE_ROUND, seat_count=3, host_name="Ana", crew=crew)
    tables.join(table.code, name="Ben")
    tables.add_bot(table.code, host_token=table.host_token, level="greedy")
    tables.start(table.code, host_token=table.host_token)
    match = Table.objects.get(pk=table.pk).match
    assert match.kind == Match.Kind.ONLINE
    assert CrewMatch.objects.get(match=match).crew == crew
    seats = list(match.seats.select_related("player"))
    assert [s.player for s in seats[:2]] == [member(crew, "Ana").player, member(crew, "Ben").player]
    assert (seats[2].bot, Member.objects.filter(player=seats[2].player).exists()) == (
        "greedy",
        False,
    )


def test_a_member_adds_someone_without_a_phone_who_claims_the_name_later(crew):
    """Gran has no phone: Ben adds her, she counts at once in a free colour, and the first
    device that picks her name on the crew's link is her, with nobody's approval (no device
    was her). A second device picking her afterwards has to be approved, as for anyone."""
    gran = services.add_member(crew, name=" Gran ", by_device="device-ben")
    assert (gran.name, gran.device, gran.active) == ("Gran", "", True)
    assert gran.colour not in {m.colour for m in crew.members.exclude(pk=gran.pk)}
    match = services.open_sheet(crew, ["Ben", "gran"], ONE_ROUND, by="Ben")
    assert match.seats.get(position=1).player == gran.player
    claimed, status = services.join(crew, "Gran", "grans-new-phone")
    assert (claimed, status) == (gran, services.JOINED)
    assert services.member_of(crew, "grans-new-phone") == gran
    _, status = services.join(crew, "Gran", "someone-else")
    assert status == services.WAITING


@pytest.mark.parametrize(
    ("name", "device", "reason"),
    [
        ("Gran", "", "Only a member"),
        ("Gran", "a-stranger", "Only a member"),
        ("BEN", "device-ana", "Ben is in the crew already"),
        ("\u200b", "device-ana", "letters or digits"),
    ],
)
def test_adding_someone_is_refused_with_the_reason_and_changes_nothing(crew, name, device, reason):
    with pytest.raises(Refused, match=reason):
        services.add_member(crew, name=name, by_device=device)
    assert sorted(m.name for m in crew.members.all()) == ["Ana", "Ben", "Cara"]


def test_adding_a_member_who_left_brings_them_back(crew):
    ben = services.leave(crew, "device-ben")
    back = services.add_member(crew, name="Ben", by_device="device-ana")
    assert back == ben and back.active and back.device == ""
    assert crew.members.count() == 3

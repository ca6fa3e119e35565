"""The crews' staff pages, and what crews add to the matches' and players' pages: they load
for a superuser and show what they say; a crew's delete page lists what goes with it and
the matches stay; the players' merge action asks first, then merges and logs it."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.contrib.messages import get_messages
from django.urls import reverse

from crews.models import Crew, CrewMatch, Member, Rating, Season
from scoring.models import Entry, Match, Player, Seat

from .played import crew_of, crew_sheet, sheet

pytestmark = pytest.mark.django_db

PLAYERS = reverse("admin:scoring_player_changelist")
MATCHES = reverse("admin:scoring_match_changelist")


@pytest.fixture
def friday():
    """A crew of three with one finished sheet filed to it, and a sheet kept without it."""
    crew, members = crew_of("Ana", "Ben", "Cara")
    filed = crew_sheet(crew, ["Ana", "Ben", "Cara"], [[None, 10, 20], [5, None, 7]])
    loose = sheet(["Dora", "Eli"], [[None, 4], [6, None]])
    return crew, members, filed, loose


def listed(admin_client, url: str) -> list:
    response = admin_client.get(url)
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# -- crews -----------------------------------------------------------------------------------


def test_the_crew_list_and_page_show_its_members_and_seasons(admin_client, friday):
    crew, members, _, _ = friday
    assert listed(admin_client, reverse("admin:crews_crew_changelist")) == [crew]
    page = admin_client.get(reverse("admin:crews_crew_change", args=[crew.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for name in members:
        assert name in html
    assert "Season 1" in html
    assert crew.code in html  # the crew page's link, or its code before there is one


@pytest.mark.parametrize(
    "model", ["member", "season", "crewmatch", "rating"], ids=lambda m: f"{m} list"
)
def test_the_lists_of_the_crews_rows_load(admin_client, friday, model):
    rows = listed(admin_client, reverse(f"admin:crews_{model}_changelist"))
    assert rows


def test_crew_matches_are_filtered_by_crew_and_season(admin_client, friday):
    crew, _, filed, _ = friday
    other, _ = crew_of("Zed", "Yan")
    crew_sheet(other, ["Zed", "Yan"], [[None, 4], [6, None]])
    url = reverse("admin:crews_crewmatch_changelist")
    assert [f.match for f in listed(admin_client, f"{url}?crew__id__exact={crew.pk}")] == [filed]
    season = crew.current_season()
    assert [f.match for f in listed(admin_client, f"{url}?season__id__exact={season.pk}")] == [
        filed
    ]


def test_ratings_are_read_only(admin_client, friday):
    rating = Rating.objects.first()
    page = admin_client.get(reverse("admin:crews_rating_change", args=[rating.pk]))
    assert page.status_code == 200
    assert 'name="mu"' not in page.content.decode()
    assert admin_client.get(reverse("admin:crews_rating_add")).status_code == 403


def test_the_delete_page_lists_what_goes_and_deleting_keeps_the_matches(admin_client, friday):
    crew, _, filed, _ = friday
    url = reverse("admin:crews_crew_delete", args=[crew.pk])
    html = admin_client.get(url).content.decode()
    rows = [
        ("Season", crew.current_season()),
        ("Crew match", CrewMatch.objects.get(match=filed)),
        ("Member", crew.members.get(player__name="Ana")),
        *(("Rating", rating) for rating in Rating.objects.all()),
    ]
    assert len(rows) == 6
    for name, row in rows:
        link = reverse(f"admin:crews_{row._meta.model_name}_change", args=[row.pk])
        assert f'{name}: <a href="{link}">' in html
    assert "Match: " not in html and "protected" not in html
    matches, seats, entries = Match.objects.count(), Seat.objects.count(), Entry.objects.count()
    players = Player.objects.count()

    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Crew.objects.exists()
    for model in (CrewMatch, Season, Member, Rating):
        assert not model.objects.exists()
    assert (Match.objects.count(), Seat.objects.count(), Entry.objects.count()) == (
        matches,
        seats,
        entries,
    )
    assert Player.objects.count() == players
    assert Match.objects.filter(pk=filed.pk).exists()


def test_deleting_a_filing_rerates_its_season(admin_client, friday):
    crew, _, filed, _ = friday
    filing = CrewMatch.objects.get(match=filed)
    assert Rating.objects.filter(season=filing.season).exists()
    response = admin_client.post(
        reverse("admin:crews_crewmatch_delete", args=[filing.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Rating.objects.filter(season=filing.season).exists()
    assert Match.objects.filter(pk=filed.pk).exists()


# -- matches and players ---------------------------------------------------------------------


def test_the_match_list_is_filtered_by_crew_and_by_person(admin_client, friday):
    crew, members, filed, loose = friday
    assert set(listed(admin_client, MATCHES)) == {filed, loose}
    assert listed(admin_client, f"{MATCHES}?crew={crew.pk}") == [filed]
    assert listed(admin_client, f"{MATCHES}?crew=none") == [loose]
    dora = loose.seats.get(position=0).player
    assert listed(admin_client, f"{MATCHES}?person={dora.pk}") == [loose]
    assert listed(admin_client, f"{MATCHES}?person={members['Ben'].player.pk}") == [filed]
    html = admin_client.get(f"{MATCHES}?person={dora.pk}").content.decode()
    assert f"Dora (#{dora.pk})" in html  # the filter names who it shows
    assert listed(admin_client, f"{MATCHES}?person=nobody") == []


def test_a_persons_page_lists_their_matches_and_statistics(admin_client, friday):
    _, members, filed, loose = friday
    ana = members["Ana"].player
    page = admin_client.get(reverse("admin:scoring_player_change", args=[ana.pk]))
    assert page.status_code == 200
    html = re.sub(r">\s+<", "><", page.content.decode())
    assert reverse("admin:scoring_match_change", args=[filed.pk]) in html
    assert reverse("admin:scoring_match_change", args=[loose.pk]) not in html
    assert f"{MATCHES}?person={ana.pk}" in html
    # Ana went out in round 1 and counted 5 in round 2: 5 in all, fewest of the three.
    assert "<td>1</td><td>1</td><td>2</td><td>2.5</td><td>0</td><td>5</td>" in html


def test_the_player_list_counts_matches_and_links_them(admin_client, friday):
    _, members, _, _ = friday
    html = admin_client.get(f"{PLAYERS}?q=Ben").content.decode()
    assert f'<a href="{MATCHES}?person={members["Ben"].player.pk}">1</a>' in html


# -- the merge action ------------------------------------------------------------------------


def merge_post(admin_client, *players: Player, **extra: str):
    data = {"action": "merge_people_action", ACTION_CHECKBOX_NAME: [p.pk for p in players]}
    return admin_client.post(PLAYERS, {**data, **extra})


def test_the_merge_asks_first_then_merges_and_logs_it(admin_client, admin_user, friday):
    crew, members, filed, loose = friday
    ana = members["Ana"].player
    dora = loose.seats.get(position=0).player

    asked = merge_post(admin_client, ana, dora)

    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Who stays?" in html
    assert f"Keep <strong>Ana</strong> (#{ana.pk}) and delete Dora (#{dora.pk})" in html
    assert "1 seat of Dora moves to Ana" in html
    assert Player.objects.filter(pk=dora.pk).exists()  # nothing done before the answer

    done = merge_post(admin_client, ana, dora, post="yes", keep=str(ana.pk))

    assert done.status_code == 302
    assert not Player.objects.filter(pk=dora.pk).exists()
    assert set(ana.matches.all()) == {filed, loose}
    change = LogEntry.objects.get(action_flag=CHANGE, object_id=str(ana.pk))
    assert change.user == admin_user
    assert change.get_change_message().startswith(f"Merged Dora (#{dora.pk}) into Ana")
    assert "1 seat moved" in change.get_change_message()
    assert LogEntry.objects.filter(action_flag=DELETION, object_id=str(dora.pk)).exists()
    assert any("Merged Dora" in m for m in said(done))


def test_a_merge_of_people_at_the_same_match_is_refused_on_the_list(admin_client, friday):
    _, members, _, _ = friday
    ana, ben = members["Ana"].player, members["Ben"].player

    response = merge_post(admin_client, ana, ben)

    assert response.status_code == 302
    assert any("sat at the same match" in m for m in said(response))
    assert Player.objects.filter(pk__in=[ana.pk, ben.pk]).count() == 2
    assert not LogEntry.objects.exists()


def test_the_merge_takes_exactly_two_people(admin_client, friday):
    _, members, _, _ = friday
    response = merge_post(admin_client, *(m.player for m in members.values()))
    assert response.status_code == 302
    assert "Select exactly two people to merge them." in said(response)
    assert Player.objects.filter(pk__in=[m.player.pk for m in members.values()]).count() == 3

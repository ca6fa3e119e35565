"""The crew's pages through Django's test client: making a crew, joining it, the crew page
for a member (and the join page for anyone else), a sheet and a table for the crew, filing a
match afterwards, the export; a device that is not a member reaches nothing of the crew."""

import re
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from crews import services
from crews.models import Crew, CrewMatch
from crews.page import crew_context
from crews.ratings import recompute
from games.engine.rules import Rules
from games.forms import TableForm
from games.models import Table
from scoring import services as sheets
from scoring.entries import EntryValue
from scoring.forms import MatchForm
from scoring.models import Match

pytestmark = pytest.mark.django_db


def filled(initial: dict) -> dict:
    """A form's initial values as a browser posts them: unticked boxes are left out."""
    return {
        k: ("on" if v is True else v)
        for k, v in initial.items()
        if v is not False and v is not None
    }


def device_of(client) -> str:
    session = client.session
    session["device"] = session.get("device") or f"device-{id(client)}"
    session.save()
    return session["device"]


@pytest.fixture
def ana(client):
    return client


@pytest.fixture
def crew(ana):
    crew, _ = services.create_crew("Thursday dominoes", "Ana", device_of(ana))
    return crew


def test_making_a_crew_makes_its_founder_a_member_of_it(client):
    response = client.post(
        reverse("crews:new"), {"name": "Thursday dominoes", "founder": "Ana"}, follow=True
    )
    crew = Crew.objects.get()
    assert response.redirect_chain[-1][0] == reverse("crews:crew", args=[crew.code])
    assert "You are" in response.content.decode() and crew.members.get().name == "Ana"
    assert "No finished game night yet" in response.content.decode()  # words, not a chart
    assert "<svg" not in response.content.decode().split("Game nights")[1].split("</section>")[0]


def test_a_device_that_is_not_a_member_is_asked_who_it_is(crew, django_user_model, client):
    stranger = client.__class__()
    page = stranger.get(reverse("crews:crew", args=[crew.code])).content.decode()
    assert "Who are you?" in page and "Ana" in page and "Standings" not in page
    for name in ("crews:export-csv", "games:crew-json", "crews:new-sheet", "crews:file"):
        assert stranger.get(reverse(name, args=[crew.code])).status_code == 404
    assert stranger.get(reverse("games:new") + f"?crew={crew.code}").status_code == 404


def test_joining_as_a_new_member_and_picking_a_member_already_taken(crew, client):
    ben = client.__class__()
    ben.post(reverse("crews:join", args=[crew.code]), {"name": "Ben", "colour": "#123456"})
    assert crew.members.get(player__name="Ben").colour == "#123456"
    assert "You are" in ben.get(reverse("crews:crew", args=[crew.code])).content.decode()
    thief = client.__class__()
    ana = crew.members.get(player__name="Ana")
    page = thief.post(reverse("crews:join", args=[crew.code]), {"member": ana.pk})
    assert "Ask somebody in the crew to approve" in page.content.decode()
    ben_page = ben.get(reverse("crews:crew", args=[crew.code])).content.decode()
    assert "Another device says it is <strong>Ana</strong>" in ben_page
    assert "Let it be Ana</button>" in ben_page
    ana_page = client.get(reverse("crews:crew", args=[crew.code])).content.decode()
    assert "makes this phone nobody in the crew" in ana_page  # Ana's own phone is told
    assert "Let it be Ana there, not here</button>" in ana_page


def test_friends_joining_together_from_the_same_offer_get_different_colours(crew, client):
    """The join page offers the first free colour; two phones that drew it before either
    joined, and left it as it was, are drawn apart. A colour picked is kept as picked."""
    ben, cara, dan = client.__class__(), client.__class__(), client.__class__()
    page, join = reverse("crews:crew", args=[crew.code]), reverse("crews:join", args=[crew.code])
    offered = re.compile(r'name="offered" value="([^"]+)"')
    offers = [offered.search(phone.get(page).text)[1] for phone in (ben, cara)]
    assert offers[0] == offers[1] == services.free_colour(crew)
    for phone, name, offer in ((ben, "Ben", offers[0]), (cara, "Cara", offers[1])):
        phone.post(join, {"name": name, "colour": offer, "offered": offer})
    colours = {m.name: m.colour for m in crew.members.all()}
    assert len(set(colours.values())) == 3
    dan.post(join, {"name": "Dan", "colour": colours["Ben"], "offered": "#123456"})
    assert crew.members.get(player__name="Dan").colour == colours["Ben"]


def test_a_bad_new_member_is_refused_with_the_reason(crew, client):
    other = client.__class__()
    response = other.post(reverse("crews:join", args=[crew.code]), {"name": "\u200b"})
    assert response.status_code == 400
    assert "letters or digits" in response.content.decode()
    assert crew.members.count() == 1


def test_a_claim_pushed_to_an_open_crew_page_is_answered_with_the_pages_token(crew, client):
    """The socket draws the claims without a request, so its copy has no token field: the
    buttons post through htmx, with the CSRF header the page's body gives every request."""
    ben = Client(enforce_csrf_checks=True)
    ben.post(reverse("crews:join", args=[crew.code]), {"name": "Ben"})  # no token: refused
    assert crew.members.count() == 1
    services.join(crew, "Ben", device_of(ben))
    page = ben.get(reverse("crews:crew", args=[crew.code])).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)[1]
    thief = client.__class__()
    thief.post(reverse("crews:join", args=[crew.code]), {"member": ana_of(crew).pk})
    ben_member = crew.members.get(player__name="Ben")
    pushed = render_to_string(
        "crews/partials/live.html", crew_context(crew, crew.current_season(), ben_member)
    )
    assert "Let it be Ana" in pushed and "csrfmiddlewaretoken" not in pushed
    answer = reverse("crews:answer-claim", args=[crew.code, ana_of(crew).pk])
    assert f'hx-post="{answer}"' in pushed
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_X_CSRFTOKEN": token}
    response = ben.post(answer, {"answer": "approve"}, **htmx)
    assert response.status_code == 204
    assert ana_of(crew).device == device_of(thief)
    again = ben.post(answer, {"answer": "refuse"}, **htmx)  # said beside the buttons
    assert again.status_code == 200
    assert again.content.decode() == "Nobody is asking to be that member now."
    assert ana_of(crew).device == device_of(thief)


def ana_of(crew: Crew):
    return crew.members.get(player__name="Ana")


def test_a_sheet_for_the_crew_from_its_page(crew, ana):
    form = ana.get(reverse("crews:new-sheet", args=[crew.code])).content.decode()
    assert "New score sheet for Thursday dominoes" in form and 'value="Ana"' in form
    data = {**filled(MatchForm.initial_for("standard", 12)), "player_1": "Ana", "player_2": "Ben"}
    response = ana.post(reverse("crews:new-sheet", args=[crew.code]), data)
    match = Match.objects.get()
    assert response.status_code == 302 and CrewMatch.objects.get(match=match).crew == crew


def test_a_member_opens_the_crews_sheet_in_play_as_their_own_seat(crew, ana):
    """The crew page links a sheet being played to where counts are entered, and the crew
    knows who the device is: Ben's phone opens it as Ben's seat, with no question; a member
    without a seat there gets the sheet's own question; a finished sheet links read-only."""
    ben = ana.__class__()
    services.join(crew, "Ben", device_of(ben))
    cara = ana.__class__()
    services.join(crew, "Cara", device_of(cara))
    sheet = filled(MatchForm.initial_for("standard", 12))
    ana.post(
        reverse("crews:new-sheet", args=[crew.code]),
        {**sheet, "player_1": "Ana", "player_2": "Ben", "rounds": "1"},
    )
    match = Match.objects.get()
    link = reverse("crews:open-sheet", args=[crew.code, match.code])
    assert link in ben.get(reverse("crews:crew", args=[crew.code])).text
    page = ben.get(link, follow=True).text
    assert "You are <strong>Ben</strong>" in page and "Who are you?" not in page
    assert "Who are you?" in cara.get(link, follow=True).text  # no seat of hers
    assert ana.__class__().get(link).status_code == 404  # not a member: nothing of the crew
    sheets.record_entry(match, 1, 0, EntryValue.out(), base_version=0, client_id=None, by="Ana")
    sheets.record_entry(match, 1, 1, EntryValue.count(9), base_version=0, client_id=None, by="Ben")
    crew_page = ben.get(reverse("crews:crew", args=[crew.code])).text
    assert link not in crew_page
    assert reverse("scoring:viewer", args=[match.viewer_code]) in crew_page


def test_filing_a_match_by_its_link(crew, ana):
    match = sheets.create_match(["Anna", "Zoe"], Rules(rounds=1), by="Anna")
    url = reverse("crews:file", args=[crew.code])
    link = f"http://testserver/s/{match.code}/"
    page = ana.post(url, {"link": link}).content.decode()
    assert "Seat 1: Anna" in page and "Seat 2: Zoe" in page
    ana_member = crew.members.get()
    response = ana.post(url, {"link": link, "file": "1", "seat_0": ana_member.pk, "seat_1": ""})
    assert response.status_code == 302
    assert match.seats.get(position=0).player == ana_member.player
    assert (
        "filed already"
        in ana.post(url, {"link": link, "file": "1", "seat_0": ana_member.pk}).content.decode()
    )
    assert "No match has that link" in ana.post(url, {"link": "nonsense"}).content.decode()


def test_a_table_for_the_crew_is_hosted_by_the_member(crew, ana):
    form = ana.get(reverse("games:new") + f"?crew={crew.code}").content.decode()
    assert "Start a table for Thursday dominoes" in form
    data = {**filled(TableForm.initial_for("standard", "Someone else")), "crew": crew.code}
    response = ana.post(reverse("games:new"), data)
    table = Table.objects.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    assert (table.crew, table.seats.get().name) == (crew, "Ana")


def test_the_export_lists_the_crew_history(crew, ana, django_capture_on_commit_callbacks):
    match = services.open_sheet(crew, ["Ana", "Ben"], Rules(rounds=1), by="Ana")
    with django_capture_on_commit_callbacks(execute=True):
        for seat, value in enumerate([EntryValue.out(), EntryValue.count(7)]):
            sheets.record_entry(match, 1, seat, value, base_version=0, client_id=None, by="Ana")
    csv = ana.get(reverse("crews:export-csv", args=[crew.code])).content.decode()
    assert "Ana" in csv and "Ben" in csv
    data = ana.get(reverse("games:crew-json", args=[crew.code])).json()
    assert data["crew"] == "Thursday dominoes" and len(data["matches"]) == 1
    assert [seat["name"] for seat in data["matches"][0]["seats"]] == ["Ana", "Ben"]
    page = ana.get(reverse("crews:crew", args=[crew.code])).content.decode()
    assert "Standings" in page and "<svg" in page


def test_staff_file_a_match_for_a_crew_they_are_not_in(crew, admin_client):
    match = sheets.create_match(["Anna", "Zoe"], Rules(rounds=1), by="Anna")
    url = reverse("crews:file", args=[crew.code])
    ana = crew.members.get()
    data = {"link": match.code, "file": "1", "seat_0": ana.pk}
    response = admin_client.post(url, data)
    assert response.status_code == 302
    assert CrewMatch.objects.get(match=match).filed_by == "admin"
    assert admin_client.get(reverse("admin:crews_crew_change", args=[crew.pk])).status_code == 200


def test_an_earlier_season_stays_readable_on_the_crew_page(
    crew, ana, django_capture_on_commit_callbacks
):
    match = services.open_sheet(crew, ["Ana", "Ben"], Rules(rounds=1), by="Ana")
    with django_capture_on_commit_callbacks(execute=True):
        for seat, value in enumerate([EntryValue.out(), EntryValue.count(7)]):
            sheets.record_entry(match, 1, seat, value, base_version=0, client_id=None, by="Ana")
        services.new_season(crew, "Spring")
    url = reverse("crews:crew", args=[crew.code])
    now = ana.get(url).content.decode()
    assert "Standings · Spring" in now and "No finished match this season yet" in now
    earlier = ana.get(f"{url}?season=1").content.decode()
    assert "Standings · Season 1" in earlier and "<td>7.0</td>" in earlier
    assert f'ws-connect="/ws/crew/{crew.code}/?season=1"' in earlier  # pushed that season


def test_a_device_is_one_player_in_its_sheets_and_its_crew(client):
    """A phone that kept a sheet as Ana, then starts a crew as Ana, is one player: the sheet
    filed for the crew later counts for the same person. A sheet started after joining a
    crew reuses the crew's player the same way."""
    sheet = filled(MatchForm.initial_for("standard", 12))
    client.post(reverse("scoring:new"), {**sheet, "player_1": "Ana", "player_2": "Ben"})
    sheet_ana = Match.objects.get().seats.get(position=0).player
    client.post(reverse("crews:new"), {"name": "Thursday dominoes", "founder": "Ana"})
    crew = Crew.objects.get()
    assert crew.members.get().player == sheet_ana

    cara = client.__class__()
    cara.post(reverse("crews:join", args=[crew.code]), {"name": "Cara"})
    cara.post(reverse("scoring:new"), {**sheet, "player_1": "Cara", "player_2": "Dev"})
    newest = Match.objects.latest("pk")
    assert newest.seats.get(position=0).player == crew.members.get(player__name="Cara").player


def test_a_guest_is_listed_apart_from_the_members(crew, ana, django_capture_on_commit_callbacks):
    """Zed, a guest at one of the crew's sheets, wins it: the night says so, marked as a
    guest, and Zed's line stands under Guests, not at the top of the members' standings,
    nor in the crew's ratings."""
    match = services.open_sheet(crew, ["Ana", "Zed"], Rules(rounds=1), by="Ana")
    with django_capture_on_commit_callbacks(execute=True):
        for seat, value in enumerate([EntryValue.count(7), EntryValue.out()]):
            sheets.record_entry(match, 1, seat, value, base_version=0, client_id=None, by="Ana")
    page = ana.get(reverse("crews:crew", args=[crew.code])).text
    standings = page.split('id="standings-title"')[1].split("</table>")[0]
    members, guests = standings.split(">Guests<")
    assert ">Ana<" in members and ">Zed<" not in members and ">Zed<" in guests
    ratings = page.split('id="ratings-title"')[1].split("</section>")[0]
    assert "Ana" in ratings and "Zed" not in ratings
    assert "won by Zed (guest)" in page


def test_ratings_read_as_places_and_trends_with_no_negative_figure_beside_a_name(
    crew, ana, django_capture_on_commit_callbacks
):
    """A week ago Ana finished ahead of Ben, and Cy last; today Ben beats Ana twice, Cy
    last again. The model's figure (mu less three sigma) is below 0 for Cy, but the list
    says places and how today moved them, and the model's own numbers wait in a detail."""
    for name in ("Ben", "Cy"):
        services.join(crew, name, f"device-{name}")
    for days_ago, counts in ((7, [None, 5, 20]), (0, [5, None, 20]), (0, [5, None, 20])):
        match = services.open_sheet(crew, ["Ana", "Ben", "Cy"], Rules(rounds=1), by="Ana")
        with django_capture_on_commit_callbacks(execute=True):
            for seat, pips in enumerate(counts):
                value = EntryValue.out() if pips is None else EntryValue.count(pips)
                sheets.record_entry(match, 1, seat, value, base_version=0, client_id=None, by="A")
        Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(days_ago))
    recompute(crew.current_season())
    figures = [r.ordinal for r in crew.current_season().ratings.all()]
    assert min(figures) < 0
    page = ana.get(reverse("crews:crew", args=[crew.code])).text
    # Not in the ratings, nor the standings, the head-to-head or the chart's legend.
    assert not any(f"{figure:.1f}" in page for figure in figures if figure < 0)
    ratings = page.split('id="ratings-title"')[1].split("</section>")[0]
    shown, detail = ratings.split("<details>")
    today = timezone.localdate().strftime("%a %-d %b")
    words = " ".join(re.sub(r"<[^>]+>", "", shown).split())
    assert f"Ben: 1st of 3, ▲ up 1 place on {today} after 3 matches" in words
    assert f"Ana: 2nd of 3, ▼ down 1 place on {today} after 3 matches" in words
    assert f"Cy: 3rd of 3, steady on {today} after 3 matches" in words
    assert not re.search(r"[-−]\d", ratings)  # nowhere a figure below 0
    assert "<summary>The model's numbers</summary>" in detail and "μ − 3σ" in detail


def test_a_member_adds_someone_without_a_phone_who_picks_their_name_later(crew, ana, client):
    add = reverse("crews:add-member", args=[crew.code])
    page_url = reverse("crews:crew", args=[crew.code])
    response = ana.post(add, {"add-name": "Gran"})
    assert response.status_code == 302 and response["Location"] == f"{page_url}#members-title"
    members = ana.get(page_url).text.split('id="members-title"')[1]
    assert re.search(r"Gran <small class=\"note\">not on a phone yet</small>", members)

    refused = ana.post(add, {"add-name": "gran"})
    assert refused.status_code == 400 and "Gran is in the crew already" in refused.text
    assert crew.members.count() == 2
    assert client.__class__().post(add, {"add-name": "Zed"}).status_code == 404

    grans_phone = client.__class__()
    join_page = grans_phone.get(page_url).text
    assert "Gran <small>(not on a phone yet)</small>" in join_page
    gran = crew.members.get(player__name="Gran")
    grans_phone.post(reverse("crews:join", args=[crew.code]), {"member": gran.pk})
    assert "You are" in grans_phone.get(page_url).text
    assert services.member_of(crew, grans_phone.session["device"]) == gran

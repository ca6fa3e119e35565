"""The sheet's pages: create, join, the sheet and the TV view, history, exports, the
manifest and service worker, and the admin. Bad input changes nothing and says why."""

import csv
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rules import Rules
from scoring import services
from scoring.entries import Refused
from scoring.models import Match, Player

from .conftest import enter, enter_seed_rounds

pytestmark = pytest.mark.django_db

DEFAULT_RULES = {
    "highest_double": "12",
    "preset": "standard",
    "rounds": "13",
    "double_blank_value": "0",
    "double_penalty": "0",
    "out_score": "0",
}


# What common.names says of a name that shows nothing (only zero-width spaces, say).
NOTHING_SHOWN = "Type a name with letters or digits in it: that one shows nothing."


def create(client, *names, **rules):
    data = {**DEFAULT_RULES, **rules}
    data.update({f"player_{n}": name for n, name in enumerate(names, start=1)})
    return client.post(reverse("scoring:new"), data)


def join(client, match: Match, seat: int) -> None:
    response = client.post(reverse("scoring:join", args=[match.code]), {"seat": str(seat)})
    assert response.status_code == 302


def test_the_home_page_links_to_a_new_score_sheet(client):
    assert reverse("scoring:new") in client.get("/").content.decode()


SCORING_RULES = (
    "Rounds to play",
    "Rounds start from",
    "Double-blank is worth",
    "A blank half is worth",
    "Penalty per unplayed double",
    "The player who goes out scores",
    "Going out on a double adds",
    "A tie for the lowest total",
    "Everyone has a first turn before a round can end",
)
# Rules of play alone: the tiles are played by hand, so a sheet has no use for them.
PLAY_RULES = ("Doubles must be covered", "Draw before passing")


def test_the_create_page_offers_presets_and_only_the_rules_that_change_a_score(client):
    html = client.get(reverse("scoring:new")).content.decode()
    for label in (*SCORING_RULES, "Chicken Foot"):
        assert label in html
    for label in PLAY_RULES:
        assert label not in html


def test_the_sheet_shows_only_the_rules_that_change_a_score_and_keeps_the_others(client):
    """A sheet made when it asked about play rules keeps what was set; it shows and changes
    only the rules that change a score, and a change of one leaves the others as set."""
    match = services.create_match(
        ["Ana", "Ben"], Rules(doubles_must_be_covered=False, draw_before_passing=False), by="Ana"
    )
    join(client, match, 0)
    html = client.get(reverse("scoring:sheet", args=[match.code])).content.decode()
    for label in SCORING_RULES:
        assert f"<span>{label}</span>" in html
    for label in PLAY_RULES:
        assert label not in html
    with pytest.raises(Refused, match="Only the house rules"):
        services.change_setting(match, "doubles_must_be_covered", True, was=False, by="Ana")
    services.change_setting(match, "double_penalty", 25, was=0, by="Ana")
    rules = Match.objects.get(pk=match.pk).get_rules()
    assert (rules.double_penalty, rules.doubles_must_be_covered) == (25, False)
    assert not rules.draw_before_passing


def test_choosing_a_preset_redraws_the_rules_as_it_sets_them(client):
    url = reverse("scoring:new-rules")
    html = client.get(url, {"preset": "family", "highest_double": "9"}).content.decode()
    assert re.search(r'<option value="50" selected>50 pips</option>', html)
    assert re.search(r'<option value="10" selected>10 \(9-9 down to 0-0\)', html)
    assert "13 (12-12" not in html


def test_creating_a_match_seats_the_players_and_takes_the_creator_to_be_the_first(client):
    response = create(
        client, "Ana", "Ben", "", "Cy", double_blank_value="50", preset="chicken_foot"
    )
    match = Match.objects.get()
    assert response.url == reverse("scoring:sheet", args=[match.code])
    assert [seat.player.name for seat in match.seats.all()] == ["Ana", "Ben", "Cy"]
    rules = match.get_rules()
    assert (rules.double_blank_value, rules.variant, rules.rounds) == (50, "chicken_foot", None)
    html = client.get(response.url).content.decode()
    assert "Who are you?" not in html and 'id="sheet"' in html
    assert "You are <strong>Ana</strong>" in html
    assert "<svg" in html and match.viewer_code in html  # the QR code and the TV link
    assert match.created_by == "Ana"


def test_another_phone_opening_the_link_is_asked_who_it_is(client):
    create(client, "Ana", "Ben")
    match = Match.objects.get()
    other = Client()
    html = other.get(reverse("scoring:sheet", args=[match.code])).content.decode()
    assert "Who are you?" in html and 'id="sheet"' not in html


def test_players_are_remembered_by_the_device_for_its_next_match(client):
    create(client, "Ana", "Ben")
    html = client.get(reverse("scoring:new")).content.decode()
    assert '<option value="Ana">' in html and '<option value="Ben">' in html
    create(client, "ana", "Dee")
    assert Player.objects.filter(name="Ana").count() == 1
    assert Player.objects.count() == 3


@pytest.mark.parametrize(
    ("names", "rules", "message"),
    [
        (["Ana"], {}, "Type at least two player names."),
        (["Ana", "ana"], {}, "Ana is named twice"),
        ([f"P{n}" for n in range(10)], {"highest_double": "6", "rounds": "7"}, "10 hands of 3"),
        (["Ana", "Ben"], {"double_penalty": "7"}, "Select a valid choice"),
        (["Ana", "Ben"], {"highest_double": "6"}, "Select a valid choice. 13 is not one of"),
        (["Ana", "Ben"], {"preset": "anything"}, "Select a valid choice"),
        (["A" * 41, "Ben"], {}, "at most 40 characters"),
        (["Ana", "A\u200bna"], {}, "Ana is named twice"),
        (["Ana", "\u0410na"], {}, "Ana is named twice"),
        (["\u200b\u200b\u200b", "Ben", "Cy"], {}, NOTHING_SHOWN),
    ],
)
def test_a_bad_match_changes_nothing_and_says_why(client, names, rules, message):
    response = create(client, *names, **rules)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_joining_needs_a_seat_or_a_name(client, seed_match):
    url = reverse("scoring:join", args=[seed_match.code])
    response = client.post(url, {"seat": ""})
    assert "Pick your name, or type the name you go by." in response.content.decode()
    response = client.post(url, {"seat": "9"})
    assert "Select a valid choice" in response.content.decode()
    assert "sheets" not in client.session
    response = client.post(url, {"seat": "", "name": "\u200b\u200b"})
    assert NOTHING_SHOWN in response.content.decode()
    assert "sheets" not in client.session
    client.post(url, {"seat": "", "name": "  Gran  "})
    assert client.session["sheets"][seed_match.code] == {"name": "Gran", "seat": None}


def test_the_sheet_shows_rounds_doubles_totals_and_the_leader(client, seed_match):
    enter_seed_rounds(seed_match)
    join(client, seed_match, 3)
    html = client.get(reverse("scoring:sheet", args=[seed_match.code])).content.decode()
    assert "You are <strong>Dev</strong>" in html
    assert "After 4 of 13 rounds: Dev leads on 57." in html
    assert re.findall(r'<td class="total[^"]*">(-?\d+)</td>', html) == ["69", "72", "82", "57"]
    assert html.count('class="domino"') == 13
    assert 'aria-label="9-9"' in html
    assert 'id="cell-4-3"' in html and 'ws-connect="/ws/sheet/' in html
    assert (
        '"visually-hidden">Round 1, Alice: 3-0, 4-1, 6-6, scores </span>'
        '<span class="score">20</span>'
        '<span class="visually-hidden">, total </span><span class="running">20<'
    ) in html
    assert html.count('class="tile"') == 91  # the picker holds the whole double-12 set
    assert reverse("scoring:manifest", args=[seed_match.code]) in html


def test_the_tv_view_reads_without_joining_and_edits_nothing(client, seed_match):
    enter(seed_match, 1, 0, 12)
    html = client.get(reverse("scoring:viewer", args=[seed_match.viewer_code])).content.decode()
    assert 'ws-connect="/ws/sheet/view/' in html
    assert '<button type="button" class="cell' not in html and "ws-send" not in html
    assert 'id="editor"' not in html and seed_match.code not in html
    assert "Double-blank is worth 0" in html


@pytest.mark.parametrize("name", ["scoring:sheet", "scoring:join", "scoring:manifest"])
def test_an_unknown_link_is_not_found(client, name):
    assert client.get(reverse(name, args=["nope"])).status_code == 404


def test_a_cells_history_on_demand(client, seed_match):
    enter(seed_match, 2, 1, 15, by="Ben")
    enter(seed_match, 2, 1, 13, by="Ana", base_version=1)
    url = reverse("scoring:history", args=[seed_match.code])
    html = client.get(url, {"round": 2, "seat": 1}).content.decode()
    assert re.findall(r"(Ana|Ben): Round 2, Ben: (.*?)</li>", html) == [
        ("Ana", "15 pips → 13 pips"),
        ("Ben", "blank → 15 pips"),
    ]
    assert client.get(url, {"round": "x"}).status_code == 400


def test_csv_export_has_a_row_per_round_and_the_totals(client, seed_match):
    enter_seed_rounds(seed_match)
    response = client.get(reverse("scoring:export-csv", args=[seed_match.viewer_code]))
    assert seed_match.code not in response["Content-Disposition"]  # the TV link cannot edit
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Round", "Double", "Alice", "Ben", "Cara", "Dev"]
    assert rows[1] == ["1", "12-12", "20", "23", "0", "13"]
    assert rows[5] == ["5", "8-8", "", "", "", ""]
    assert rows[-1] == ["Total", "", "69", "72", "82", "57"]


def test_json_export_has_what_was_entered_scores_and_history(client, seed_match):
    enter_seed_rounds(seed_match)
    response = client.get(reverse("scoring:export-json", args=[seed_match.viewer_code]))
    data = json.loads(response.content)
    assert data["players"] == ["Alice", "Ben", "Cara", "Dev"]
    assert data["totals"] == [69, 72, 82, 57] and data["winners"] == []
    first = data["rounds"][0]["entries"]
    assert first[1] == {
        "entered": {"kind": "tiles", "tiles": [[11, 12]]},
        "score": 23,
        "running_total": 23,
    }
    assert first[2]["entered"] == {"kind": "out"}
    assert len(data["history"]) == 16 and data["history"][0]["by"] == "Ana"
    assert data["rules"]["highest_double"] == 12


def test_manifest_opens_this_sheet_from_the_home_screen(client, seed_match):
    data = client.get(reverse("scoring:manifest", args=[seed_match.code])).json()
    assert data["start_url"] == reverse("scoring:sheet", args=[seed_match.code])
    assert data["display"] == "standalone" and data["icons"][0]["src"].endswith("icon.svg")


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    for name in ("/static/scoring/sheet.js", "/static/vendor/htmx.min.js", "/static/css/app.css"):
        assert f"'{name}'" in body
    assert re.search(r"const CACHE = 'score-sheet-[0-9a-f]{12}'", body)


def test_the_admin_lists_matches_players_and_entries_with_their_history(admin_client, seed_match):
    enter(seed_match, 1, 0, 12, by="Ben")
    entry = seed_match.rounds.get().entries.get()
    pages = {
        reverse("admin:scoring_match_changelist"): ["Alice, Ben, Cara, Dev", "Score sheet"],
        reverse("admin:scoring_match_change", args=[seed_match.pk]): ["history of entries"],
        reverse("admin:scoring_player_changelist") + "?q=Cara": ["Cara"],
        reverse("admin:scoring_entry_changelist") + "?q=Alice": ["Alice, round 1: 12 pips"],
        reverse("admin:scoring_entry_change", args=[entry.pk]): ["history of this entry", "Ben"],
    }
    for url, texts in pages.items():
        html = admin_client.get(url).content.decode().lower()
        for text in texts:
            assert text.lower() in html, (url, text)


def test_csv_export_neutralises_formulas_in_names_and_keeps_scores_numbers(client, db):
    """A name a spreadsheet would run as a formula is written as text (OWASP's leading
    quote); the app's own numbers, negative ones too, stay numbers."""
    evil = '=HYPERLINK("http://evil.example","x")'
    match = services.create_match([evil, "-Ben", "Cara"], Rules(out_score=-10), by="Ana")
    enter(match, 1, 0, 12)
    enter(match, 1, 1, None)
    response = client.get(reverse("scoring:export-csv", args=[match.viewer_code]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Round", "Double", f"'{evil}", "'-Ben", "Cara"]
    assert rows[1] == ["1", "12-12", "12", "-10", ""]
    assert rows[-1] == ["Total", "", "12", "-10", "0"]

"""The table's pages over HTTP: create, join, the host's controls, start, rejoin, watch.

Every form posts with CSRF, and a refused or malformed request changes nothing."""

from __future__ import annotations

import json
import re
from dataclasses import fields

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import sessions
from games.bots import best_line
from games.engine import Rules
from games.forms import RULE_FIELDS, SENTENCES
from games.models import Table, TableSeat

pytestmark = pytest.mark.django_db

RULES = {
    "preset": "standard",
    "highest_double": "6",
    "rounds": "2",
    "variant": "standard",
    "first_turn": "line",
    "public_trains": "1",
    "doubles_must_be_covered": "on",
    "double_blank_value": "0",
    "hand_size": "",
    "draw_before_passing": "on",
    "double_scope": "table",
    "double_penalty": "0",
    "out_score": "0",
}


def create(client: Client, seats: int = 3, **changes: str) -> Table | None:
    """Post the new-table form; the table it made, or None when it was refused."""
    before = set(Table.objects.values_list("pk", flat=True))
    client.post("/t/new/", {**RULES, "host_name": "Ana", "seat_count": str(seats), **changes})
    return Table.objects.exclude(pk__in=before).first()


def join(client: Client, table: Table, name: str, position: str = ""):
    return client.post(f"/t/{table.code}/join/", {"name": name, "position": position})


def seats(table: Table) -> list[tuple[int, str]]:
    return list(table.seats.order_by("position").values_list("position", "name"))


def page_view(page) -> dict:
    """The view a table page starts from (its script marks the seat's own train and row)."""
    found = re.search(r'<script id="table-view" type="application/json">(.*?)</script>', page.text)
    assert found, "the page carries its view"
    return json.loads(found.group(1))


@pytest.fixture
def host() -> Client:
    return Client()


@pytest.fixture
def lobby(host: Client) -> Table:
    table = create(host)
    assert table is not None
    return table


def test_creating_a_table_seats_the_host_and_opens_its_lobby(host):
    page = host.get("/t/new/")
    assert page.status_code == 200
    for group in ("The set and the deal", "The first turn", "Doubles", "Drawing", "Scoring"):
        assert f"<summary>{group}</summary>" in page.text
    assert 'name="double_penalty"' in page.text
    response = host.post("/t/new/", {**RULES, "host_name": "  Ana  ", "seat_count": "3"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"
    rules = table.get_rules()
    assert (rules.highest_double, rules.rounds, table.seat_count) == (6, 2, 3)
    assert seats(table) == [(0, "Ana")]
    assert sessions.host_token(host.session, table.code) == table.host_token
    lobby = host.get(response["Location"])
    assert "Ana (you)" in lobby.text and "Start the match" in lobby.text
    assert "<svg" in lobby.text and f"/t/{table.code}/" in lobby.text  # the QR code and link
    assert f"/t/{table.code}/rejoin/{table.seats.get().token}/" in lobby.text


def test_the_form_offers_every_setting_of_the_rules():
    assert sorted(RULE_FIELDS) == sorted(f.name for f in fields(Rules)) == sorted(SENTENCES)


def test_the_scoring_rules_from_other_tables_are_set_and_shown_in_words(host):
    table = create(
        host,
        round_engines="from_highest",
        blank_value="25",
        out_on_double="-50",
        tie_break="rounds_out",
    )
    rules = table.get_rules()
    assert (rules.round_engines, rules.blank_value, rules.out_on_double, rules.tie_break) == (
        "from_highest",
        25,
        -50,
        "rounds_out",
    )
    page = host.get(f"/t/{table.code}/").text
    for words in (
        "Rounds start from the highest double, counting down",
        "A blank half is worth 25",
        "Going out on a double adds -50",
        "A tie for the lowest total goes to whoever went out more often",
    ):
        assert words in page


def test_a_form_drawn_before_the_new_settings_gets_their_defaults(host):
    rules = create(host).get_rules()  # RULES posts none of them
    assert (rules.round_engines, rules.blank_value, rules.out_on_double, rules.tie_break) == (
        "to_blank",
        0,
        0,
        "share",
    )
    assert (rules.own_train_first, rules.draw_on_first_turn) == ("off", True)


def test_the_play_rules_from_other_tables_are_set_and_shown_in_words(host):
    table = create(
        host, own_train_first="first_turn", draw_on_first_turn="off", dead_doubles_free="on"
    )
    rules = table.get_rules()
    assert (rules.own_train_first, rules.draw_on_first_turn, rules.dead_doubles_free) == (
        "first_turn",
        False,
        True,
    )
    page = host.get(f"/t/{table.code}/").text
    for words in (
        "Tiles go on your own train first: in your first turn",
        "Drawing in your first turn: not allowed",
        "A double nobody can cover any more counts as covered: on",
    ):
        assert words in page


def test_each_setting_has_its_sentence_and_a_dependent_one_names_what_it_needs():
    page = Client().get("/t/new/").text
    assert "Once no unplayed tile could cover a double, it closes nothing." in page
    assert 'data-needs="draw_before_passing"' in page  # optional_draw, shown only then
    assert page.count("data-needs=") == 5 + 1  # and the bots that fill the empty seats
    assert "{#" not in page and "#}" not in page  # no template comment shown as text


def test_a_preset_fills_the_rules_fields():
    page = Client().get("/t/new/rules/", {"preset": "family"})
    assert re.search(r'name="double_plays_again"[^>]*checked', page.text)
    assert re.search(r'<option value="50" selected>', page.text)


def test_a_signed_in_users_name_is_the_default_host_name(host):
    user = get_user_model().objects.create_user("ana", first_name="Ana", last_name="Lopez")
    host.force_login(user)
    assert 'value="Ana Lopez"' in host.get("/t/new/").text


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rounds": "10"}, "Rounds to play: a double-6 set plays 1 to 7 rounds, not 10."),
        (
            {"double_scope": "own_train", "doubles_must_be_covered": ""},
            "An uncovered double closes: &#x27;own_train&#x27; only means something",
        ),
        ({"seat_count": "10", "highest_double": "6"}, "Seats: 10 hands of"),
        ({"hand_size": "9", "seat_count": "4"}, "Tiles in each hand: 4 hands of 9 need 36"),
        ({"host_name": ""}, "This field is required."),
        ({"seat_count": "11"}, "Select a valid choice."),
        (
            {"optional_draw": "on", "draw_before_passing": ""},
            "You may draw instead of playing: only means something with draw before passing on",
        ),
    ],
)
def test_nonsense_rules_are_refused_naming_the_setting_and_nothing_is_made(host, changes, message):
    response = host.post("/t/new/", {**RULES, "host_name": "Ana", "seat_count": "4", **changes})
    assert response.status_code == 200
    assert message in response.text
    assert not Table.objects.exists()


def test_joining_takes_the_chosen_free_seat_or_the_next_one(lobby):
    ben, cara = Client(), Client()
    assert "Take the seat" in ben.get(f"/t/{lobby.code}/").text
    assert join(ben, lobby, "Ben", "2").status_code == 302
    assert join(cara, lobby, "Cara").status_code == 302
    assert seats(lobby) == [(0, "Ana"), (1, "Cara"), (2, "Ben")]
    page = ben.get(f"/t/{lobby.code}/")
    assert "Ben (you)" in page.text and "Take the seat" not in page.text
    assert "Start the match" not in page.text  # the host's control only


def test_a_full_table_refuses_another_player_and_offers_to_watch(lobby):
    join(Client(), lobby, "Ben")
    join(Client(), lobby, "Cara")
    dev = Client()
    assert "Every seat is taken: you are watching." in dev.get(f"/t/{lobby.code}/").text
    response = join(dev, lobby, "Dev")
    assert response.status_code == 400
    assert "The table is full: all 3 seats are taken." in response.text
    assert len(seats(lobby)) == 3


@pytest.mark.parametrize(
    ("name", "position", "message"),
    [
        ("", "", "Type your name to join."),
        ("ana", "", "Somebody at this table is already called ana"),
        ("Ben", "7", "Select a valid choice."),
        ("x" * 41, "", "at most 40 characters"),
    ],
)
def test_a_bad_join_is_refused_and_changes_nothing(lobby, name, position, message):
    response = join(Client(), lobby, name, position)
    assert response.status_code == 400
    assert message in response.text
    assert seats(lobby) == [(0, "Ana")]


def test_the_host_adds_bots_removes_a_seat_and_starts(host, lobby):
    code = lobby.code
    for level in ("random", "strategic"):
        assert host.post(f"/t/{code}/bots/", {"level": level}).status_code == 302
    assert seats(lobby) == [(0, "Ana"), (1, "Random bot 1"), (2, "Strategic bot 1")]
    htmx = {"HTTP_HX_REQUEST": "true"}
    assert host.post(f"/t/{code}/remove/", {"position": "1"}, **htmx).status_code == 204
    assert seats(lobby) == [(0, "Ana"), (2, "Strategic bot 1")]
    refused = host.post(f"/t/{code}/remove/", {"position": "0"}, **htmx)
    assert refused.status_code == 422 and refused.text == "The host keeps the first seat."
    assert host.post(f"/t/{code}/start/").status_code == 302
    lobby.refresh_from_db()
    assert lobby.status == Table.Status.PLAYING and lobby.match is not None
    assert seats(lobby) == [(0, "Ana"), (1, "Strategic bot 1")]  # seats closed up
    page = host.get(f"/t/{code}/")
    assert 'id="table-board"' in page.text and "tile--hand" in page.text
    assert 'id="table-sheet"' in page.text and "No round has been scored yet." in page.text


def test_the_host_cannot_start_alone(host, lobby):
    response = host.post(f"/t/{lobby.code}/start/", follow=True)
    assert "A match needs at least two players" in response.text
    lobby.refresh_from_db()
    assert lobby.status == Table.Status.LOBBY


def test_the_host_controls_are_refused_to_everybody_else(host, lobby):
    ben = Client()
    join(ben, lobby, "Ben")
    code = lobby.code
    for url, data in [
        (f"/t/{code}/bots/", {"level": "greedy"}),
        (f"/t/{code}/remove/", {"position": "1"}),
        (f"/t/{code}/start/", {}),
        (f"/t/{code}/stand-in/", {"position": "0", "level": "greedy"}),
    ]:
        response = ben.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 422 and response.text == "Only the host can do that."
        followed = ben.post(url, data, follow=True)
        assert "Only the host can do that." in followed.text
    lobby.refresh_from_db()
    assert seats(lobby) == [(0, "Ana"), (1, "Ben")] and lobby.status == Table.Status.LOBBY


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("bots/", {"level": "genius"}),
        ("bots/", {"level": "greedy", "position": "-1"}),
        ("remove/", {"position": "one"}),
        ("remove/", {}),
        ("stand-in/", {"level": "greedy"}),
    ],
)
def test_malformed_host_controls_change_nothing(host, lobby, url, data):
    response = host.post(f"/t/{lobby.code}/{url}", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert seats(lobby) == [(0, "Ana")]


def test_the_host_hands_an_absent_players_seat_to_a_bot(host, lobby):
    ben = Client()
    join(ben, lobby, "Ben")
    host.post(f"/t/{lobby.code}/start/")
    page = host.get(f"/t/{lobby.code}/")
    assert "Let a bot play for Ben" in page.text and "Let a bot play for Ana" not in page.text
    form = page.text.split('class="stand-in">', 1)[1].split("</form>", 1)[0]
    assert 'name="csrfmiddlewaretoken"' in form  # the page's copy posts without htmx too
    assert "Let a bot play for" not in ben.get(f"/t/{lobby.code}/").text
    response = host.post(f"/t/{lobby.code}/stand-in/", {"position": "1", "level": "strategic"})
    assert response.status_code == 302
    assert TableSeat.objects.get(table=lobby, position=1).stand_in == "strategic"


def test_the_rejoin_link_brings_a_seat_to_another_device(host, lobby):
    ben = Client()
    join(ben, lobby, "Ben")
    host.post(f"/t/{lobby.code}/start/")
    token = TableSeat.objects.get(table=lobby, name="Ben").token
    phone = Client()
    response = phone.get(f"/t/{lobby.code}/rejoin/{token}/")
    assert response.status_code == 302 and response["Location"] == f"/t/{lobby.code}/"
    page = phone.get(response["Location"])
    ben_seat = TableSeat.objects.get(table=lobby, name="Ben").position
    assert page_view(page)["seat"] == ben_seat and "tile--hand" in page.text
    assert phone.get(f"/t/{lobby.code}/rejoin/not-a-token/").status_code == 404


def test_the_hosts_rejoin_link_brings_the_host_controls_along(host, lobby):
    laptop = Client()
    laptop.get(f"/t/{lobby.code}/rejoin/{lobby.seats.get().token}/")
    assert "Add a greedy bot" in laptop.get(f"/t/{lobby.code}/").text


def test_a_spectator_watches_without_a_hand(host, lobby):
    join(Client(), lobby, "Ben")
    host.post(f"/t/{lobby.code}/start/")
    page = Client().get(f"/t/{lobby.code}/")
    assert page.status_code == 200
    assert "You are watching: hands stay hidden." in page.text
    assert "tile--hand" not in page.text and '"hand": null' in page.text
    assert "Take the seat" not in page.text  # the match has started: no joining now


def test_joining_after_the_start_is_refused_with_the_reason(host, lobby):
    join(Client(), lobby, "Ben")
    host.post(f"/t/{lobby.code}/start/")
    cara = Client()
    late = cara.post(f"/t/{lobby.code}/join/", {"name": "Cara"}, follow=True)
    assert "The match has started: seats can no longer change." in late.text
    assert seats(lobby) == [(0, "Ana"), (1, "Ben")]


def test_an_unknown_table_is_a_clear_404():
    assert Client().get("/t/nosuchtable/").status_code == 404


def test_every_form_enforces_csrf(lobby, host):
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = host.cookies  # the host's own session, without the form's token
    code = lobby.code
    for url, data in [
        ("/t/new/", {**RULES, "host_name": "Eve", "seat_count": "2"}),
        (f"/t/{code}/join/", {"name": "Eve"}),
        (f"/t/{code}/bots/", {"level": "greedy"}),
        (f"/t/{code}/remove/", {"position": "1"}),
        (f"/t/{code}/start/", {}),
        (f"/t/{code}/stand-in/", {"position": "1", "level": "greedy"}),
    ]:
        assert strict.post(url, data).status_code == 403, url
    assert Table.objects.count() == 1 and seats(lobby) == [(0, "Ana")]


def test_the_hint_is_the_planners_line_for_the_callers_own_seat(host, lobby):
    ben = Client()
    join(ben, lobby, "Ben")
    host.post(f"/t/{lobby.code}/start/")
    lobby.refresh_from_db()
    game = lobby.game()
    hint = host.get(f"/t/{lobby.code}/hint/").json()
    expected = best_line(game.round.hands[0], game.round.engine)
    assert hint["tiles"] == [list(t) for t in expected]
    assert Client().get(f"/t/{lobby.code}/hint/").status_code == 403


def test_the_front_page_lists_the_tables_this_browser_sits_at(host, lobby):
    page = host.get("/")
    assert "Start a table" in page.text
    assert "Your tables" in page.text and f"/t/{lobby.code}/" in page.text
    assert "Your tables" not in Client().get("/").text

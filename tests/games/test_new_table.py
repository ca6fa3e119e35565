"""The new-table form for a first-timer: the standard game unless "House rules" is opened,
each bot level said in one line, and empty seats filled with bots when the host starts
(not before: a friend following the link still finds a free seat)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.bots import LEVELS, PLAYS_LIKE
from games.engine import Rules
from games.models import Table

from .test_pages import RULES, create, join, seats

pytestmark = pytest.mark.django_db


def house_rules(page: str) -> str:
    """The "House rules" fold of the new-table form, opening tag to its end."""
    found = re.search(r'<details class="panel house-rules"[^>]*>.*?</fieldset>', page, re.S)
    assert found, "the form has a House rules fold"
    return found.group(0)


def test_the_form_plays_the_standard_game_with_the_set_and_the_deal_folded_in_house_rules():
    page = Client().get("/t/new/").text
    folded = house_rules(page)
    assert folded.startswith('<details class="panel house-rules">')  # closed
    assert "<summary>House rules</summary>" in folded
    for name in ("preset", "highest_double", "hand_size", "rounds", "double_penalty"):
        assert f'name="{name}"' in folded, name
        assert page.count(f'name="{name}"') == 1, name  # nowhere outside the fold
    assert "You play the <strong>Standard</strong> game." in page
    assert '<option value="standard" selected>' in folded


def test_posting_the_form_untouched_opens_a_table_of_the_standard_game():
    host = Client()
    page = host.get("/t/new/").text
    # What a browser posts of the page as drawn, with only the name typed in: each select's
    # chosen option, each ticked box and radio.
    posted = {"host_name": "Ana"}
    for name, value in re.findall(
        r'<select name="(\w+)"[^>]*>(?:(?!</select>).)*?<option value="([^"]*)" selected>',
        page,
        re.S,
    ):
        posted[name] = value
    for name in re.findall(r'<input type="checkbox" name="(\w+)"[^>]*checked', page):
        posted[name] = "on"
    for name, value in re.findall(
        r'<input type="radio" name="(\w+)" value="(\w+)"[^>]*checked', page
    ):
        posted[name] = value
    assert posted["seat_count"] == "4" and posted["fill_level"] == "greedy"
    response = host.post("/t/new/", posted)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.get_rules() == Rules() and table.fill_level == ""


def test_house_rules_open_for_an_error_in_them_and_for_a_preset_chosen_in_them():
    refused = Client().post(
        "/t/new/", {**RULES, "host_name": "Ana", "seat_count": "4", "hand_size": "40"}
    )
    assert refused.status_code == 200
    assert house_rules(refused.text).startswith('<details class="panel house-rules" open>')
    swapped = Client().get("/t/new/rules/", {"preset": "standard"}).text
    assert house_rules(swapped).startswith('<details class="panel house-rules" open>')
    family = Client().post("/t/new/", {**RULES, "preset": "family", "host_name": ""})
    assert house_rules(family.text).startswith('<details class="panel house-rules" open>')


def test_each_bot_level_says_in_one_line_what_it_plays_like_on_the_form_and_in_the_lobby():
    assert set(PLAYS_LIKE) == set(LEVELS)
    assert all(sentence and "\n" not in sentence for sentence in PLAYS_LIKE.values())
    form = Client().get("/t/new/").text
    host = Client()
    lobby = host.get(f"/t/{create(host).code}/").text
    for level in LEVELS:
        assert f"{level.title()}: {PLAYS_LIKE[level]}" in form, level
        assert f'aria-describedby="plays-like-{level}"' in lobby, level
        assert f'id="plays-like-{level}">{PLAYS_LIKE[level]}</small>' in lobby, level


def test_empty_seats_are_filled_with_bots_when_the_host_starts_and_stay_free_until_then():
    host = Client()
    table = create(host, seats=4, fill_seats="on", fill_level="strategic")
    assert table.fill_level == "strategic" and seats(table) == [(0, "Ana")]
    lobby = host.get(f"/t/{table.code}/").text
    assert lobby.count("Free seat: a strategic bot takes it at the start") == 3
    assert "Start the match with 4 players" in lobby  # the host alone may start
    assert "Strategic bots take the seats still free." in lobby

    assert join(Client(), table, "Ben", "2").status_code == 302  # a friend finds a seat
    assert host.post(f"/t/{table.code}/start/").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert list(table.seats.order_by("position").values_list("name", "kind", "bot_level")) == [
        ("Ana", "human", ""),
        ("Strategic bot 1", "bot", "strategic"),
        ("Ben", "human", ""),
        ("Strategic bot 2", "bot", "strategic"),
    ]
    assert table.game().players == 4


def test_without_the_box_ticked_empty_seats_close_up_as_before():
    host = Client()
    table = create(host, seats=4, fill_level="expert")  # a level without the box: no bots
    assert table.fill_level == ""
    join(Client(), table, "Ben")
    host.post(f"/t/{table.code}/start/")
    assert seats(table) == [(0, "Ana"), (1, "Ben")]
    assert "takes it at the start" not in host.get(f"/t/{create(host).code}/").text


def test_the_bots_that_fill_the_seats_are_refused_unless_they_are_a_level():
    host = Client()
    response = host.post(
        "/t/new/",
        {**RULES, "host_name": "Ana", "seat_count": "4", "fill_seats": "on", "fill_level": "god"},
    )
    assert response.status_code == 200 and not Table.objects.exists()
    assert "Select a valid choice. god is not one of the available choices." in response.text
    response = host.post(
        "/t/new/", {**RULES, "host_name": "Ana", "seat_count": "4", "fill_seats": "on"}
    )
    assert "Choose which bots fill the empty seats." in response.text
    assert not Table.objects.exists()
    with pytest.raises(services.Refused, match="There is no 'god' bot"):
        services.create_table(rules=Rules(), seat_count=4, host_name="Ana", fill_level="god")


def test_a_rematch_fills_its_empty_seats_as_the_match_before_did():
    table, ana = services.create_table(
        rules=Rules(highest_double=6, rounds=1), seat_count=3, host_name="Ana", fill_level="random"
    )
    services.start(table.code, host_token=table.host_token)  # the host and two random bots
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    rematch, _ = services.play_again(table.code, token=ana.token)
    assert rematch.fill_level == "random"

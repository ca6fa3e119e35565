"""A socket's view message: the page's own data, with the regions drawn for that seat."""

from __future__ import annotations

import json

import pytest

from games import screens, services
from games.engine import Rules
from games.forms import parse_intent as parse
from tests.games.tables import first_legal_move, started_table

pytestmark = pytest.mark.django_db

NAMES = ['Zoë "the train"', "<b>Ana</b>", "Ren 🚂", "O'Neil\\"]


def test_a_view_message_is_the_json_of_the_whole_view_whatever_the_names_hold():
    """Names with quotes, markup, backslashes and characters outside ASCII come through
    the view's JSON and its regions exactly, escaped in the HTML."""
    table, host = services.create_table(Rules(highest_double=6, rounds=2), 4, NAMES[0])
    tokens = [host.token] + [services.join(table.code, name).token for name in NAMES[1:]]
    services.start(table.code, table.host_token)

    for token in [*tokens, None]:
        text, _ = screens.view_message(table.code, token)
        view = json.loads(text)
        assert 'id="table-board"' in view["html"]  # a region all seats share
        assert 'id="table-dock"' in view["html"]  # and one of the seat's own
        assert "Zoë &quot;the train&quot;" in view["html"]
        assert "&lt;b&gt;Ana&lt;/b&gt;" in view["html"]
        assert [s["name"] for s in view["seats"]] == NAMES
        page = screens.screen(table.code, token).data
        assert {key: value for key, value in view.items() if key != "html"} == page


def test_a_view_message_holds_the_same_data_as_the_page_through_a_round_and_its_end():
    """After each move, each seat's message (and a spectator's) says what the page's data
    says, and the round's end brings the score sheet."""
    table, tokens = started_table()
    over = False
    while not over:
        table.refresh_from_db()
        views = []
        for token in [*tokens.values(), None]:
            view = json.loads(screens.view_message(table.code, token)[0])
            page = screens.screen(table.code, token).data
            assert {key: value for key, value in view.items() if key != "html"} == page
            assert view["game"] is None or view["game"]["seat"] == page["seat"]
            views.append(view)
        over = views[-1]["game"]["round_over"]  # the spectator's
        if not over:
            seat = tokens[views[-1]["game"]["turn"]]
            services.act(table.code, seat, parse(first_legal_move(table, seat)))
    assert "table-sheet" in views[0]["html"]  # the round's end, with its score sheet


def test_a_refused_action_leaves_the_stand_in_as_it_was():
    """A person back from a stand-in bot gets the seat back as they act; when the action is
    refused, that rolls back, and the screens go on showing the bot standing in."""
    table, host = services.create_table(Rules(highest_double=6, rounds=2), 2, "Ana")
    ben = services.join(table.code, "Ben")
    services.start(table.code, table.host_token)
    services.hand_to_bot(table.code, table.host_token, ben.position)
    table.refresh_from_db()

    out_of_turn = parse({"type": "draw", "version": table.version})
    with pytest.raises(services.Refused, match="not your turn"):
        services.act(table.code, ben.token, out_of_turn)

    ben.refresh_from_db()
    assert ben.stand_in == "greedy"
    view = json.loads(screens.view_message(table.code, host.token)[0])
    assert "a bot plays for now" in view["html"]
    assert next(s for s in view["seats"] if s["name"] == "Ben")["stand_in"] is True


def test_the_host_is_offered_a_bot_for_each_other_person_away():
    table, tokens = started_table()  # nobody has a socket open: Ana (host) and Ben are away
    host = json.loads(screens.view_message(table.code, tokens[0], host_token=table.host_token)[0])
    guest = json.loads(screens.view_message(table.code, tokens[1])[0])
    assert host["html"].count("Let a bot play for") == 1 and "play for Ben" in host["html"]
    assert "Let a bot play for" not in guest["html"]

    table.seats.update(channel_name="a-socket")  # both connected
    host = json.loads(screens.view_message(table.code, tokens[0], host_token=table.host_token)[0])
    assert "Let a bot play for" not in host["html"]

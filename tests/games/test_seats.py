"""Who sits at a table: names a reader can tell apart, and when the host may hand a person's
seat to a bot (services.hand_to_bot)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import Rules
from games.models import TURN_RUNS_LONG, Table
from tests.games.tables import started_table, view_message

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("twin", ["ana", "A\u200bna", "\u0410na", "Ａｎａ", " Ana\u200d "])
def test_a_name_that_reads_the_same_as_one_at_the_table_is_refused(twin):
    table, _ = services.create_table(rules=Rules(), seat_count=4, host_name="Ana")
    with pytest.raises(services.Refused, match="already called"):
        services.join(table.code, name=twin)


@pytest.mark.parametrize("invisible", ["\u200b", "\u200b\u200c\u2060", " \u200d\t"])
def test_a_name_of_invisible_characters_alone_is_refused_with_a_sentence(invisible):
    with pytest.raises(services.Refused, match="shows nothing"):
        services.create_table(rules=Rules(), seat_count=4, host_name=invisible)
    table, _ = services.create_table(rules=Rules(), seat_count=4, host_name="Ana")
    with pytest.raises(services.Refused, match="shows nothing"):
        services.join(table.code, name=invisible)


def test_a_name_keeps_its_letters_without_the_invisible_ones():
    table, _ = services.create_table(rules=Rules(), seat_count=4, host_name="Ana")
    assert services.join(table.code, name="B\u200be\u2060n").name == "Ben"


def _ben_on_turn() -> tuple[Table, dict[int, str]]:
    """A started two-seat table, both connected, Ben (not the host) on turn: Ana begins,
    so a bot plays her first turn for her and gives her seat back. The deal is fixed: with
    double-six, some deals let Ana's first-turn line take her whole hand, and the round
    ends with nobody else on turn."""
    table, tokens = started_table(seed=7)
    assert table.game().round.turn == 0
    services.connect(
        table.code, token=tokens[1], host_token="", channel="socket-1"
    )  # bots play while Ben watches
    services.hand_to_bot(table.code, host_token=table.host_token, position=0)
    while table.game().round.turn == 0:
        assert services.play_bot_turn(table.code) is not None, "the bot had nothing to do"
        table.refresh_from_db()
    _connect_both(table, tokens)  # Ana back: the seat is hers again
    table.refresh_from_db()
    return table, tokens


def _connect_both(table: Table, tokens: dict[int, str]) -> None:
    for position, token in tokens.items():
        services.connect(table.code, token=token, host_token="", channel=f"socket-{position}")


def test_the_host_cannot_hand_a_present_players_seat_to_a_bot_mid_turn():
    table, tokens = started_table()
    _connect_both(table, tokens)
    with pytest.raises(services.Refused, match="is here"):  # on turn or not, Ben is here
        services.hand_to_bot(table.code, host_token=table.host_token, position=1)
    assert table.seats.get(position=1).stand_in == ""
    services.hand_to_bot(
        table.code, host_token=table.host_token, position=0
    )  # the host's own seat: theirs to hand
    assert table.seats.get(position=0).stand_in == "greedy"


def test_the_host_may_hand_the_seat_of_a_player_who_is_away():
    table, tokens = started_table()
    _connect_both(table, tokens)
    services.disconnect(table.code, channel="socket-1")
    services.hand_to_bot(table.code, host_token=table.host_token, position=1)
    assert table.seats.get(position=1).stand_in == "greedy"


def test_the_host_may_hand_the_seat_of_a_connected_player_whose_turn_ran_long():
    table, _ = _ben_on_turn()
    with pytest.raises(services.Refused, match="is here"):  # on turn, but only just
        services.hand_to_bot(table.code, host_token=table.host_token, position=1)
    long_ago = timezone.now() - timedelta(seconds=TURN_RUNS_LONG + 1)
    Table.objects.filter(pk=table.pk).update(moved_at=long_ago)
    services.hand_to_bot(table.code, host_token=table.host_token, position=1)
    assert table.seats.get(position=1).stand_in == "greedy"


def test_the_hosts_page_offers_a_bot_for_the_player_on_turn_from_when_the_turn_runs_long():
    table, tokens = _ben_on_turn()
    host_html = json.loads(view_message(table.code, tokens[0], table.host_token))["html"]
    offer = re.search(r"<form[^>]*stand-in[^>]*>", host_html).group(0)
    assert " hidden" in offer and "Let a bot play for Ben" in host_html
    runs_long = table.moved_at + timedelta(seconds=TURN_RUNS_LONG)
    assert f'data-offer-from="{runs_long.isoformat()}"' in offer
    ben_html = json.loads(view_message(table.code, tokens[1]))["html"]
    assert "stand-in" not in ben_html

"""A seat asked back from another screen (issue 21): somebody watching says a seat is theirs,
a person at the table answers, and only an approval moves the seat, under a new token."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import screens, services
from games.engine import Rules
from games.forms import BadMessage, Intent
from games.models import CLAIM_WAITS, Table, TableSeat

from .conftest import Player, make_table
from .tables import parse, view_message

pytestmark = pytest.mark.django_db

ASKER = "asker-socket"


def three_people() -> tuple[Table, dict[int, str]]:
    """A started table of Ana (the host), Ben, Cy and a bot; Ana and Cy connected, Ben's
    phone gone."""
    table, host = services.create_table(
        rules=Rules(highest_double=6, rounds=2), seat_count=4, host_name="Ana"
    )
    tokens = {0: host.token}
    for name in ("Ben", "Cy"):
        seat = services.join(table.code, name=name)
        tokens[seat.position] = seat.token
    services.add_bot(table.code, host_token=table.host_token, level="greedy")
    services.start(table.code, host_token=table.host_token)
    services.connect(table.code, token=tokens[0], host_token=table.host_token, channel="socket-0")
    services.connect(table.code, token=tokens[2], host_token="", channel="socket-2")
    table.refresh_from_db()
    return table, tokens


def told(channel: str) -> dict:
    """The next message the channel layer holds for one socket."""

    async def receive() -> dict:
        return await asyncio.wait_for(get_channel_layer().receive(channel), 1)

    return async_to_sync(receive)()


def seat(table: Table, position: int) -> TableSeat:
    return TableSeat.objects.get(table=table, position=position)


def test_the_host_gives_the_seat_to_the_asking_screen_under_a_new_token(
    django_capture_on_commit_callbacks,
):
    table, tokens = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    assert seat(table, 1).claimed_by == ASKER
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_seat_request(table.code, token=tokens[0], position=1, approve=True)
    ben = seat(table, 1)
    assert ben.token != tokens[1] and ben.claimed_by == "" and ben.claimed_at is None
    assert told(ASKER) == {"type": "seat.granted", "token": ben.token}
    # The new screen opens the seat's new link: its session gets the seat, hand and all.
    phone = Client()
    page = phone.get(reverse("games:rejoin", args=[table.code, ben.token]), follow=True)
    assert "tile--hand" in page.text and "Ben" in page.text
    # The old link and the old session's token no longer hold the seat.
    assert Client().get(reverse("games:rejoin", args=[table.code, tokens[1]])).status_code == 404
    with pytest.raises(services.Refused, match="You do not have a seat"):
        services.act(
            table.code, token=tokens[1], intent=parse({"type": "draw", "version": table.version})
        )


def test_nobody_takes_a_seat_without_an_answer():
    table, tokens = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    assert seat(table, 1).token == tokens[1]  # asked, not given
    with pytest.raises(services.Refused, match="Ana, the host, answers"):
        services.answer_seat_request(
            table.code, token=tokens[2], position=1, approve=True
        )  # Cy is not host
    with pytest.raises(services.Refused, match="You do not have a seat"):
        services.answer_seat_request(
            table.code, token="", position=1, approve=True
        )  # the asker itself
    with pytest.raises(services.Refused, match="Nobody is asking for that seat"):
        services.answer_seat_request(table.code, token=tokens[0], position=2, approve=True)
    assert seat(table, 1).token == tokens[1] and seat(table, 1).claimed_by == ASKER


def test_a_refused_request_tells_the_asker_and_changes_no_seat(django_capture_on_commit_callbacks):
    table, tokens = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_seat_request(table.code, token=tokens[0], position=1, approve=False)
    assert told(ASKER) == {
        "type": "seat.refused",
        "message": "Ana refused your request for Ben's seat.",
    }
    ben = seat(table, 1)
    assert ben.token == tokens[1] and ben.claimed_by == ""
    services.ask_for_seat(
        table.code, token=None, channel=ASKER, position=1
    )  # refused once, it may ask again


@pytest.mark.parametrize(
    ("position", "sentence"),
    [
        (3, "Greedy bot 1 is a bot: only a person's seat can be asked back."),
        (2, "Cy is at the table on their screen now: only the seat of somebody who has left"),
        (5, "This table has seats 1 to 4: there is no seat 6."),
    ],
)
def test_a_request_for_a_bot_a_present_person_or_no_seat_is_refused(position, sentence):
    table, _ = three_people()
    with pytest.raises(services.Refused, match=sentence):
        services.ask_for_seat(table.code, token=None, channel=ASKER, position=position)
    assert not TableSeat.objects.exclude(claimed_by="").exists()


def test_one_request_waits_for_a_seat_and_one_for_a_screen():
    table, tokens = three_people()
    services.disconnect(table.code, channel="socket-2")  # Cy's phone goes too
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    with pytest.raises(services.Refused, match="already asked for Ben's seat: wait"):
        services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    with pytest.raises(services.Refused, match="asked for Ben's seat: cancel that request"):
        services.ask_for_seat(table.code, token=None, channel=ASKER, position=2)
    with pytest.raises(services.Refused, match="Somebody else has asked for Ben's seat"):
        services.ask_for_seat(table.code, token=None, channel="another-socket", position=1)
    with pytest.raises(services.Refused, match="You have a seat at this table already"):
        services.ask_for_seat(table.code, token=tokens[0], channel="socket-0", position=1)
    assert seat(table, 1).claimed_by == ASKER


def test_a_request_left_behind_gives_way_after_a_while():
    table, _ = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    long_ago = timezone.now() - timedelta(seconds=CLAIM_WAITS + 1)
    TableSeat.objects.filter(table=table, position=1).update(claimed_at=long_ago)
    services.ask_for_seat(table.code, token=None, channel="another-socket", position=1)
    assert seat(table, 1).claimed_by == "another-socket"


def test_the_asker_may_cancel_and_a_closed_screen_withdraws_its_request():
    table, _ = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    services.cancel_seat_request(table.code, channel=ASKER)
    assert seat(table, 1).claimed_by == ""
    with pytest.raises(services.Refused, match="You have no request for a seat waiting."):
        services.cancel_seat_request(table.code, channel=ASKER)
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    services.disconnect(table.code, channel=ASKER)
    assert seat(table, 1).claimed_by == ""


@pytest.mark.parametrize(
    ("message", "sentence"),
    [
        ({"type": "ask_seat"}, "A seat is named by its position, a number from 0 to 9."),
        ({"type": "ask_seat", "position": "1"}, "A seat is named by its position"),
        ({"type": "ask_seat", "position": 10}, "A seat is named by its position"),
        ({"type": "answer_seat", "position": 1}, "says approve: true or false"),
        ({"type": "answer_seat", "position": 1, "approve": "yes"}, "says approve: true or"),
    ],
)
def test_a_request_or_answer_of_the_wrong_shape_is_a_bad_message(message, sentence):
    with pytest.raises(BadMessage, match=sentence):
        parse(message)


def test_the_shapes_of_a_request_its_cancel_and_its_answer():
    assert parse({"type": "ask_seat", "position": 1}) == Intent("ask_seat", position=1)
    assert parse({"type": "cancel_ask", "position": "ignored"}) == Intent("cancel_ask")
    answer = parse({"type": "answer_seat", "position": 0, "approve": False})
    assert answer == Intent("answer_seat", position=0, approve=False)


def test_seats_are_asked_back_only_while_the_match_is_played():
    table, _ = services.create_table(rules=Rules(), seat_count=2, host_name="Ana")
    services.join(table.code, name="Ben")
    with pytest.raises(services.Refused, match="only while the match is being played"):
        services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)


def test_with_the_host_away_the_others_answer_and_the_hosts_seat_brings_a_new_host_token(
    django_capture_on_commit_callbacks,
):
    table, tokens = three_people()
    services.disconnect(table.code, channel="socket-0")  # Ana's phone is gone
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_seat_request(
            table.code, token=tokens[2], position=0, approve=True
        )  # Cy vouches
    ana = seat(table, 0)
    new_host = Table.objects.get(pk=table.pk).host_token
    assert ana.token != tokens[0] and new_host != table.host_token
    assert told(ASKER)["token"] == ana.token
    with pytest.raises(services.Refused, match="Only the host"):  # the old session's
        services.hand_to_bot(table.code, host_token=table.host_token, position=1)
    phone = Client()
    phone.get(reverse("games:rejoin", args=[table.code, ana.token]))
    assert "Seat links" in phone.get(reverse("games:table", args=[table.code])).text


def test_a_screen_still_open_on_the_seat_is_told_it_was_replaced(
    django_capture_on_commit_callbacks,
):
    table, tokens = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    services.connect(
        table.code, token=tokens[1], host_token="", channel="old-phone"
    )  # the old phone comes back
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_seat_request(table.code, token=tokens[0], position=1, approve=True)
    assert told("old-phone") == {"type": "seat.replaced"}
    assert seat(table, 1).channel_name == ""  # away until the new screen connects


def test_the_screens_show_the_offer_the_request_and_the_answer_card():
    table, tokens = three_people()
    watching = json.loads(view_message(table.code, None))["html"]
    assert "Is one of these seats yours? Ask for it back" in watching
    assert 'data-claim="ask_seat" data-position="1">I am Ben<' in watching
    assert "I am Cy" not in watching and "I am Greedy" not in watching  # here, or a bot
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    host = json.loads(view_message(table.code, tokens[0], table.host_token))["html"]
    assert "Somebody watching says they are Ben" in host and 'data-approve="true"' in host
    cy = json.loads(view_message(table.code, tokens[2]))["html"]
    assert "Somebody watching" not in cy  # the host is here to answer


def test_the_host_alone_sees_a_seats_private_link_as_a_qr_code():
    table, tokens = three_people()
    host = Client()
    host.get(reverse("games:rejoin", args=[table.code, tokens[0]]))
    page = host.get(reverse("games:table", args=[table.code])).text
    assert "Seat links" in page
    shown = host.get(reverse("games:seat-link", args=[table.code, 1]))
    assert shown.status_code == 200 and "<svg" in shown.text
    assert reverse("games:rejoin", args=[table.code, tokens[1]]) in shown.text
    bot = host.get(reverse("games:seat-link", args=[table.code, 3]))
    assert bot.status_code == 403 and "has no private link" in bot.text
    cy = Client()
    cy.get(reverse("games:rejoin", args=[table.code, tokens[2]]))
    assert "Seat links" not in cy.get(reverse("games:table", args=[table.code])).text
    refused = cy.get(reverse("games:seat-link", args=[table.code, 1]))
    assert refused.status_code == 403 and refused.text == "Only the host can do that."
    assert tokens[1] not in refused.text


def test_the_new_token_is_the_seat_with_its_hand(django_capture_on_commit_callbacks):
    table, tokens = three_people()
    services.ask_for_seat(table.code, token=None, channel=ASKER, position=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_seat_request(table.code, token=tokens[0], position=1, approve=True)
    new = seat(table, 1).token
    shown = screens.screen(table.code, new).data
    assert shown["seat"] == 1 and shown["game"]["hand"] == [
        list(t) for t in table.game().round.hands[1]
    ]
    draw = parse({"type": "draw", "version": table.version})
    with pytest.raises(
        services.Refused, match="It is not your turn"
    ):  # the seat's, not a stranger's
        services.act(table.code, token=new, intent=draw)


# -- over the socket ----------------------------------------------------------------------

over_sockets = pytest.mark.django_db(transaction=True)


async def next_of(player: Player, kind: str) -> dict:
    """The next message of ``kind`` this socket gets, the views before it kept."""
    while (message := await player.next_message())["type"] != kind:
        pass
    return message


async def view_with(player: Player, text: str) -> dict:
    """The next view whose regions show ``text``."""
    while text not in (view := await player.next_view())["html"]:
        pass
    return view


async def table_with_ben_gone() -> tuple[str, dict[str, str], Player]:
    """A started table of Ana (host), Ben and a bot; Ana's socket open, Ben's phone gone."""
    code, _, tokens = await database_sync_to_async(make_table)(bots=("greedy",))
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    return code, tokens, ana


@over_sockets
async def test_a_watcher_asks_the_host_approves_and_the_new_screen_gets_the_seat():
    code, tokens, ana = await table_with_ben_gone()
    new_phone = Player(code, None)
    watching = await new_phone.connect()
    assert "Is one of these seats yours? Ask for it back" in watching["html"]
    await new_phone.send({"type": "ask_seat", "position": 1})
    waiting = await view_with(new_phone, "You asked for Ben's seat")
    assert "Waiting for Ana to answer" in waiting["html"] and waiting["seat"] is None
    card = await view_with(ana, "Somebody watching says they are Ben")
    assert 'data-claim="answer_seat" data-position="1" data-approve="true"' in card["html"]
    await ana.send({"type": "answer_seat", "position": 1, "approve": True})
    granted = await next_of(new_phone, "seat_granted")
    token = await database_sync_to_async(
        lambda: TableSeat.objects.get(table__code=code, position=1).token
    )()
    assert token != tokens["Ben"]
    assert granted["url"] == reverse("games:rejoin", args=[code, token])
    await new_phone.close()
    ben = Player(code, token)  # the page reloads into the seat
    assert (await ben.connect())["game"]["hand"]
    await ben.close()
    await ana.close()


async def ben_asks_on_a_new_phone(code: str, ana: Player) -> Player:
    """Ben, watching on a new phone, asks for his seat; the host's screen shows the request."""
    new_phone = Player(code, None)
    await new_phone.connect()
    await new_phone.send({"type": "ask_seat", "position": 1})
    await view_with(ana, "Somebody watching says they are Ben")
    return new_phone


@over_sockets
async def test_an_old_screen_still_open_is_replaced_and_its_token_holds_nothing():
    code, tokens, ana = await table_with_ben_gone()
    new_phone = await ben_asks_on_a_new_phone(code, ana)
    old_phone = Player(code, tokens["Ben"])  # the old phone comes back meanwhile
    await old_phone.connect()
    await ana.send({"type": "answer_seat", "position": 1, "approve": True})
    assert "another screen" in (await next_of(old_phone, "replaced"))["message"]
    assert await old_phone.socket.receive_output(timeout=1) == {
        "type": "websocket.close",
        "code": 4409,
    }
    await next_of(new_phone, "seat_granted")
    again = Player(code, tokens["Ben"])  # the old token, once more: no seat now
    connected, _ = await again.socket.connect()
    assert connected
    refused = await again.next_message()
    assert refused["message"].startswith("You do not have a seat at this table")
    await new_phone.close()
    await ana.close()


@over_sockets
async def test_a_refused_request_is_told_to_the_asker_who_may_ask_again():
    code, tokens, ana = await table_with_ben_gone()
    new_phone = await ben_asks_on_a_new_phone(code, ana)
    await ana.send({"type": "answer_seat", "position": 1, "approve": False})
    answer = await next_of(new_phone, "seat_refused")
    assert answer["message"] == "Ana refused your request for Ben's seat."
    await view_with(new_phone, "Is one of these seats yours?")
    ben = await database_sync_to_async(TableSeat.objects.get)(table__code=code, position=1)
    assert ben.token == tokens["Ben"] and ben.claimed_by == ""
    await new_phone.close()
    await ana.close()


@over_sockets
async def test_requests_are_refused_with_a_sentence_and_a_closed_asker_withdraws():
    code, tokens, ana = await table_with_ben_gone()
    watcher = Player(code, None)
    await watcher.connect()
    await watcher.send({"type": "ask_seat"})
    assert (await next_of(watcher, "error"))["code"] == "bad_message"
    await watcher.send({"type": "ask_seat", "position": 2})
    bot = await next_of(watcher, "error")
    assert bot["message"] == "Greedy bot 1 is a bot: only a person's seat can be asked back."
    await watcher.send({"type": "answer_seat", "position": 1, "approve": True})
    assert (await next_of(watcher, "error"))["code"] == "spectator"
    await watcher.send({"type": "cancel_ask"})
    assert (await next_of(watcher, "error"))["message"] == "You have no request for a seat waiting."
    await watcher.send({"type": "ask_seat", "position": 1})
    await view_with(ana, "Somebody watching says they are Ben")
    await ana.send({"type": "ask_seat", "position": 1})
    assert (await next_of(ana, "error"))["message"] == "You have a seat at this table already."
    await watcher.close()  # the asking screen goes: its request with it
    while "Somebody watching" in (await ana.next_view())["html"]:
        pass
    claimed = await database_sync_to_async(
        TableSeat.objects.filter(table__code=code).exclude(claimed_by="").count
    )()
    assert claimed == 0
    await ana.close()

"""Web Push end to end, without the internet: a push service on 127.0.0.1 takes what the
app sends, and the test decrypts it as the browser would (tests/games/push_service.py)."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from games import services
from games.alerts import background, push
from games.alerts.models import PushSubscription, SeatAlerts
from games.alerts.sending import after_change, left, seen
from games.engine.tiles import name
from games.forms import parse_intent as parse
from games.models import Table, TableSeat
from tests.games import alerting as push_service
from tests.games.alerting import changed, on_turn, play_until_turn_of, seated_client, subscribe
from tests.games.tables import first_legal_move, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings):
    yield from push_service.serve(settings)


def hand_tiles(table: Table) -> set[str]:
    game = Table.objects.get(pk=table.pk).game()
    return {name(t) for hand in game.round.hands for t in hand}


def test_the_turn_is_pushed_once_encrypted_with_the_link_to_the_seat_and_no_tile(service):
    table, tokens = started_table(seed=7)
    ben = push_service.browser(service, "ben")
    answer = subscribe(seated_client(table, 1), table, ben.subscription())
    assert answer.status_code == 201
    changed(table.code)
    assert service.received == [] or on_turn(table) == 1

    play_until_turn_of(table, tokens, 1)
    assert len(service.received) == 1
    sent = service.received[0]
    assert sent.path == "/push/ben"
    assert sent.headers["authorization"].startswith("vapid t=")
    alert = ben.read(sent)
    seat = TableSeat.objects.get(table=table, position=1)
    assert alert == {
        "title": "Mexican Train",
        "body": "Your turn, Ben: round 1 waits for you.",
        "url": f"/t/{table.code}/rejoin/{seat.token}/",
        "tag": "turn",
    }
    said = alert["body"] + alert["title"]
    assert not any(tile in said for tile in hand_tiles(table)), "a tile of a hand was pushed"
    assert not re.search(r"\d+-\d+", said)

    changed(table.code)  # the same turn, heard again (another process, a restart)
    changed(table.code)
    assert len(service.received) == 1, "a turn alerts once"


def test_a_person_looking_at_the_table_is_not_alerted(service):
    table, tokens = started_table(seed=7)
    ana = push_service.browser(service, "ana")
    ben = push_service.browser(service, "ben")
    subscribe(seated_client(table, 0), table, ana.subscription())
    subscribe(seated_client(table, 1), table, ben.subscription())
    for position, channel in ((0, "socket-ana"), (1, "socket-ben")):
        TableSeat.objects.filter(table=table, position=position).update(channel_name=channel)
        seen(code=table.code, channel=channel, visible=True)

    play_until_turn_of(table, tokens, 1 - on_turn(table))
    play_until_turn_of(table, tokens, 1 - on_turn(table))
    assert service.received == [], "alerts went to people with the table in sight"

    seen(code=table.code, channel="socket-ben", visible=False)  # Ben's phone is locked
    left(channel="socket-ana")  # Ana's page is closed
    play_until_turn_of(table, tokens, 1 - on_turn(table))
    play_until_turn_of(table, tokens, 1 - on_turn(table))
    assert sorted(m.path for m in service.received) == ["/push/ana", "/push/ben"]


def test_a_slow_push_service_does_not_hold_the_change_that_alerts(service):
    table, tokens = started_table(seed=7)
    ben = push_service.browser(service, "ben")
    subscribe(seated_client(table, 1), table, ben.subscription())
    service.slow["/push/ben"] = 3
    while on_turn(table) != 1:
        token = tokens[on_turn(table)]
        services.act(table.code, token=token, intent=parse(first_legal_move(table, token)))
        began = time.monotonic()
        after_change(code=table.code)
        assert time.monotonic() - began < 1.5, "the hook waited for the push service"
    background.settle()
    assert [m.path for m in service.received] == ["/push/ben"]


@pytest.mark.django_db(transaction=True)  # deleted by the alerts' thread, on its connection
def test_a_subscription_the_push_service_says_is_gone_is_deleted(service):
    table, tokens = started_table(seed=7)
    ben = push_service.browser(service, "ben")
    subscribe(seated_client(table, 1), table, ben.subscription())
    service.answers["/push/ben"] = 410
    play_until_turn_of(table, tokens, 1)
    assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


def test_a_seat_given_to_another_device_no_longer_alerts_the_old_one(service):
    table, tokens = started_table(seed=7)
    ben = push_service.browser(service, "ben")
    subscribe(seated_client(table, 1), table, ben.subscription())
    TableSeat.objects.filter(table=table, position=1).update(token="a-new-device-token")
    tokens[1] = "a-new-device-token"
    play_until_turn_of(table, tokens, 1)
    assert service.received == []
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://10.0.0.5/push/x",  # a private address
        "https://192.168.1.1/push/x",
        "https://169.254.169.254/latest/meta-data",
        "http://fcm.googleapis.com/fcm/send/x",  # plain http to a push service's host
        "https://evil.example.com/fcm.googleapis.com/x",  # another host
        "https://fcm.googleapis.com.evil.example.com/x",
        "https://user@fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com:8443/fcm/send/x",
        "http://127.0.0.1:1/push/x",  # the test's own host, on a port not allowed
        "ftp://fcm.googleapis.com/x",
        "not a url",
    ],
)
def test_a_subscription_off_the_allowed_list_is_refused_and_never_posted_to(service, endpoint):
    table, tokens = started_table(seed=7)
    browser = push_service.browser(service, "ben")
    offered = {**browser.subscription(), "endpoint": endpoint}
    answer = subscribe(seated_client(table, 1), table, offered)
    assert answer.status_code == 400
    assert "not one this site sends to" in answer.json()["message"]
    assert not PushSubscription.objects.exists()
    play_until_turn_of(table, tokens, 1)
    assert service.received == []


def test_the_browser_push_services_are_allowed_and_nothing_else_by_default():
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://wns2-db5p.notify.windows.com/w/?token=abc",
        "https://web.push.apple.com/QGuQyavXutnMH",
    ):
        assert push.allowed(endpoint), endpoint
    assert not push.allowed("http://127.0.0.1:8000/push")


def test_only_a_seated_person_subscribes_with_readable_keys(service):
    table, _ = started_table(seed=7)
    browser = push_service.browser(service, "ben")
    assert subscribe(Client(), table, browser.subscription()).status_code == 403
    ben = seated_client(table, 1)
    bad_keys = {**browser.subscription(), "keys": {"p256dh": "abc", "auth": "def"}}
    assert subscribe(ben, table, bad_keys).status_code == 400
    assert (
        ben.post(f"/t/{table.code}/push/", "{", content_type="application/json").status_code == 400
    )
    assert not PushSubscription.objects.exists()
    assert subscribe(ben, table, browser.subscription()).status_code == 201
    stop = ben.post(
        f"/t/{table.code}/push/stop/",
        {"endpoint": browser.endpoint},
        content_type="application/json",
    )
    assert stop.status_code == 200
    assert not PushSubscription.objects.exists()


def test_a_subscription_goes_with_its_seat_and_its_table(service):
    table, _ = started_table(seed=7)
    subscribe(seated_client(table, 1), table, push_service.browser(service, "ben").subscription())
    SeatAlerts.objects.create(seat=table.seats.get(position=1), email="ben@example.com")
    Table.objects.filter(pk=table.pk).update(match=None)
    table.delete()
    assert not PushSubscription.objects.exists() and not SeatAlerts.objects.exists()


def test_the_vapid_command_prints_a_key_the_app_signs_with(settings, capsys):
    from django.core.management import call_command

    call_command("vapid_keys")
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("VAPID_PRIVATE_KEY=")
    settings.VAPID_PRIVATE_KEY = line.split("=", 1)[1]
    assert len(push.unb64url(push.public_key())) == 65

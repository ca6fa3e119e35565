"""The nudge: anyone seated at an own-pace table reminds the person on turn, at most once
an hour a table, through the same alerts (here a push, decrypted as the browser would)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.alerts import background
from games.alerts.models import TableNudge
from games.alerts.sending import NotSent, nudge, seen
from games.models import Pace, Table, TableSeat
from tests.games import alerting
from tests.games.alerting import on_turn, seated_client, subscribe
from tests.games.tables import started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings):
    yield from alerting.serve(settings)


def own_pace_table() -> tuple[Table, dict[int, str]]:
    table, tokens = started_table(seed=7)
    Table.objects.filter(pk=table.pk).update(pace=Pace.OWN, turn_limit=24 * 3600)
    table.refresh_from_db()
    return table, tokens


def press_nudge(client: Client, table: Table):
    answer = client.post(f"/t/{table.code}/nudge/", HTTP_HX_REQUEST="true")
    background.settle()
    return answer


def test_a_nudge_alerts_the_person_on_turn_naming_who_nudged_once_an_hour(service):
    table, tokens = own_pace_table()
    turn = on_turn(table)
    waiting, nudger = table.seats.get(position=turn), table.seats.get(position=1 - turn)
    browser = alerting.browser(service, "on-turn")
    subscribe(seated_client(table, turn), table, browser.subscription())
    other = seated_client(table, 1 - turn)

    answer = press_nudge(other, table)
    assert answer.status_code == 200 and answer.text == f"{waiting.name} has been nudged."
    assert len(service.received) == 1
    alert = browser.read(service.received[0])
    assert alert["body"] == f"{nudger.name} nudges you, {waiting.name}: it is your turn in round 1."
    assert alert["url"] == f"/t/{table.code}/rejoin/{waiting.token}/"

    again = press_nudge(other, table)
    assert again.status_code == 422
    assert f"{nudger.name} nudged at this table less than an hour ago" in again.text
    assert len(service.received) == 1
    later = timezone.now() + timedelta(minutes=61)
    assert nudge(code=table.code, token=tokens[1 - turn], now=later) == waiting
    background.settle()
    assert len(service.received) == 2


@pytest.mark.parametrize(
    "case, words",
    [
        ("own turn", "It is your own turn"),
        ("live table", "tables played at your own pace"),
        ("spectator", "Only a person seated at the table can nudge"),
        ("in sight", "has the table open now"),
    ],
)
def test_a_nudge_that_cannot_help_is_refused_with_a_reason_and_sends_nothing(service, case, words):
    table, tokens = own_pace_table()
    turn = on_turn(table)
    subscribe(seated_client(table, turn), table, alerting.browser(service, "x").subscription())
    client = seated_client(table, 1 - turn)
    if case == "own turn":
        client = seated_client(table, turn)
    elif case == "live table":
        Table.objects.filter(pk=table.pk).update(pace=Pace.LIVE, turn_limit=None)
    elif case == "spectator":
        client = Client()
    else:
        TableSeat.objects.filter(table=table, position=turn).update(channel_name="socket")
        seen(code=table.code, channel="socket", visible=True)
    answer = press_nudge(client, table)
    assert answer.status_code == 422 and words in answer.text
    assert service.received == []
    assert not TableNudge.objects.exists()
    with pytest.raises(NotSent):
        nudge(code=table.code, token="", now=timezone.now())

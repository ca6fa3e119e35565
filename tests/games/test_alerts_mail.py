"""Alerts by e-mail, through Django's locmem backend: an address per person per table, at
most one mail an hour (what comes meanwhile waits for the next), and a signed one-click
unsubscribe link (RFC 8058) that works without a login for its own person and table alone."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail as outbox
from django.test import Client
from django.utils import timezone

from games.alerts.mail import send_due_mail, stop_token
from games.alerts.models import SeatAlerts
from games.engine.tiles import name
from games.models import Table, TableSeat
from tests.games.alerting import on_turn, play_until_turn_of, seated_client
from tests.games.tables import started_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = "https://trains.example.com"


def give_address(client: Client, table: Table, address: str):
    return client.post(f"/t/{table.code}/mail/", {"email": address}, HTTP_HX_REQUEST="true")


def stop_link(message) -> str:
    return re.fullmatch(
        r"<https://trains\.example\.com(/t/.+/)>", message.extra_headers["List-Unsubscribe"]
    )[1]


def test_an_address_is_checked_and_kept_for_its_own_seat_alone():
    table, _ = started_table(seed=7)
    assert give_address(Client(), table, "ben@example.com").status_code == 403
    ben = seated_client(table, 1)
    refused = give_address(ben, table, "ben at example")
    assert refused.status_code == 422 and "not an e-mail address" in refused.text
    assert not SeatAlerts.objects.exclude(email="").exists()
    answer = give_address(ben, table, "ben@example.com")
    assert answer.status_code == 200 and "ben@example.com" in answer.text
    assert SeatAlerts.objects.get(email="ben@example.com").seat.name == "Ben"
    ana_page = seated_client(table, 0).get(f"/t/{table.code}/")
    assert "ben@example.com" not in ana_page.text, "an address shown to another person"
    assert "ben@example.com" in ben.get(f"/t/{table.code}/").text


def test_one_mail_an_hour_the_rest_waits_for_the_next():
    table, tokens = started_table(seed=7)
    give_address(seated_client(table, 1), table, "ben@example.com")
    play_until_turn_of(table, tokens, 1)
    assert len(outbox.outbox) == 1
    first = outbox.outbox[0]
    ben = TableSeat.objects.get(table=table, position=1)
    assert first.to == ["ben@example.com"]
    assert first.subject == "Mexican Train: Your turn, Ben: round 1 waits for you."
    assert "Your turn, Ben: round 1 waits for you." in first.body
    assert f"https://trains.example.com/t/{table.code}/rejoin/{ben.token}/" in first.body
    assert first.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert stop_link(first) in first.body
    game = Table.objects.get(pk=table.pk).game()
    tiles = {name(t) for hand in game.round.hands for t in hand}
    assert not any(t in first.body or t in first.subject for t in tiles)

    play_until_turn_of(table, tokens, 1 - on_turn(table))  # Ben's next turn, within the hour
    play_until_turn_of(table, tokens, 1)
    assert len(outbox.outbox) == 1, "a second mail within the hour"
    assert len(SeatAlerts.objects.get(seat=ben).mail_waiting) == 1

    now = timezone.now()
    assert send_due_mail(now=now + timedelta(minutes=30)) == 0
    assert send_due_mail(now=now + timedelta(minutes=61)) == 1
    assert len(outbox.outbox) == 2
    assert outbox.outbox[1].body.count("Your turn, Ben") == 1
    assert send_due_mail(now=now + timedelta(minutes=122)) == 0, "nothing waits: no mail"
    assert SeatAlerts.objects.get(seat=ben).mail_after is None  # the next alert goes at once


def test_the_unsubscribe_link_works_without_a_login_for_its_own_person_and_table_alone():
    table, tokens = started_table(seed=7)
    other, _ = started_table(seed=8)
    give_address(seated_client(table, 0), table, "ana@example.com")
    give_address(seated_client(table, 1), table, "ben@example.com")
    play_until_turn_of(table, tokens, 1)
    link = stop_link(next(m for m in outbox.outbox if m.to == ["ben@example.com"]))
    nobody = Client(enforce_csrf_checks=True)  # a mail client: no session, no CSRF token

    assert nobody.get(link).status_code == 200  # a scanner following the link stops nothing
    assert SeatAlerts.objects.filter(email="ben@example.com").exists()
    ben = TableSeat.objects.get(table=table, position=1)
    elsewhere = link.replace(f"/t/{table.code}/", f"/t/{other.code}/")
    assert nobody.post(elsewhere, {"List-Unsubscribe": "One-Click"}).status_code == 404
    forged = link.replace(link.split("/")[-2], stop_token(ben, "ben@example.com")[:-3] + "abc")
    assert nobody.post(forged, {"List-Unsubscribe": "One-Click"}).status_code == 404
    assert SeatAlerts.objects.filter(email="ben@example.com").exists()

    done = nobody.post(link, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and "Ben gets no more mail" in done.text
    assert not SeatAlerts.objects.filter(email="ben@example.com").exists()
    assert SeatAlerts.objects.filter(email="ana@example.com").exists(), "it stopped another"

    sent = len(outbox.outbox)
    play_until_turn_of(table, tokens, 0)
    play_until_turn_of(table, tokens, 1)
    assert all(m.to != ["ben@example.com"] for m in outbox.outbox[sent:])

    give_address(seated_client(table, 1), table, "ben@new.example.com")  # a new address
    assert nobody.post(link).status_code == 404, "an old link stopped a new address"
    assert SeatAlerts.objects.filter(email="ben@new.example.com").exists()

"""The deal's shares in Chromium: the page that takes a seat adds its own random share
(static/games/deal.js), and the lobby shows its hash beside the name."""

from __future__ import annotations

import hashlib
import time

import pytest
from playwright.sync_api import expect

from games.models import Table

from .test_table import MATCH_TIMEOUT, create_table, match_over, take_turn

pytestmark = pytest.mark.browser


def test_each_browser_that_takes_a_seat_adds_its_own_share(asgi_server, browser, phone, server_db):
    ana, ben = browser.new_context().new_page(), phone().new_page()
    link = create_table(ana, asgi_server.url)
    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")

    table = Table.objects.using(server_db).get(code=link.rstrip("/").rsplit("/", 1)[1])
    seats = list(table.seats.using(server_db).order_by("position"))
    assert [s.contribution_by_server for s in seats] == [False, False]
    assert seats[0].contribution != seats[1].contribution
    for page in (ana, ben):
        expect(page.get_by_text(table.deal_commitment)).to_be_visible()
        for seat in seats:
            share = hashlib.sha256(seat.contribution.encode()).hexdigest()[:16]
            expect(page.locator(".place", has_text=seat.name)).to_contain_text(share)
        expect(page.locator(".place", has_text="Ben")).to_contain_text("from their browser")
    assert table.deal_secret not in ana.content() + ben.content()


def test_on_a_phone_the_finished_match_replays_and_its_deal_checks(asgi_server, phone, server_db):
    """Ana and Ben play a one-round match on phones; from the end card Ben opens the
    match's page, steps through the round, and checks the deal with the revealed secret."""
    ana, ben = phone().new_page(), phone().new_page()
    link = create_table(ana, asgi_server.url, rounds=1)
    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    start = ana.get_by_role("button", name="Start the match with 2 players")
    expect(start).to_be_visible()
    start.click()
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not (match_over(ana) and match_over(ben)):
        assert time.monotonic() < deadline, "the match did not end in time"
        if not any([take_turn(page) for page in (ana, ben)]):
            ana.wait_for_timeout(100)
    ben.locator("#table-round").get_by_role("link", name="The match, move by move").click()
    expect(ben.get_by_text("Step 0 of")).to_be_visible()
    ben.get_by_role("link", name="Next").click()
    expect(ben.get_by_text("Step 1 of")).to_be_visible()
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways
    ben.get_by_role("link", name="Check the deal").click()
    secret = Table.objects.using(server_db).get(code=link.rstrip("/").rsplit("/", 1)[1])
    expect(ben.get_by_text(secret.deal_secret)).to_be_visible()
    expect(ben.get_by_text("Every round's deal is the one")).to_be_visible()
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390

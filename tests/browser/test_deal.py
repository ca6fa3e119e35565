"""The deal's shares in Chromium: the page that takes a seat adds its own random share
(static/games/deal.js), and the lobby shows its hash beside the name."""

from __future__ import annotations

import hashlib

import pytest
from playwright.sync_api import expect

from games.models import Table

from .test_table import create_table

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

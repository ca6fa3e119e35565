""" "Your tables" on a phone, in Chromium: Ana sits at two tables with Ben, opens the list,
and as the turn moves on at each table (played on the tables' own pages) the list follows
without a reload, over its own socket (against daphne, so the socket is the real one)."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Table
from tests.browser.axe import assert_accessible
from tests.browser.test_table import until_live

from .test_table import DEAL, LAPTOP, create_table, take_turn

pytestmark = pytest.mark.browser

TURN_TIMEOUT = 30  # seconds; a first turn's line is a few clicks


def open_with_ben(ana: Page, ben: Page, url: str, server_db: str) -> str:
    """Ana opens a table for two, Ben takes the other seat, Ana starts (a fixed deal):
    the table's code."""
    link = create_table(ana, url)
    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    code = link.rstrip("/").rsplit("/", 1)[1]
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
    start = ana.get_by_role("button", name="Start the match with 2 players")
    expect(start).to_be_visible()
    start.click()
    for page in (ana, ben):
        expect(page.locator("#table-board")).to_be_visible()
    return code


def play_turn(page: Page) -> None:
    """Click until this seat's turn has passed on (a first turn's line takes several)."""
    expect(page.locator("#table-dock.dock--mine")).to_have_count(1)
    deadline = time.monotonic() + TURN_TIMEOUT
    while page.locator("#table-dock.dock--mine").count():
        assert time.monotonic() < deadline, "the turn did not pass on in time"
        if not take_turn(page):
            page.wait_for_timeout(100)


def test_the_list_on_a_phone_follows_the_turn_at_two_tables(asgi_server, browser, phone, server_db):
    ana_phone, ben_laptop = phone(), browser.new_context(viewport=LAPTOP)
    codes, ana_tables, ben_tables = [], [], []
    for _ in range(2):
        ana, ben = ana_phone.new_page(), ben_laptop.new_page()
        codes.append(open_with_ben(ana, ben, asgi_server.url, server_db))
        ana_tables.append(ana)
        ben_tables.append(ben)
    first, second = codes

    # The second table is played at its own pace: an hour a turn, the turn on due in one.
    due = timezone.now() + timedelta(hours=1)
    at_own_pace = Table.objects.using(server_db).filter(code=second)
    at_own_pace.update(pace="own", turn_limit=3600, turn_due_at=due)
    tables = ana_phone.new_page()
    until_live(tables, lambda: tables.goto(f"{asgi_server.url}/tables/"))  # the list, once open
    rows = [tables.locator(f"#your-table-{code}") for code in codes]
    expect(tables.locator(".your-table")).to_have_count(2)
    assert tables.locator(".your-table").first.get_attribute("data-code") == second  # newest
    for row in rows:
        expect(row).to_contain_text("Your turn.")
        expect(row).to_contain_text("Round 1 of 2")
    expect(rows[0]).to_contain_text("Live.")
    expect(rows[1]).to_contain_text("At your own pace.")
    clock = rows[1].locator("time")
    expect(clock).to_have_text(re.compile(r"^5\d minutes \d+ seconds? left$"))
    said = clock.inner_text()
    expect(clock).not_to_have_text(said)  # the page counts it down
    expect(rows[0].locator("time")).to_have_count(0)  # no clock: no time left
    tables.evaluate("window.notReloaded = true")
    assert_accessible(tables)
    assert tables.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways

    play_turn(ana_tables[0])
    expect(rows[0]).to_contain_text("Ben to play.")
    expect(rows[1]).to_contain_text("Your turn.")
    play_turn(ana_tables[1])
    expect(rows[1]).to_contain_text("Ben to play.")
    play_turn(ben_tables[0])
    expect(rows[0]).to_contain_text("Your turn.")
    expect(rows[1]).to_contain_text("Ben to play.")
    assert tables.evaluate("window.notReloaded") is True  # followed live, not reloaded
    tables.set_viewport_size({"width": 320, "height": 640})  # the narrowest phone
    assert tables.evaluate("document.documentElement.scrollWidth") <= 320

    rows[0].get_by_role("link").click()  # each row leads back to the seat
    expect(tables).to_have_url(f"{asgi_server.url}/t/{first}/")
    expect(tables.locator(".member--me")).to_contain_text("Ana (you)")

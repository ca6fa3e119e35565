"""A table closed for lack of play, as a person finds it on a narrow phone: the card and the
status line say why and after how long, the totals so far are there, nothing offers a move,
and the page neither scrolls sideways nor fails axe."""

from __future__ import annotations

import re

import pytest
from django.db.models import F
from playwright.sync_api import expect

from games.models import Table
from tests.browser.axe import assert_accessible
from tests.browser.test_fixes import open_table_with_bots
from tests.browser.test_table import until_live

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}


def test_a_closed_table_says_why_on_a_narrow_phone(asgi_server, browser, server_db):
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    code = open_table_with_bots(page, asgi_server.url, server_db, seats=2, tiles="6")
    # As services.close_abandoned closes it, in the server's own database (its process's
    # sockets hear nothing of this one's announcements): the page then loads it closed.
    Table.objects.using(server_db).filter(code=code).update(
        status=Table.Status.ABANDONED,
        version=F("version") + 1,
        revision=F("revision") + 1,
        next_round_at=None,
    )
    page.set_viewport_size(NARROW)
    until_live(page, page.reload)
    card = page.get_by_role("dialog", name="This table was closed")
    expect(card).to_contain_text("Nobody played for 24 hours")
    expect(card.get_by_role("columnheader", name="Total so far")).to_be_visible()
    expect(page.locator("#table-status")).to_have_text(re.compile("^Nobody played for 24 hours"))
    expect(page.locator(".tile--hand, [data-intent]")).to_have_count(0)
    expect(page.get_by_text("Invite friends")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    assert_accessible(page)
    card.get_by_role("button", name="Close, to look at the board").click()
    expect(card).to_be_hidden()
    expect(page.locator("#table-board")).to_be_visible()

"""The coach in Chromium: Ana plays a round against a bot, the round-end card tells her what
her decisions cost once the coach has weighed them, and its link opens her review, which
steps through each marked decision (against daphne, with the coach's thread of the
embedded default; tests/browser/conftest.py sets it to mark any decision that cost
something)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import RoundReview, Table

from .test_table import DEAL, LAPTOP, MATCH_TIMEOUT, create_table, match_over, take_turn

pytestmark = pytest.mark.browser


def test_a_round_against_a_bot_is_reviewed_decision_by_decision(asgi_server, browser, server_db):
    laptop = browser.new_context(viewport=LAPTOP)
    ana = laptop.new_page()
    link = create_table(ana, asgi_server.url, seats=2, rounds=1)
    code = link.rstrip("/").rsplit("/", 1)[1]
    ana.get_by_role("button", name="Add a greedy bot").click()
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
    start = ana.get_by_role("button", name="Start the match with 2 players")
    expect(start).to_be_visible()
    start.click()
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not match_over(ana):
        assert time.monotonic() < deadline, "the match did not end in time"
        if not take_turn(ana):
            ana.wait_for_timeout(100)

    card = ana.locator("#table-round")
    expect(card.locator(".coach")).to_contain_text(re.compile(r"\d+ decisions? cost you about"))
    review = RoundReview.objects.using(server_db).get(table__code=code)
    marked = review.decisions.using(server_db).filter(seat=0, marked=True).count()
    assert marked >= 1 and review.status == RoundReview.Status.DONE
    card.get_by_role("link", name="see why").click()

    for number in range(1, marked + 1):
        expect(ana.get_by_role("heading", name=f"Decision {number} of {marked}")).to_be_visible()
        expect(ana.get_by_text("The expert preferred")).to_be_visible()
        expect(ana.get_by_role("heading", name="Your hand")).to_be_visible()
        hand = ana.locator(".coach-board .row").last.locator(".domino")
        boxes = hand.evaluate_all("tiles => tiles.map(t => t.getBoundingClientRect().toJSON())")
        assert len({box["top"] for box in boxes}) == 1  # the hand stands in a row
        assert all(box["width"] >= 24 and box["height"] >= 48 for box in boxes)  # readable
        if number < marked:
            ana.get_by_role("link", name="Next decision").click()
    expect(ana.get_by_role("link", name="Next decision")).to_have_count(0)
    laptop.close()

"""Playing again in Chromium: Ana, Ben and a bot play a one-round match to its end; both
people press Play again, the bot's seat is filled again, and the next match starts at the
same link, while the finished match's score sheet stays a click away (against daphne, so
the socket that sends the pages on is the real one)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Table

from .test_table import DEAL, LAPTOP, MATCH_TIMEOUT, create_table, match_over, take_turn

pytestmark = pytest.mark.browser


def test_two_people_and_a_bot_play_again_at_the_same_link(asgi_server, browser, phone, server_db):
    laptop = browser.new_context(viewport=LAPTOP)
    ana, ben = laptop.new_page(), phone().new_page()
    link = create_table(ana, asgi_server.url, seats=3, rounds=1)
    code = link.rstrip("/").rsplit("/", 1)[1]
    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    ana.get_by_role("button", name="Add a greedy bot").click()
    Table.objects.using(server_db).filter(code=code).update(seed=DEAL)
    start = ana.get_by_role("button", name="Start the match with 3 players")
    expect(start).to_be_visible()
    start.click()
    for page in (ana, ben):
        expect(page.locator("#table-board")).to_be_visible()

    deadline = time.monotonic() + MATCH_TIMEOUT
    while not (match_over(ana) and match_over(ben)):
        assert time.monotonic() < deadline, "the match did not end in time"
        if not any([take_turn(page) for page in (ana, ben)]):
            ana.wait_for_timeout(100)
    totals = ana.locator("#table-sheet tfoot td").all_inner_texts()

    # Ben presses first: the next match opens with the bot seated again, and Ana's page,
    # still on the finished table, is sent there and offers her seat.
    ben.locator("#table-round").get_by_role("button", name="Play again").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    rematch = Table.objects.using(server_db).get(rematch_of__code=code)
    next_link = f"{asgi_server.url}/t/{rematch.code}/"
    expect(ana).to_have_url(next_link)
    expect(ana.locator("#table-lobby")).to_contain_text("Greedy bot 1")
    ana.get_by_role("button", name="Play again as Ana").click()
    expect(ana.locator(".place--me")).to_contain_text("Ana (you)")
    expect(ben.locator("#table-lobby")).to_contain_text("Ana")  # live, on Ben's screen

    ana.goto(link)  # the same link leads to the next match, with the host's controls
    expect(ana).to_have_url(next_link)
    start = ana.get_by_role("button", name="Start the match with 3 players")
    expect(start).to_be_visible()
    start.click()
    for page in (ana, ben):
        expect(page.locator("#table-board")).to_be_visible()
        expect(page.locator(".tile--hand").first).to_be_visible()
    expect(ana.locator("#table-sheet")).to_contain_text("No round has been scored yet.")

    # The finished match's sheet is linked from the new table's page, and unchanged.
    ben.get_by_role("link", name="The last match's score sheet").click()
    expect(ben.locator("tfoot td")).to_have_text(totals)

    finished = Table.objects.using(server_db).get(code=code)
    rematch.refresh_from_db(using=server_db)
    assert finished.status == Table.Status.FINISHED and finished.moves.using(server_db).exists()
    assert rematch.status == Table.Status.PLAYING and rematch.match_id != finished.match_id
    names = rematch.seats.using(server_db).order_by("position").values_list("name", "kind")
    assert list(names) == [("Ana", "human"), ("Ben", "human"), ("Greedy bot 1", "bot")]
    laptop.close()

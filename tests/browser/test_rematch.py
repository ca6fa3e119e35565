"""Playing again in Chromium: Ana, Ben and a bot play a one-round match to its end; the host
presses Play again and Ben, still reading the results, is told and takes his seat; the
bot's seat is filled again, and the next match starts, reached from the finished match's
link too, while its score sheet stays a click away (against daphne, so the socket that
tells the pages is the real one)."""

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
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
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

    # Ana, the host, presses first: her page goes to the next match's lobby, with the bot
    # seated again. Ben's page stays on the finished match, its results as they were, and
    # says who started the next one, over the top bar and clear of the end card.
    card = ben.locator("#table-round")
    results = card.locator(".results tr").all_text_contents()
    expect(card).to_contain_text("at a new link that this table's link leads to as well")
    ana.locator("#table-round").get_by_role("button", name="Play again").click()
    expect(ana.locator(".place--me")).to_contain_text("Ana (you)")
    rematch = Table.objects.using(server_db).get(rematch_of__code=code)
    next_link = f"{asgi_server.url}/t/{rematch.code}/"
    expect(ana).to_have_url(next_link)
    expect(ana.locator("#table-lobby")).to_contain_text("Greedy bot 1")
    notice = ben.locator("#table-rematch")
    expect(notice).to_have_text("Ana started a new match: take your seat. Take your seat")
    expect(ben).to_have_url(link)
    expect(card).to_be_visible()
    expect(card.locator(".results tr")).to_have_text(results)
    assert card.bounding_box()["y"] >= notice.bounding_box()["y"] + notice.bounding_box()["height"]
    notice.get_by_role("button", name="Take your seat").click()
    expect(ben).to_have_url(next_link)
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    expect(ana.locator("#table-lobby")).to_contain_text("Ben")  # live, on Ana's screen

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

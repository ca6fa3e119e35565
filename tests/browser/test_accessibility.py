"""Every page passes axe-core (tests/browser/axe.py) with no serious or critical violation,
contrast included: the home page, the forms that open a table and a score sheet, the table
in its lobby and mid-game (for a seat and for a spectator), the score sheet (the question,
the sheet, its editor and the TV view) and the staff's replay of a match in the admin."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.test_fixes import LINE_DEAL, open_table_with_bots, pick_a_playable_tile
from tests.browser.test_score_sheet import cell, create_match
from tests.review.conftest import play_online_match

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
# A late round's train, longer than a phone is wide: copies of the engine's drawing added to
# a row that no tile reaches now, so that it scrolls sideways with nothing in it to focus (at
# the first turn every train is empty).
LONG_TRAIN = """() => {
  const row = document.querySelector('.lane__row:has(.slot:disabled)')  // no button to focus
  const engine = document.querySelector('.table-top__engine svg')
  for (let i = 0; i < 20; i++) {
    const tile = document.createElement('span')
    tile.className = 'tile tile--laid'
    tile.append(engine.cloneNode(true))
    row.prepend(tile)
  }
}"""
LONG_ROW_WIDTH = "() => document.querySelector('.lane__row:has(.slot:disabled)').scrollWidth"


def test_the_home_page_and_the_forms(asgi_server, phone):
    page = phone().new_page()
    for path in ("/", "/t/new/", "/s/new/"):
        page.goto(asgi_server.url + path)
        assert_accessible(page)
        if path == "/":  # the staff's review is a footer link, not a card for players
            expect(page.get_by_role("link", name="Staff: review past matches")).to_be_visible()
    page.get_by_role("button", name="Start the score sheet").click()  # refused: no names
    expect(page.locator(".errors")).to_be_visible()
    assert_accessible(page)


def test_the_table_in_its_lobby_and_mid_game_for_a_seat_and_a_spectator(
    asgi_server, browser, phone, server_db
):
    laptop = browser.new_context(viewport=LAPTOP)
    ana = laptop.new_page()
    ana.goto(f"{asgi_server.url}/t/new/")
    ana.get_by_label("Your name", exact=True).fill("Ana")
    ana.get_by_label("Seats", exact=True).select_option("3")
    ana.get_by_role("button", name="Open the table").click()
    expect(ana.get_by_role("heading", name="Seats")).to_be_visible()
    assert_accessible(ana)  # the host's lobby
    watcher = phone().new_page()
    watcher.goto(ana.url)
    expect(watcher.get_by_role("button", name="Take the seat")).to_be_visible()
    assert_accessible(watcher)  # a cold link in the lobby
    watcher.get_by_role("button", name="Take the seat").click()  # no name typed
    expect(watcher.get_by_text("Type your name to join.")).to_be_visible()
    assert_accessible(watcher)

    seat = laptop.new_page()
    open_table_with_bots(seat, asgi_server.url, server_db, seats=2, tiles="6", seed=LINE_DEAL)
    expect(seat.locator("#table-dock.dock--mine")).to_be_visible()
    assert_accessible(seat)  # a seat, on its turn
    pick_a_playable_tile(seat)
    assert_accessible(seat)  # a tile picked, its slots lit
    seat.set_viewport_size({"width": 390, "height": 844})
    assert_accessible(seat)  # the same on a phone
    expect(seat.get_by_role("heading", level=1)).to_have_count(1)  # the screen has a title
    seat.evaluate(LONG_TRAIN)
    assert seat.evaluate(LONG_ROW_WIDTH) > 390
    assert_accessible(seat)  # a row that scrolls is reachable by keyboard
    spectator = phone().new_page()
    spectator.goto(seat.url)
    expect(spectator.locator(".dock__watching")).to_be_visible()
    assert_accessible(spectator)
    laptop.close()


def test_the_score_sheet_its_editor_and_the_tv_view(asgi_server, phone, server_db):
    ana, other = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben", "Cy"])
    cell(ana, 1, 1).click()
    ana.locator("#editor").get_by_label("Pips left in hand").fill("12")
    ana.locator("#editor").get_by_role("button", name="Save count").click()
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("12")
    assert_accessible(ana)
    cell(ana, 1, 0).click()
    ana.locator("#editor").get_by_text("Or tap the tiles you hold").click()
    assert_accessible(ana)  # the editor open, with its tile picker

    other.goto(link)
    expect(other.get_by_role("heading", name="Who are you?")).to_be_visible()
    assert_accessible(other)
    tv = ana.locator("a.link[href*='/w/']").get_attribute("href")
    other.goto(tv)
    expect(other.locator("#sheet")).to_be_visible()
    assert_accessible(other)


@pytest.mark.django_db(transaction=True)
def test_the_admin_replay_of_a_match(live_server, browser, admin_user):
    # The match is played through the services, whose announcements call async_to_sync:
    # not in this thread, where Playwright's event loop runs.
    with ThreadPoolExecutor(max_workers=1) as worker:
        match = worker.submit(play_online_match).result()
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(live_server.url + reverse("admin:login"))
    page.get_by_label("Username").fill(admin_user.username)
    page.get_by_label("Password").fill("password")
    page.get_by_role("button", name="Log in").click()
    for step in ("", "?step=3"):
        page.goto(
            live_server.url + reverse("admin:scoring_match_replay", args=[match.pk, 1]) + step
        )
        expect(page.locator("#content")).to_be_visible()
        assert_accessible(page)
    page.context.close()


def test_the_table_and_the_sheet_in_dark_mode(asgi_server, browser, server_db):
    """The same checks with the phone's dark theme: its colours are other variables."""
    dark = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    seat = dark.new_page()
    open_table_with_bots(seat, asgi_server.url, server_db, seats=2, tiles="6", seed=LINE_DEAL)
    pick_a_playable_tile(seat)
    assert_accessible(seat)
    keeper = dark.new_page()
    create_match(keeper, asgi_server.url, ["Ana", "Ben"])
    cell(keeper, 1, 1).click()
    keeper.locator("#editor").get_by_label("Pips left in hand").fill("12")
    keeper.locator("#editor").get_by_role("button", name="Save count").click()
    expect(cell(keeper, 1, 1).locator(".score")).to_have_text("12")
    assert_accessible(keeper)
    dark.close()

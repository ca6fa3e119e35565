"""What just happened, and your turn, in Chromium against daphne: Ana plays a greedy bot
while somebody watches. Each screen shows the others' last moves and marks their tiles;
screen readers are told each move and whose turn it is through the live regions the page
writes (#table-said politely, #table-call assertively for the seat's own turn), never on a
load; a hidden page's title says it is your turn; the turn alert's choice is kept.

Headless Chromium shows every page as visible, so a hidden page is emulated: the test
overrides document.visibilityState and document.hidden and dispatches visibilitychange,
which is all the page's script reads."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Table
from tests.browser.test_table import LAPTOP, PLAY_LINE, click, create_table, until_live

pytestmark = pytest.mark.browser

DEAL = 7  # the table's seed: the same moves on every run
TURN_TITLE = "● Your turn — Mexican Train"
HIDE = """hidden => {
  const state = () => hidden ? 'hidden' : 'visible'
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: state})
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden})
  document.dispatchEvent(new Event('visibilitychange'))
}"""


def start_against_a_bot(page: Page, url: str, server_db: str) -> str:
    """Ana opens a two-seat table, double-6 set, two rounds, fills the other seat with a
    greedy bot and starts: returns the table's link."""
    link = create_table(page, url)
    code = link.rstrip("/").rsplit("/", 1)[1]
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
    page.get_by_role("button", name="Add a greedy bot").click()
    start = page.get_by_role("button", name="Start the match with 2 players")
    until_live(page, start.click)  # the page loads again as the match starts
    expect(page.locator("#table-board")).to_be_visible()
    return link


def play_one_move(page: Page) -> None:
    """On this seat's turn, lay a lit tile (a first turn's line is sent by its button, "Play
    this tile"), else press the one button the status line offers."""
    expect(page.locator("#table-dock.dock--mine")).to_be_visible()
    tile = page.locator(".tile--hand.tile--playable:not([hidden])")
    if tile.count():
        assert click(tile.first) and click(page.locator(".slot--lit").first)
        done = page.locator("#table-dock").get_by_role("button", name=PLAY_LINE)
        if done.count() and done.is_visible():
            done.click()
        return
    for name in ("Draw", "Pass", "Place the engine"):
        button = page.locator("#table-dock").get_by_role("button", name=name, exact=True)
        if button.count() and button.is_visible():
            button.click()
            return
    raise AssertionError("nothing to do on this seat's turn")


def bot_line(page: Page):
    return page.locator(".last-move:not([hidden])", has_text="Greedy bot")


def test_a_seat_and_a_spectator_see_and_hear_the_others_moves(asgi_server, browser, server_db):
    laptop = browser.new_context(viewport=LAPTOP)
    ana = laptop.new_page()
    link = start_against_a_bot(ana, asgi_server.url, server_db)
    watcher = browser.new_context(viewport=LAPTOP).new_page()
    watcher.goto(link)
    expect(watcher.locator("#table-board")).to_be_visible()
    for page in (ana, watcher):  # nothing is said on a load, and nobody has moved yet
        expect(page.locator("#table-said")).to_be_empty()
        expect(page.locator("#table-call")).to_be_empty()
        expect(page.locator(".last-moves")).to_have_count(0)

    play_one_move(ana)  # Ana starts; then the bot plays and it is Ana's turn again
    expect(ana.locator("#table-call")).to_have_text(re.compile(r"^Your (first )?turn"))
    said = bot_line(ana).inner_text()
    # Ana's own move is not among the last moves her screen shows, nor marked on her board.
    expect(ana.locator(".last-move:not([hidden])")).to_have_count(1)
    expect(ana.locator("#table-said")).to_contain_text(said)
    expect(ana.locator(".tile--last[data-last-by='0']")).to_have_count(0)
    expect(ana.locator(".tile--last[data-last-by='1']")).to_have_count(1)

    # The spectator sees and hears both moves, the newest first, and is never called.
    expect(watcher.locator(".last-move:not([hidden])")).to_have_count(2)
    expect(watcher.locator(".last-move").first).to_have_text(said)
    ana_said = watcher.locator(".last-move").nth(1).inner_text()
    expect(watcher.locator("#table-said")).to_contain_text(ana_said)
    expect(watcher.locator("#table-said")).to_contain_text(said)
    expect(watcher.locator("#table-said")).to_contain_text("Ana is thinking…")
    expect(watcher.locator("#table-call")).to_be_empty()
    # With this deal Ana's first turn finds nothing to play, and the bot plays on her train.
    assert ana_said == "Ana drew and passed: a marker is on Ana's train."
    assert said == "Greedy bot 1 played 4-1 on Ana's train."
    expect(watcher.locator(".tile--last")).to_have_count(1)
    expect(watcher.locator(".lane[data-owner='0'] .tile--last[data-last-by='1']")).to_have_count(1)

    # A reload says nothing again: the page starts from what it is shown.
    ana.reload()
    expect(bot_line(ana)).to_have_text(said)
    ana.wait_for_timeout(1500)  # the socket's first view, the same as the page's own
    expect(ana.locator("#table-said")).to_be_empty()
    expect(ana.locator("#table-call")).to_be_empty()
    laptop.close()
    watcher.context.close()


def test_a_hidden_page_says_in_its_title_that_it_is_your_turn(asgi_server, browser, server_db):
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script("""
      window.vibrations = []
      navigator.vibrate = pattern => { window.vibrations.push(pattern); return true }
    """)
    ana = context.new_page()
    start_against_a_bot(ana, asgi_server.url, server_db)
    resting = ana.title()
    switch = ana.get_by_role("button", name="Chime on my turn")
    expect(switch).to_have_attribute("aria-pressed", "false")  # off by default
    expect(switch).to_have_text("Chime on my turn: off")  # what it does, and its state, in words
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(switch).to_have_text("Chime on my turn: on")
    ana.reload()  # the choice is kept on this device
    expect(ana.get_by_role("button", name="Chime on my turn")).to_have_attribute(
        "aria-pressed", "true"
    )

    ana.evaluate(HIDE, True)
    play_one_move(ana)
    expect(ana).to_have_title(TURN_TITLE)  # the bot has played: Ana's turn, not looking
    assert ana.evaluate("window.vibrations") == [[150, 80, 150]]
    ana.evaluate(HIDE, False)
    expect(ana).to_have_title(resting)

    # Switched off, the turn comes with no vibration; looking, the title stays.
    ana.get_by_role("button", name="Chime on my turn").click()
    expect(ana.get_by_role("button", name="Chime on my turn")).to_have_attribute(
        "aria-pressed", "false"
    )
    ana.evaluate("window.vibrations = []; document.getElementById('table-call').replaceChildren()")
    play_one_move(ana)
    expect(ana.locator("#table-call")).to_have_text(re.compile(r"^Your turn"))  # it came
    assert ana.evaluate("window.vibrations") == []
    expect(ana).to_have_title(resting)
    context.close()

"""Game-night defects of issue 21, each as a person met it in Chromium: the score sheet's
editor keeps a refused count, the table's lit slot keeps its number readable, a reload keeps
a first-turn line, and the table fits a phone and a laptop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Table
from tests.browser.test_score_sheet import cell, create_match, join, pick_tiles
from tests.browser.test_table import DEAL, click, create_table, until_live

pytestmark = pytest.mark.browser

LINE_DEAL = 14  # double-6, two seats: Ana's four tiles make a line however she lays them

# Bots keep playing while a test measures, and every view replaces the board and the hand:
# each element's box is read in one script, so none is replaced between finding and reading.
BOXES = """selector => Array.from(document.querySelectorAll(selector), element => {
  const r = element.getBoundingClientRect()
  return {x: r.x, y: r.y, width: r.width, height: r.height}
})"""


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    return page.evaluate(BOXES, selector)


def test_a_count_too_large_keeps_the_editor_open_with_the_refusal(asgi_server, phone):
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben"])
    join(ben, link, "Ben")
    cell(ana, 1, 0).click()
    editor = ana.locator("#editor")
    editor.get_by_label("Pips left in hand").fill("99999999999999999999")  # past 2**53
    editor.get_by_role("button", name="Save count").click()
    expect(editor.locator("[data-field='error']")).to_have_text(
        "Pips of 99999999999999999999 is far more than any hand holds."
    )
    editor.get_by_label("Pips left in hand").fill("99999")
    editor.get_by_role("button", name="Save count").click()
    expect(editor.locator("[data-field='error']")).to_have_text(
        "99999 pips is more than a hand from a double-12 set can hold with 0 doubles (at most 936)."
    )
    expect(editor).to_be_visible()
    expect(editor.get_by_label("Pips left in hand")).to_have_value("99999")  # not lost
    expect(ana.locator("#outbox")).to_be_hidden()  # refused, so nothing waits to be sent

    # Corrected in the same editor, it is saved, and the editor closes as before.
    editor.get_by_label("Pips left in hand").fill("99")
    editor.get_by_role("button", name="Save count").click()
    expect(editor).to_be_hidden()
    expect(cell(ben, 1, 0).locator(".score")).to_have_text("99")
    expect(ben.locator("#standing .standing")).to_have_text("Round 1: 1 of 2 counts entered.")


def test_tiles_refused_in_the_picker_are_said_beside_save_tiles_and_once(asgi_server, phone):
    """A refusal is said where the phone saved (the picker sits far below the count's form,
    off a phone's screen), not again as a notice, and the editor no longer calls the refused
    entry waiting to be sent."""
    ana, ben = phone().new_page(), phone().new_page()
    link = create_match(ana, asgi_server.url, ["Ana", "Ben"])
    join(ben, link, "Ben")
    pick_tiles(ben, 1, 1, ["7-2"])
    expect(cell(ana, 1, 1).locator(".score")).to_have_text("9")
    pick_tiles(ana, 1, 0, ["7-2", "5-5"])
    editor = ana.locator("#editor")
    refusal = editor.locator("[data-field='picker-error']")
    expect(refusal).to_have_text("Ben already holds the 7-2 in this round.")
    expect(refusal).to_be_in_viewport()
    expect(editor.locator("[data-field='error']")).to_be_empty()
    expect(editor.locator("[data-field='text']")).not_to_contain_text("waiting to be sent")
    expect(ana.locator("#notices .notice")).to_have_count(0)
    expect(editor.get_by_role("button", name="5-5", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )  # what was tapped is still there to correct


def test_a_hand_holding_the_rounds_new_double_keeps_it_in_the_editor(asgi_server, phone):
    """Ben held the 3-3 in round 3 (of the 10-10); with six rounds to play, round 3 starts
    from the 3-3. His hand still shows it, pressed, so saving never drops it unseen: the
    save is refused, saying why, and the cell keeps both tiles until he takes one back."""
    ben = phone().new_page()
    create_match(ben, asgi_server.url, ["Ben", "Ana"])
    pick_tiles(ben, 3, 0, ["6-1", "3-3"])
    expect(cell(ben, 3, 0).locator(".score")).to_have_text("13")
    ben.get_by_text("House rules").click()
    ben.get_by_label("Rounds to play").select_option("6")
    expect(cell(ben, 3, 0)).to_have_attribute("data-double", "3")  # the sheet redrawn

    cell(ben, 3, 0).click()
    editor = ben.locator("#editor")
    held = editor.get_by_role("button", name="3-3", exact=True)
    expect(held).to_be_visible()
    expect(held).to_have_attribute("aria-pressed", "true")
    expect(editor.locator("[data-field='picked']")).to_have_text("2 tiles: 13 pips.")
    editor.get_by_role("button", name="Save tiles").click()
    expect(editor.locator("[data-field='picker-error']")).to_have_text(
        "The 3-3 is in the middle of the table this round: nobody holds it."
    )
    held.click()  # taken back on purpose: now the hand is saved without it
    editor.get_by_role("button", name="Save tiles").click()
    expect(editor).to_be_hidden()
    expect(cell(ben, 3, 0).locator(".score")).to_have_text("7")


def test_the_tv_page_shows_its_headers_whole_and_its_chart_at_reading_size(
    asgi_server, phone, browser
):
    """The read-only sheet on a wide screen sets its headers larger: the round column's
    word is not cut to "Ro…", and the chart stops growing with the screen."""
    ana = phone().new_page()
    create_match(ana, asgi_server.url, ["Ana", "Ben"])
    cell(ana, 1, 0).click()
    ana.locator("#editor").get_by_label("Pips left in hand").fill("12")
    ana.locator("#editor").get_by_role("button", name="Save count").click()
    expect(cell(ana, 1, 0).locator(".score")).to_have_text("12")  # saved: the chart has a round
    tv = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    tv.goto(ana.locator("a.link[href*='/w/']").get_attribute("href"))
    expect(tv.locator("#sheet thead .round-col")).to_have_text("Round")
    expect(tv.locator("#chart svg")).to_be_visible()
    # Measured in the page once its styles apply (a busy machine may lay it out late).
    tv.wait_for_function(
        """() => {
          const th = document.querySelector('#sheet thead .round-col')
          const chart = document.querySelector('#chart svg').getBoundingClientRect()
          return th.scrollWidth <= th.clientWidth && chart.width > 0 && chart.width <= 40 * 16
        }"""
    )


# -- the table -----------------------------------------------------------------------------


def open_table_with_bots(
    page: Page, url: str, server_db: str, seats: int, tiles: str, seed: int = DEAL
) -> str:
    """Ana opens a table (two rounds), fills the other seats with greedy bots and starts it
    on a fixed deal; returns the table's code once her game page is up and live."""
    create_table(page, url, seats=seats, tiles=tiles)
    for bots in range(1, seats):
        page.get_by_role("button", name="Add a greedy bot").click()
        # The lobby is redrawn with each seat taken: the next click waits for it.
        expect(page.get_by_role("button", name=re.compile("^Remove Greedy bot"))).to_have_count(
            bots
        )
    start = page.get_by_role("button", name=f"Start the match with {seats} players")
    expect(start).to_be_visible()
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=seed
    )
    # The page loads again as the match starts: until its socket is open it may show the
    # reconnecting banner, which moves the board down (a layout measured then is wrong).
    until_live(page, start.click)
    expect(page.locator("#table-board")).to_be_visible()
    return code


# The lit slot's text, its train's open end as the server drew it, its colour and background.
LIT_SLOT = """() => {
  const slot = document.querySelector('.slot--lit')
  const style = getComputedStyle(slot)
  return [slot.textContent.trim(), slot.dataset.open, style.color, style.backgroundColor]
}"""


def luminance(colour: str) -> float:
    """The relative luminance (WCAG 2) of a computed colour, ``rgb(r, g, b)``."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def pick_a_playable_tile(page: Page) -> None:
    """On this seat's turn, pick its first playable tile until its slots light: a click
    that lands before the page's script is running, or on a tile a view has just
    replaced, picks nothing."""
    expect(page.locator("#table-dock.dock--mine")).to_be_visible()
    for _ in range(5):
        click(page.locator(".tile--hand.tile--playable").first)
        try:
            expect(page.locator(".slot--lit").first).to_be_visible(timeout=2000)
            return
        except AssertionError:
            continue
    expect(page.locator(".slot--lit").first).to_be_visible()


def test_a_lit_slot_keeps_its_number_and_a_reload_keeps_a_first_turn_line(
    asgi_server, phone, server_db
):
    """A first-turn line is laid in the page and sent only by its button, which counts its
    tiles (issue 36): a line that uses up every tile that fits waits for it, and Take back
    works until then, across reloads."""
    ana = phone().new_page()
    code = open_table_with_bots(ana, asgi_server.url, server_db, seats=2, tiles="6", seed=LINE_DEAL)
    dock = ana.locator("#table-dock[data-build-line]")
    expect(dock).to_have_class(re.compile("dock--mine"))  # Ana's first turn: a line
    version = Table.objects.using(server_db).get(code=code).version
    send = ana.locator("#table-dock [data-action='send-line']")
    expect(send).to_be_hidden()  # no line yet: nothing to play

    laid = 0
    for _ in range(4):  # all four: no tile is left that fits, and still nothing is sent
        ana.locator(".tile--hand.tile--playable:not([hidden])").first.click()
        slot = ana.locator(".slot--lit").first
        expect(slot).to_be_visible()
        # Read in one go: a view pushed meanwhile redraws the board, slots and all.
        shown, drawn, colour, background = ana.evaluate(LIT_SLOT)
        assert shown.isdigit() and (laid or shown == drawn)  # the number it needs is there...
        assert colour != background and contrast(colour, background) >= 4.5  # ...and readable
        slot.click()
        laid += 1
        expect(ana.locator(".tile--pending")).to_have_count(laid)
        expect(send).to_have_text("Play this tile" if laid == 1 else f"Play these {laid} tiles")
    expect(ana.locator(".tile--hand.tile--playable:not([hidden])")).to_have_count(0)
    expect(ana.locator("#table-status")).to_contain_text("press Play these 4 tiles, or Take back")
    ana.wait_for_timeout(500)  # a line that sent itself would be answered by now
    assert Table.objects.using(server_db).get(code=code).version == version
    take_back = ana.locator("#table-dock").get_by_role("button", name="Take back")
    take_back.click()  # the mis-tap is still there to take back
    laid -= 1
    expect(ana.locator(".tile--pending")).to_have_count(laid)
    expect(send).to_have_text(f"Play these {laid} tiles")
    status = ana.locator("#table-status").inner_text()
    in_hand = ana.locator(".tile--hand:not([hidden])").count()

    ana.reload()
    expect(ana.locator(".tile--pending")).to_have_count(laid)
    expect(ana.locator("#table-status")).to_have_text(status)
    expect(ana.locator(".tile--hand:not([hidden])")).to_have_count(in_hand)
    ana.locator("#table-dock").get_by_role("button", name="Take back").click()
    expect(ana.locator(".tile--pending")).to_have_count(laid - 1)
    until_live(ana, ana.reload)  # what is kept follows the line as it is now
    expect(ana.locator(".tile--pending")).to_have_count(laid - 1)

    ana.locator("#table-dock").get_by_role("button", name=f"Play these {laid - 1} tiles").click()
    lane = ana.locator(".lane--mine")
    expect(lane.locator(".tile--laid:not(.tile--pending)")).to_have_count(laid - 1)
    ana.reload()  # sent: nothing is kept to be laid again
    expect(lane.locator(".tile--laid:not(.tile--pending)")).to_have_count(laid - 1)
    expect(ana.locator(".tile--pending")).to_have_count(0)


def test_four_players_trains_fit_a_laptop_and_a_phone_shows_the_hand_and_the_hint(
    asgi_server, browser, server_db
):
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    ana = laptop.new_page()
    open_table_with_bots(ana, asgi_server.url, server_db, seats=4, tiles="12")
    expect(ana.locator(".lane")).to_have_count(5)  # four players' trains and the Mexican
    board = ana.locator("#table-board")
    assert board.evaluate("b => b.scrollHeight <= b.clientHeight")  # nothing below the fold
    bottom = boxes(ana, ".lane")[-1]
    assert bottom["y"] + bottom["height"] <= 800

    ana.set_viewport_size({"width": 390, "height": 844})
    hand = ana.locator(".tile--hand")
    expect(hand).to_have_count(15)
    assert ana.locator(".hand").evaluate("h => h.scrollWidth <= h.clientWidth")
    for box in boxes(ana, ".tile--hand"):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # all in view, no scrolling
        assert box["y"] + box["height"] <= 844
        assert box["width"] >= 32 and box["height"] >= 44  # still a finger's target
    assert ana.evaluate("document.documentElement.scrollWidth") <= 390

    # The hint's answer (a toast) covers neither Ana's own train, first on the board, nor
    # her hand: it sits above the dock.
    ana.locator("#table-dock").get_by_role("button", name="Hint").click()
    toast = ana.locator(".toast")
    expect(toast).to_be_visible()
    (shown,) = boxes(ana, ".toast")
    for covered in (".lane--mine", ".hand"):
        (box,) = boxes(ana, covered)
        apart = shown["y"] + shown["height"] <= box["y"] or box["y"] + box["height"] <= shown["y"]
        assert apart, f"the hint covers {covered}"
    laptop.close()


def test_a_screen_whose_seat_went_to_another_says_so_when_tapped(asgi_server, phone, server_db):
    """Ana's seat opens in a second tab: the first stops for good and says why. A move
    tried there says the same again, not "try again in a moment", which would never help."""
    context = phone()
    ana = context.new_page()
    open_table_with_bots(ana, asgi_server.url, server_db, seats=2, tiles="6", seed=LINE_DEAL)
    expect(ana.locator("#table-dock[data-build-line]")).to_have_class(re.compile("dock--mine"))
    context.new_page().goto(ana.url)
    replaced = "This seat is now open on another screen, so this one has stopped."
    expect(ana.locator("#table-banner")).to_contain_text(replaced)
    ana.locator(".tile--hand.tile--playable:not([hidden])").first.click()
    ana.locator(".slot--lit").first.click()
    ana.get_by_role("button", name="Play this tile").click()  # the line goes: refused here
    expect(ana.locator("#table-toasts")).to_contain_text(replaced)
    expect(ana.locator("#table-toasts")).not_to_contain_text("try again in a moment")

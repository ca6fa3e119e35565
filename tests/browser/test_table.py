"""An online table in Chromium: two people on two screens create a table, join it and play
a short match (double-6 set, 2 rounds) to its end by clicking tiles and buttons, against
daphne (asgi_server), so the websocket that carries the game is the real one."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Locator, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.engine import replay
from games.models import Table

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
SCREENSHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
MATCH_TIMEOUT = 180  # seconds; two people with four tiles each need well under a minute
DEAL = 7  # the table's seed
CLICK_TIMEOUT = 2000  # ms; a target still on screen is clicked at once
PLAY_LINE = re.compile(r"^Play (this tile|these \d+ tiles)$")  # a first-turn line's button


def create_table(page: Page, url: str, seats: int = 2, tiles: str = "6", rounds: int = 2) -> str:
    """Ana opens a table (two seats, double-6 set, two rounds unless told); returns the
    table's link."""
    page.goto(f"{url}/t/new/")
    page.get_by_label("Your name", exact=True).fill("Ana")
    page.get_by_label("Seats", exact=True).select_option(str(seats))
    page.get_by_text("House rules", exact=True).click()
    page.get_by_label("Set", exact=True).select_option(tiles)
    page.get_by_label("Rounds to play", exact=True).fill(str(rounds))
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("heading", name="Seats")).to_be_visible()
    return page.url


def until_live(page: Page, go: Callable[[], object]) -> None:
    """Do ``go`` (a navigation, or a click that makes the page load again) and wait for the
    table's first view over the page's new socket. Until then the seat shows as away to the
    others, and what the page sends is refused in the page ("Not connected to the table
    just now")."""
    frames: list = []

    def watch(socket: WebSocket) -> None:  # at once: a frame may come with the socket
        socket.on("framereceived", lambda payload: frames.append(payload))

    page.on("websocket", watch)
    try:
        go()
        deadline = time.monotonic() + 30
        while not frames:
            assert time.monotonic() < deadline, "the table's socket sent no view"
            page.wait_for_timeout(50)
    finally:
        page.remove_listener("websocket", watch)


def click(target: Locator) -> bool:
    """Click, unless the screen moved on first (a pushed view redrew or removed the target,
    as a person sometimes sees): then nothing was clicked."""
    try:
        target.click(timeout=CLICK_TIMEOUT)
    except PlaywrightTimeoutError:
        return False
    return True


def take_turn(page: Page) -> bool:
    """If this screen can act now, make one move by clicking, as a person would: Ready on a
    round's end card, else a lit tile then its lit slot, else the one button the status
    line offers. Returns whether anything was clicked."""
    ready = page.locator("#table-round:not([hidden]) [data-intent='ready']")
    if ready.count() and ready.is_enabled():
        return click(ready)
    if not page.locator("#table-dock.dock--mine").count() or page.locator("#table.is-busy").count():
        return False
    tile = page.locator(".tile--hand.tile--playable:not([hidden])")
    if tile.count():
        return click(tile.first) and click(page.locator(".slot--lit").first)
    for name in (PLAY_LINE, "Done", "Draw", "Pass", "Place the engine"):
        button = page.locator("#table-dock").get_by_role("button", name=name, exact=True)
        if button.count() and button.is_visible() and button.is_enabled():
            return click(button)
    return False


def match_over(page: Page) -> bool:
    return page.locator("#table-round h2", has_text="The match is over").count() > 0


def test_two_people_play_a_short_match_to_its_end(asgi_server, browser, phone, server_db):
    laptop = browser.new_context(viewport=LAPTOP)
    ana, ben = laptop.new_page(), phone().new_page()
    link = create_table(ana, asgi_server.url)

    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    code = link.rstrip("/").rsplit("/", 1)[1]
    # A fixed deal, so the match (played by always taking the first lit tile) is the same
    # on every run: long enough for a mid-round screenshot, short enough to finish quickly.
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
    start = ana.get_by_role("button", name="Start the match with 2 players")
    expect(start).to_be_visible()  # Ben's seat reached Ana's lobby over the socket
    start.click()
    for page in (ana, ben):
        expect(page.locator("#table-board")).to_be_visible()
    # Every seat is sent the same players' rows: each page marks its own.
    for page, name, other in ((ana, "Ana", "Ben"), (ben, "Ben", "Ana")):
        me = page.locator(".member--me")
        expect(me).to_contain_text(re.compile(rf"{name} \(you\)"), use_inner_text=True)
        them = page.locator(".member", has_text=other)
        expect(them).not_to_contain_text("(you)", use_inner_text=True)  # as shown, not hidden
    ben.locator(".tile--hand").first.click()  # Ana plays first: answered in the page at once
    expect(ben.locator(".toast")).to_have_text("It is not your turn: Ana is to play.")
    ben.locator(".toast").click()  # a tap clears it
    expect(ben.locator(".toast")).to_have_count(0)

    shot = False
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not (match_over(ana) and match_over(ben)):
        assert time.monotonic() < deadline, "the match did not end in time"
        moved = [take_turn(page) for page in (ana, ben)]
        laid = ana.locator("#table-board .tile--laid").count()
        settled = not any(
            p.locator("#table.is-busy, #table-round:not([hidden])").count() for p in (ana, ben)
        )
        if not shot and laid >= 3 and settled:
            # Each lane's head says how many tiles its owner holds, apart from the train's
            # length (issue 36: a bot's "18 tiles" was its train), and a phone shows it on
            # the board, not below the hand.
            for page, owner, position in ((ana, ben, 1), (ben, ana, 0)):
                held = owner.locator(".tile--hand:not([hidden])").count()
                head = page.locator(f".lane[data-owner='{position}'] .lane__hand")
                expect(head).to_have_text(f"{held} in hand")
            expect(ben.locator(".lane[data-owner='0'] .lane__hand")).to_be_in_viewport()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            ana.screenshot(path=SCREENSHOTS / "table-laptop.png")
            ben.screenshot(path=SCREENSHOTS / "table-phone.png")
            assert ben.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways
            shot = True
        if not any(moved):
            ana.wait_for_timeout(100)

    totals = [page.locator("#table-sheet tfoot td").all_inner_texts() for page in (ana, ben)]
    assert totals[0] == totals[1] and len(totals[0]) == 2
    for page in (ana, ben):
        rows = page.locator("#table-round .results tbody tr:not(.results__held) td:last-child")
        rows = rows.all_inner_texts()
        assert sorted(rows) == sorted(totals[0])  # the end card agrees with the sheet
    table = Table.objects.using(server_db).get(code=code)
    assert table.status == Table.Status.FINISHED
    records = table.moves.using(server_db).values_list("record", flat=True)
    assert [str(t) for t in replay(list(records))[-1].totals()] == totals[0]  # the move log
    assert shot, "no screenshot was taken mid-round"
    laptop.close()


def test_a_host_sets_house_rules_from_other_tables_and_everyone_reads_them(asgi_server, phone):
    ana, ben = phone().new_page(), phone().new_page()
    ana.goto(f"{asgi_server.url}/t/new/")
    ana.get_by_label("Your name", exact=True).fill("Ana")
    ana.get_by_text("House rules", exact=True).click()
    ana.get_by_text("Scoring", exact=True).click()
    ana.get_by_label("A blank half is worth", exact=True).select_option("25")
    ana.get_by_label("Going out on a double adds", exact=True).select_option("50")
    ana.get_by_text("The end of the match", exact=True).click()
    ana.get_by_label("A tie for the lowest total", exact=True).select_option("rounds_out")
    ana.get_by_text("Drawing", exact=True).click()
    optional = ana.get_by_label("You may draw instead of playing", exact=True)
    expect(optional).to_be_visible()
    ana.get_by_label("Draw before passing", exact=True).uncheck()
    expect(optional).to_be_hidden()  # it means nothing without drawing
    ana.get_by_label("Draw before passing", exact=True).check()
    optional.check()
    ana.get_by_role("button", name="Open the table").click()
    expect(ana.get_by_role("heading", name="Seats")).to_be_visible()
    ben.goto(ana.url)  # a guest, not seated: reads the same words
    for page in (ana, ben):
        rules = page.locator(".rules-list")
        expect(rules).to_contain_text("A blank half is worth 25")
        expect(rules).to_contain_text("Going out on a double adds 50")
        expect(rules).to_contain_text(
            "A tie for the lowest total goes to whoever went out more often"
        )
        expect(rules).to_contain_text("You may draw instead of playing: on")

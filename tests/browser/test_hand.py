"""Arranging the hand in Chromium (issue 36: a hand of 15 tiles in deal order is hard to plan
with): sorted by suit or by pips, a tile moved by keyboard (Alt+arrow, said to screen
readers) or by a drag onto the hand; the order is kept on this device across reloads and
views, and a new round's hand starts in the sort last chosen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_feedback import play_one_move
from tests.browser.test_fixes import open_table_with_bots
from tests.browser.test_table import LAPTOP

pytestmark = pytest.mark.browser


def hand(page: Page) -> list[str]:
    """The hand's tiles as the page shows them, left to right ("low-high")."""
    return page.eval_on_selector_all(".tile--hand", "tiles => tiles.map(t => t.dataset.tile)")


def by_suit(tile: str) -> tuple[int, int]:
    low, high = map(int, tile.split("-"))
    return (-high, -low)


def by_pips(tile: str) -> tuple[int, int, int]:
    low, high = map(int, tile.split("-"))
    return (-(low + high), -high, -low)


def test_a_hand_is_sorted_moved_and_kept(asgi_server, browser, server_db):
    ana = browser.new_context(viewport=LAPTOP).new_page()
    open_table_with_bots(ana, asgi_server.url, server_db, seats=2, tiles="12")
    expect(ana.locator(".tile--hand")).to_have_count(15)
    dealt = hand(ana)
    arrange = ana.get_by_role("group", name="Arrange your hand")

    arrange.get_by_role("button", name="Sort by suit").click()
    assert hand(ana) == sorted(dealt, key=by_suit) != dealt
    arrange.get_by_role("button", name="Sort by pips").click()
    assert hand(ana) == sorted(dealt, key=by_pips)
    expect(ana.locator("#table-said")).to_contain_text("Your hand is sorted by pips")

    # By keyboard: the focused tile moves one place, keeps the focus, and it is said where.
    first, second = hand(ana)[:2]
    ana.locator(f".tile--hand[data-tile='{first}']").focus()
    ana.keyboard.press("Alt+ArrowRight")
    assert hand(ana)[:2] == [second, first]
    assert ana.evaluate("document.activeElement.dataset.tile") == first
    high, low = reversed(first.split("-"))
    expect(ana.locator("#table-said")).to_contain_text(f"{high}-{low} moved to place 2 of 15.")

    # By a drag: the last tile dropped on the left half of the first goes first.
    last = hand(ana)[-1]
    source = ana.locator(f".tile--hand[data-tile='{last}']").bounding_box()
    target = ana.locator(".tile--hand").first.bounding_box()
    ana.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    ana.mouse.down()
    ana.mouse.move(target["x"] + 4, target["y"] + target["height"] / 2, steps=12)
    ana.mouse.up()
    arranged = hand(ana)
    assert arranged[0] == last and len(arranged) == 15

    ana.reload()  # kept on this device
    expect(ana.locator(".tile--hand")).to_have_count(15)
    assert hand(ana) == arranged

    # Every hand pushed comes in the same order: after Ana's move and the bot's, the tiles
    # she still holds are where she put them.
    play_one_move(ana)
    expect(ana.locator(".last-move:not([hidden])", has_text="Greedy bot")).to_be_visible()
    expect(ana.locator("#table-dock.dock--mine")).to_be_visible()  # her turn again
    still = [tile for tile in hand(ana) if tile in arranged]
    assert still == [tile for tile in arranged if tile in still] and len(still) < 15

    # A new round's hand starts in the sort last chosen (the kept order is another round's).
    assert hand(ana) != sorted(hand(ana), key=by_pips)
    ana.evaluate("""() => {
      const key = Object.keys(localStorage).find(k => k.startsWith('mexican-train:hand:'))
      const kept = JSON.parse(localStorage.getItem(key))
      localStorage.setItem(key, JSON.stringify({...kept, round: kept.round - 1}))
    }""")
    ana.reload()
    expect(ana.locator("#table-dock.dock--mine")).to_be_visible()
    assert hand(ana) == sorted(hand(ana), key=by_pips)
    ana.context.close()

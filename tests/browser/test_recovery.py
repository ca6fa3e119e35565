"""A seat asked back in Chromium (issue 21): Ben's phone is closed mid-match; he opens the
table's shared link on a new phone, asks for his seat, and gets it only when Ana, the host,
approves: the new phone then plays his hand, and the old rejoin link holds nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .test_table import LAPTOP, create_table, until_live

pytestmark = pytest.mark.browser


def match_with_ben_gone(url: str, browser: Browser, phone) -> tuple[BrowserContext, str, str]:
    """Ana (on a laptop) and Ben (on a phone) start a match; Ben's phone is closed. Returns
    Ana's context, the table's link and Ben's rejoin link, as his dead phone showed it."""
    laptop = browser.new_context(viewport=LAPTOP)
    ana = laptop.new_page()
    link = create_table(ana, url)
    old_phone = phone()
    ben = old_phone.new_page()
    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Take the seat").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    ana.get_by_role("button", name="Start the match with 2 players").click()
    expect(ben.locator(".tile--hand").first).to_be_visible()
    rejoin = ben.locator(".rejoin a.link").get_attribute("href")
    old_phone.close()
    return laptop, link, rejoin


def ask_for_bens_seat(page: Page, link: str) -> None:
    until_live(page, lambda: page.goto(link))
    expect(page.get_by_text("You are watching: hands stay hidden.")).to_be_visible()
    expect(page.get_by_text("Is one of these seats yours? Ask for it back")).to_be_visible()
    page.get_by_role("button", name="I am Ben").click()
    expect(page.get_by_text("You asked for Ben's seat.")).to_be_visible()
    expect(page.locator(".tile--hand")).to_have_count(0)  # asked, not given


def test_ben_gets_his_seat_back_on_a_new_phone_once_the_host_approves(asgi_server, browser, phone):
    laptop, link, rejoin = match_with_ben_gone(asgi_server.url, browser, phone)
    ana = laptop.pages[0]
    new_phone = phone().new_page()
    ask_for_bens_seat(new_phone, link)

    card = ana.locator(".claim--answer")
    expect(card).to_contain_text("Somebody watching says they are Ben")
    card.get_by_role("button", name="Give Ben the seat").click()

    expect(new_phone.locator(".tile--hand").first).to_be_visible()  # reloaded into the seat
    expect(new_phone.locator(".member--me")).to_contain_text(
        re.compile(r"Ben \(you\)"), use_inner_text=True
    )
    expect(new_phone.get_by_text("You are watching")).to_have_count(0)
    expect(ana.locator(".claim--answer")).to_have_count(0)
    stranger = phone().new_page()  # the dead phone's link holds nothing any more
    assert stranger.goto(rejoin).status == 404
    laptop.close()


def test_the_asker_may_cancel_and_nobody_gets_a_seat_the_host_refuses(asgi_server, browser, phone):
    laptop, link, _ = match_with_ben_gone(asgi_server.url, browser, phone)
    ana = laptop.pages[0]
    new_phone = phone().new_page()
    ask_for_bens_seat(new_phone, link)
    expect(ana.locator(".claim--answer")).to_be_visible()
    new_phone.get_by_role("button", name="Cancel the request").click()  # had second thoughts
    expect(ana.locator(".claim--answer")).to_have_count(0)
    new_phone.get_by_role("button", name="I am Ben").click()

    ana.locator(".claim--answer").get_by_role("button", name="Refuse").click()

    expect(new_phone.locator(".toast")).to_have_text("Ana refused your request for Ben's seat.")
    expect(new_phone.get_by_role("button", name="I am Ben")).to_be_visible()  # may ask again
    expect(new_phone.locator(".tile--hand")).to_have_count(0)
    new_phone.reload()
    expect(new_phone.get_by_text("You are watching: hands stay hidden.")).to_be_visible()
    laptop.close()

"""A crew in Chromium, on two phones: Ana makes the crew, Ben joins it from its link, they
play a score sheet and an online table with a bot for the crew, and the crew page on both
phones shows the standings and the game-night chart change without a reload after each
match (against daphne, so the crew's socket is the real one); Ben adds Gran, who has no
phone. The crew's pages pass axe-core too."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from crews.models import CrewMatch, Rating
from games.models import Table
from tests.browser.axe import assert_accessible

from .test_table import DEAL, MATCH_TIMEOUT, SCREENSHOTS, match_over, take_turn

pytestmark = pytest.mark.browser


def standings_row(page: Page, name: str):
    """The cells of a person's line: name, played, won, points a round, rounds out, best
    and worst match."""
    return page.locator("#crew-live table.standings tbody tr", has_text=name).locator("th, td")


def night_dot(page: Page, name: str):
    """The tooltip of a person's dot on the game-night chart (one night: one dot each)."""
    return page.locator("#crew-live .chart svg circle title", has_text=f"{name}, ")


def test_a_crew_plays_a_sheet_and_an_online_table_and_both_phones_follow(
    asgi_server, phone, server_db
):
    ana_phone, ben_phone = phone(), phone()
    ana, ben = ana_phone.new_page(), ben_phone.new_page()

    ana.goto(f"{asgi_server.url}/c/new/")
    ana.get_by_label("The crew's name").fill("Thursday dominoes")
    ana.get_by_label("Your name").fill("Ana")
    ana.get_by_role("button", name="Start the crew").click()
    expect(ana.get_by_role("heading", name="Thursday dominoes", level=1)).to_be_visible()
    crew_link = ana.url

    ben.goto(crew_link)
    assert_accessible(ben)  # the question: who are you?
    ben.get_by_label("Your name").fill("Ben")
    ben.get_by_role("button", name="Join Thursday dominoes").click()
    expect(ben.locator(".lead")).to_contain_text("You are Ben")
    # Both crew pages stay open in tabs of their own; the socket is open once the page
    # says so, and Ben's joining already reached Ana's page.
    ana_crew, ben_crew = ana, ben
    expect(ana_crew.locator("#crew-live .members")).to_contain_text("Ben")
    ana, ben = ana_phone.new_page(), ben_phone.new_page()

    # A score sheet for the crew, one round: Ana goes out, Ben holds 12.
    ana.goto(crew_link)
    ana.get_by_role("link", name="Score sheet for the crew").click()
    expect(ana.get_by_label("Player 1", exact=True)).to_have_value("Ana")
    ana.get_by_label("Player 2", exact=True).fill("Ben")
    ana.get_by_label("Rounds to play").select_option("1")
    ana.get_by_role("button", name="Start the score sheet").click()
    expect(ana.locator("#live")).to_have_attribute("data-connection", "open")
    ana.locator("#cell-1-0").click()
    ana.locator("#editor").get_by_role("button", name="Went out").click()
    ana.locator("#cell-1-1").click()
    ana.locator("#editor").get_by_label("Pips left in hand").fill("12")
    ana.locator("#editor").get_by_role("button", name="Save count").click()
    for page in (ana_crew, ben_crew):
        expect(standings_row(page, "Ana")).to_have_text(["Ana", "1", "1", "0.0", "1", "0", "0"])
        expect(standings_row(page, "Ben")).to_have_text(["Ben", "1", "0", "12.0", "0", "12", "12"])
        expect(night_dot(page, "Ben")).to_contain_text("12.0 points a round, 0 wins in 1 match")

    # An online table for the crew: Ana, Ben and a greedy bot, one round.
    ana.goto(crew_link)
    ana.get_by_role("link", name="Online table for the crew").click()
    expect(ana.get_by_label("Your name", exact=True)).to_have_value("Ana")
    ana.get_by_label("Seats", exact=True).select_option("3")
    ana.get_by_text("House rules", exact=True).click()
    ana.get_by_label("Set", exact=True).select_option("6")
    ana.get_by_label("Rounds to play", exact=True).fill("1")
    ana.get_by_role("button", name="Open the table").click()
    expect(ana.get_by_role("heading", name="Seats")).to_be_visible()
    code = ana.url.rstrip("/").rsplit("/", 1)[1]
    ben.goto(ana.url)
    expect(ben.get_by_label("Your name", exact=True)).to_have_value("Ben")  # the member
    ben.get_by_role("button", name="Take the seat").click()
    expect(ben.locator(".place--me")).to_contain_text("Ben (you)")
    ana.get_by_role("button", name="Add a greedy bot").click()
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
    start = ana.get_by_role("button", name="Start the match with 3 players")
    expect(start).to_be_visible()
    start.click()
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not (match_over(ana) and match_over(ben)):
        assert time.monotonic() < deadline, "the match did not end in time"
        if not any([take_turn(page) for page in (ana, ben)]):
            ana.wait_for_timeout(100)

    for page in (ana_crew, ben_crew):
        expect(standings_row(page, "Ana").nth(1)).to_have_text("2")
        expect(standings_row(page, "Ben").nth(1)).to_have_text("2")
        expect(page.locator("#crew-live tbody.bots")).to_contain_text("Greedy bot")
        expect(page.locator("#crew-live .chart svg circle")).to_have_count(2)
        for name in ("Ana", "Ben"):
            expect(night_dot(page, name)).to_contain_text("in 2 matches")
        expect(page.locator("#crew-live .ratings li")).to_have_count(2)
        expect(page.locator("#crew-live .ratings")).to_contain_text("1st of 2")
    table = Table.objects.using(server_db).get(code=code)
    crew_code = crew_link.rstrip("/").rsplit("/", 1)[1]
    filed = CrewMatch.objects.using(server_db).filter(crew__code=crew_code)
    assert filed.count() == 2 and filed.filter(match=table.match_id).exists()
    assert (
        Rating.objects.using(server_db).filter(season__crew__in=filed.values("crew")).count() == 2
    )
    # Ben adds Gran, who has no phone: both pages list her, not on a phone yet.
    ben_crew.get_by_text("Add someone without a phone").click()
    ben_crew.get_by_label("Their name").fill("Gran")
    ben_crew.get_by_role("button", name="Add them to the crew").click()
    for page in (ana_crew, ben_crew):
        expect(page.locator("#crew-live .members")).to_contain_text("Gran not on a phone yet")
    assert_accessible(ben_crew)
    SCREENSHOTS.mkdir(exist_ok=True)
    ben_crew.screenshot(path=str(SCREENSHOTS / "crew-phone.png"), full_page=True)


def test_a_claim_that_arrives_while_the_crew_page_is_open_is_answered_there(
    asgi_server, phone, server_db
):
    """The claim reaches an open crew page through its socket, and its buttons work on that
    copy (it posts through htmx, with the page's CSRF header): Ben's new phone becomes Ben."""
    ana, ben, ben_new = phone().new_page(), phone().new_page(), phone().new_page()
    ana.goto(f"{asgi_server.url}/c/new/")
    ana.get_by_label("The crew's name").fill("Thursday dominoes")
    ana.get_by_label("Your name").fill("Ana")
    ana.get_by_role("button", name="Start the crew").click()
    crew_link = ana.url
    ben.goto(crew_link)
    ben.get_by_label("Your name").fill("Ben")
    ben.get_by_role("button", name="Join Thursday dominoes").click()
    expect(ana.locator("#crew-live .members")).to_contain_text("Ben")

    ben_new.goto(crew_link)
    ben_new.get_by_role("button", name="Ben").click()
    expect(ben_new.get_by_role("status")).to_contain_text("Ben is on another device already")
    claim = ana.locator("#crew-live .claim")
    expect(claim).to_contain_text("Another device says it is Ben")
    claim.get_by_role("button", name="Let it be Ben").click()
    expect(claim).to_have_count(0)
    ben_new.goto(crew_link)
    expect(ben_new.locator(".lead")).to_contain_text("You are Ben")

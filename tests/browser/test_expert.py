"""The expert bot at a table, in Chromium against daphne: the host seats it from the lobby
by its name, and a round against it is played to its end, the expert deciding in a process
of daphne's own (tests/browser/conftest.py gives it a tenth of a second a decision)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Move, Table

from .test_table import DEAL, LAPTOP, MATCH_TIMEOUT, create_table, match_over, take_turn

pytestmark = pytest.mark.browser


def test_a_round_against_the_expert_bot_is_played_to_its_end(asgi_server, browser, server_db):
    ana = browser.new_context(viewport=LAPTOP).new_page()
    link = create_table(ana, asgi_server.url, seats=2, rounds=1)
    code = link.rstrip("/").rsplit("/", 1)[1]
    ana.get_by_role("button", name="Add an expert bot").click()
    expect(ana.get_by_role("button", name="Remove Expert bot 1")).to_be_visible()
    # A fixed deal: with four tiles a hand, some deals let Ana lay her whole hand as her
    # first-turn line, ending the round before the expert has a turn. In this one no
    # sequence of her first turn ends the round.
    Table.objects.using(server_db).filter(code=code).update(
        deal_secret="", deal_commitment="", seed=DEAL
    )
    ana.get_by_role("button", name="Start the match with 2 players").click()
    deadline = time.monotonic() + MATCH_TIMEOUT
    while not match_over(ana):
        assert time.monotonic() < deadline, "the match did not end in time"
        if not take_turn(ana):
            ana.wait_for_timeout(100)

    table = Table.objects.using(server_db).get(code=code)
    assert table.status == Table.Status.FINISHED
    moves = Move.objects.using(server_db).filter(table=table, record__type="action")
    assert moves.filter(record__seat=1).exists()  # the expert played its turns
    ana.context.close()

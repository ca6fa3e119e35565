"""Matches to review, made the way the site makes them: an online match played to its end
through games.services by bots, a score sheet entered through scoring.services, and records
written by the simulator (the engine's Recorder); and the visitors the pages are tried with."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.engine import Rules
from games.engine.records import dumps
from games.models import Table
from games.simulate import play_match
from scoring import services as sheets
from scoring.models import Match
from tests.scoring.conftest import SEED_PLAYERS, enter_seed_rounds

SHORT = Rules(highest_double=6, rounds=3)


def play_online_match(
    rules: Rules = SHORT, bots: tuple[str, ...] = ("greedy", "random"), seed: int = 2024
) -> Match:
    """A whole match at an online table: Ana hosts, the bots join, and a stand-in bot plays
    Ana's turns while she watches (bots move only while a person is connected). The seed
    fixes the deals and the bots' choices, so the match is the same on every run."""
    table, host = services.create_table(rules=rules, seat_count=1 + len(bots), host_name="Ana")
    Table.objects.filter(pk=table.pk).update(deal_secret="", deal_commitment="", seed=seed)
    for level in bots:
        services.add_bot(table.code, host_token=table.host_token, level=level)
    services.start(table.code, host_token=table.host_token)
    services.connect(table.code, token=host.token, host_token="", channel="a-browser")
    services.hand_to_bot(table.code, host_token=table.host_token, position=0, level="strategic")
    for _ in range(10_000):
        if services.play_bot_turn(table.code) is not None:
            continue
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table.match
        services.ready(table.code, token=host.token)
    raise AssertionError("the match never finished")


def simulated_record(seed: int, rules: Rules = SHORT) -> str:
    """A finished match's record as a bug report would attach it: four bots, from the
    simulator, which writes it with the engine's Recorder."""
    result = play_match(rules, ["random", "greedy", "strategic", "greedy"], seed, record=True)
    assert result.records is not None and not result.violations
    return dumps(result.records)


@pytest.fixture
def online_match(db) -> Match:
    return play_online_match()


@pytest.fixture
def sheet_match(db) -> Match:
    """The seeds' four players and four rounds on a sheet of four rounds, finished, with a
    house rule changed on the way."""
    match = sheets.create_match(SEED_PLAYERS, Rules(rounds=4), by="Ana")
    enter_seed_rounds(match)
    sheets.change_setting(match, "double_blank_value", 50, was=0, by="Ben")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.fixture
def member_client(client, db):
    """Logged in, but not staff."""
    user = get_user_model().objects.create_user("member", password="not-staff-1234")
    client.force_login(user)
    return client


@pytest.fixture
def bare_staff_client(client, db):
    """Staff (so the admin lets them in) but granted no permission at all."""
    user = get_user_model().objects.create_user("helper", password="x-1234-y", is_staff=True)
    client.force_login(user)
    return client

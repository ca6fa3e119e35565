"""What the table's state alerts of, besides a turn: a round's end and the match's end to
every person, and a request for a seat to whoever may answer it, each once (pushed here,
and decrypted as the browser would)."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Table
from tests.games import alerting
from tests.games.alerting import changed, seated_client, subscribe
from tests.games.tables import play_to_round_end, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings):
    yield from alerting.serve(settings)


def subscribed(service, table: Table) -> dict[int, alerting.Browser]:
    browsers = {}
    for position, name in ((0, "ana"), (1, "ben")):
        browsers[position] = alerting.browser(service, name)
        subscribe(seated_client(table, position), table, browsers[position].subscription())
    return browsers


def bodies(service, browsers, since: int = 0) -> dict[str, list[str]]:
    """What each person was pushed since the ``since``-th message, by push path."""
    by_path = {b.endpoint.rsplit("/", 1)[1]: b for b in browsers.values()}
    found: dict[str, list[str]] = {}
    for message in service.received[since:]:
        person = message.path.rsplit("/", 1)[1]
        found.setdefault(person, []).append(by_path[person].read(message)["body"])
    return found


def test_the_end_of_a_round_and_of_the_match_reach_everybody_once(service):
    table, tokens = started_table(seed=7)
    browsers = subscribed(service, table)
    table = play_to_round_end(table, tokens)
    count = len(service.received)
    changed(table.code)
    changed(table.code)
    ended = bodies(service, browsers, count)
    assert sorted(ended) == ["ana", "ben"]
    for said in ended.values():
        assert len(said) == 1
        assert re.fullmatch(
            r"Round 1 is over \(Ana \d+, Ben \d+\)\. Press Ready for round 2\.", said[0]
        )

    for token in tokens.values():
        services.ready(table.code, token=token)
    table = play_to_round_end(table, tokens)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    count = len(service.received)
    changed(table.code)
    changed(table.code)
    over = bodies(service, browsers, count)
    assert sorted(over) == ["ana", "ben"]
    for said in over.values():
        assert len(said) == 1
        assert re.fullmatch(
            r"The match is over: (Ana|Ben|Ana and Ben) won with \d+\. "
            r"Open the table for the totals\.",
            said[0],
        )


def test_a_request_for_a_seat_reaches_the_host_who_may_answer_it(service):
    table, _ = started_table(seed=7)
    browsers = subscribed(service, table)
    count = len(service.received)
    services.ask_for_seat(table.code, token=None, channel="a-new-phone", position=1)
    changed(table.code)
    changed(table.code)
    asked = bodies(service, browsers, count)
    assert (
        asked.get("ana", []).count(
            "Somebody asks for Ben's seat from another screen: open the table to give it or refuse."
        )
        == 1
    )
    assert not any("asks for" in said for said in asked.get("ben", []))

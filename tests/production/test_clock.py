"""The turn clock on PostgreSQL: a due turn is played once when several processes race for
it, and a server started after a deadline passed plays the turn that fell due."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import Rules
from games.models import Move, Pace, Table, TableSeat
from games.services import clock, create_table, join, start

from .processes import Daphne
from .test_locking import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


def own_pace_table() -> Table:
    table, _ = create_table(
        rules=Rules(highest_double=6, rounds=2),
        seat_count=2,
        host_name="Ana",
        pace=Pace.OWN,
        turn_limit=3600,
    )
    join(table.code, name="Ben")
    Table.objects.filter(pk=table.pk).update(
        deal_secret="", deal_commitment="", seed=1
    )  # no first turn ends this deal's round
    start(table.code, host_token=table.host_token)
    table.refresh_from_db()
    return table


def test_a_timed_out_turn_is_played_once_with_two_processes_racing_for_it():
    table = own_pace_table()
    past = table.turn_due_at + timedelta(seconds=1)
    results: list = []
    barrier = threading.Barrier(2)
    threads = [
        in_thread(lambda: clock.claim(table.code, now=past), results, barrier) for _ in range(2)
    ]
    for thread in threads:
        thread.join(timeout=30)
    played = [r for r in results if isinstance(r, clock.Claim)]
    assert len(played) == 1 and results.count(None) == 1, results
    table.refresh_from_db()
    assert table.version == 2, "one turn played, once"
    assert TableSeat.objects.get(table=table, position=0).timeouts == 1
    by_clock = [
        m.record
        for m in Move.objects.filter(table=table)
        if m.record["type"] == "action" and m.record.get("by") == "clock"
    ]
    assert by_clock and {line["seat"] for line in by_clock} == {0}


def test_a_server_started_after_a_deadline_passed_plays_the_turn_that_fell_due(tmp_path):
    table = own_pace_table()
    # The deadline passed while no server ran: nobody's page is open, nothing is in memory.
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(hours=1))
    server = Daphne(tmp_path, CLOCK_POLL="0.2").start()  # its health check is a first request
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            table.refresh_from_db()
            if table.version > 1:
                break
            time.sleep(0.2)
        assert table.version == 2, "the due turn was played by the new process"
        assert TableSeat.objects.get(table=table, position=0).timeouts == 1
        assert table.turn_due_at > timezone.now(), "Ben's turn has a deadline of its own"
    finally:
        server.stop()

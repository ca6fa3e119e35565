"""One writer per game on PostgreSQL: the table row lock, in the style of Django's own
select_for_update tests (a second connection in a thread)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import close_old_connections, connection, transaction

from games import services
from games.engine import legal_actions, replay
from games.forms import Intent
from games.models import Move, Table
from tests.games.conftest import make_table

pytestmark = pytest.mark.django_db(transaction=True)


def first_move(code: str) -> Intent:
    """An intent for the first legal action of the seat on turn, at the table's version."""
    table = Table.objects.get(code=code)
    game = table.game()
    action = legal_actions(game, game.round.turn)[0]
    plays = ((action.tile, action.train, action.end),) if action.kind == "play" else ()
    return Intent(action.kind, table.version, plays)


def in_thread(work, results: list, barrier: threading.Barrier | None = None) -> threading.Thread:
    def run():
        try:
            if barrier is not None:
                barrier.wait()
            results.append(work())
        except Exception as error:  # noqa: BLE001 - the test inspects what each thread got
            results.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_two_connections_acting_at_once_for_the_same_turn_exactly_one_wins():
    code, _, tokens = make_table(bots=())
    before = Table.objects.get(code=code).version
    intent = first_move(code)
    results: list = []
    barrier = threading.Barrier(2)
    threads = [
        in_thread(lambda: services.act(code, token=tokens["Ana"], intent=intent), results, barrier)
        for _ in range(2)
    ]
    for thread in threads:
        thread.join(timeout=30)
    winners = [r for r in results if isinstance(r, services.Outcome)]
    losers = [r for r in results if isinstance(r, services.Stale)]
    assert len(winners) == 1 and len(losers) == 1, results
    table = Table.objects.get(code=code)
    assert table.version == before + 1 == winners[0].version
    records = list(Move.objects.filter(table=table).values_list("record", flat=True))
    actions = [r for r in records if r["type"] == "action"]
    assert len(actions) == 1  # no lost update, no double move
    assert replay(records)[-1].round.turn_state is not None


def test_an_action_waits_for_the_lock_another_transaction_holds():
    code, _, tokens = make_table(bots=())
    intent = first_move(code)
    locked, release = threading.Event(), threading.Event()

    def hold_the_lock():
        with transaction.atomic():
            Table.objects.select_for_update().get(code=code)
            locked.set()
            release.wait(timeout=10)
        return "released"

    holder_results: list = []
    holder = in_thread(hold_the_lock, holder_results)
    assert locked.wait(timeout=10)
    results: list = []
    started = time.monotonic()
    actor = in_thread(lambda: services.act(code, token=tokens["Ana"], intent=intent), results)
    actor.join(timeout=0.5)
    assert actor.is_alive(), "the action went ahead while another transaction held the lock"
    release.set()
    actor.join(timeout=10)
    holder.join(timeout=10)
    assert isinstance(results[0], services.Outcome), results
    assert time.monotonic() - started >= 0.5
    close_old_connections()

"""Every process runs the clock that closes abandoned tables (services.close_abandoned), so
on PostgreSQL several close at once: each table is closed once, by one of them, and a table
whose row another transaction holds is skipped, not waited for."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Table
from tests.games.conftest import make_table

from .test_locking import in_thread

pytestmark = pytest.mark.django_db(transaction=True)

A_DAY_ON = timedelta(hours=24, seconds=1)


def test_two_processes_closing_at_once_close_each_table_once():
    codes = [make_table(bots=())[0] for _ in range(4)]
    before = dict(Table.objects.values_list("code", "revision"))
    now = timezone.now() + A_DAY_ON
    results: list = []
    barrier = threading.Barrier(2)
    threads = [
        in_thread(lambda: services.close_abandoned(now=now), results, barrier) for _ in range(2)
    ]
    for thread in threads:
        thread.join(timeout=30)
    assert all(isinstance(r, list) for r in results), results
    assert sorted(code for closed in results for code in closed) == sorted(codes)
    for code, status, revision in Table.objects.values_list("code", "status", "revision"):
        assert (status, revision) == (Table.Status.ABANDONED, before[code] + 1)


def test_a_table_whose_row_is_held_is_skipped_and_closed_by_a_later_call():
    held, free = make_table(bots=())[0], make_table(bots=())[0]
    locked, release = threading.Event(), threading.Event()

    def hold_the_lock():
        with transaction.atomic():
            Table.objects.select_for_update().get(code=held)
            locked.set()
            release.wait(timeout=10)
        return "released"

    holder = in_thread(hold_the_lock, [])
    assert locked.wait(timeout=10)
    now = timezone.now() + A_DAY_ON
    started = time.monotonic()
    results: list = []
    in_thread(lambda: services.close_abandoned(now=now), results).join(timeout=10)
    assert results == [[free]]
    assert time.monotonic() - started < 5  # it did not wait for the held row
    assert Table.objects.get(code=held).status == Table.Status.PLAYING
    release.set()
    holder.join(timeout=10)
    assert services.close_abandoned(now=now) == [held]

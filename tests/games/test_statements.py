"""A move's statements, written as SQL once (games.statements): what they write must read
back through the ORM as the ORM would have written it, on SQLite and on PostgreSQL (the
PostgreSQL + Redis pass runs this file again). And the seats' read, which services run
whenever a seat changes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import screens, services, statements
from games.intents import parse
from games.models import Move, Table
from tests.games.tables import first_legal_move, started_table

pytestmark = pytest.mark.django_db


def test_saved_columns_read_back_as_the_orm_saves_them():
    table, _ = started_table()
    due = datetime(2026, 12, 1, 9, 30, 15, 123456, tzinfo=UTC)
    table.next_round_at, table.status, table.revision = due, Table.Status.FINISHED, 41
    before = Table.objects.get(pk=table.pk).updated_at

    statements.save_columns(table, ["next_round_at", "status", "revision", "updated_at"])

    row = Table.objects.get(pk=table.pk)
    assert (row.next_round_at, row.status, row.revision) == (due, "finished", 41)
    assert row.updated_at > before  # auto_now, as save() sets it


def test_a_move_appends_its_lines_to_the_log_as_json_with_their_numbers():
    table, tokens = started_table()
    turn = screens.screen(table.code, tokens[0]).data["game"]["turn"]
    lines_before = table.move_count

    services.act(table.code, tokens[turn], parse(first_legal_move(table, tokens[turn])))

    table.refresh_from_db()
    added = list(Move.objects.filter(table=table, number__gt=lines_before).order_by("number"))
    assert [m.number for m in added] == list(range(lines_before + 1, table.move_count + 1))
    assert all(m.version == table.version and m.created_at is not None for m in added)
    assert all(isinstance(m.record, dict) and m.record["type"] for m in added)


def test_a_service_uses_the_table_this_process_holds_only_at_the_revision_it_locked():
    """Another process has finished the table since this one cached it: the locked row's
    revision is newer, so the action must be judged on the row, not on the cached copy."""
    table, tokens = started_table()
    screens.message(table.code, tokens[0], table.version, table.revision)  # cached now
    turn = screens.screen(table.code, tokens[0]).data["game"]["turn"]
    move = parse(first_legal_move(table, tokens[turn]))
    Table.objects.filter(pk=table.pk).update(status="finished", revision=table.revision + 1)

    with pytest.raises(services.Refused, match="not being played"):
        services.act(table.code, tokens[turn], move)


def test_an_unknown_table_is_refused_by_the_lock():
    assert statements.lock_table("no-such-code") is None
    with pytest.raises(services.Refused, match="no table with that link"):
        services.act("no-such-code", "a-token", parse({"type": "draw", "version": 1}))


def test_a_tables_seats_are_read_without_joining_the_tables():
    """Seats are ordered by their table's id, not by the table (whose own ordering would
    join the tables to every read of a table's seats)."""
    table, _ = started_table()
    sql = str(table.seats.all().query)
    assert "JOIN" not in sql and [s.position for s in table.seats.all()] == [0, 1]

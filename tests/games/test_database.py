"""The database is the truth: a service reads the table and its seats under the row lock,
every write made outside the services (a queryset update, the admin, a data migration) is
seen by the next move, and the one in-process cache (a table's game, from its move log)
follows the log whoever wrote it."""

from __future__ import annotations

import json

import pytest

from games import screens, services
from games.engine import Rules, new_game, replay
from games.engine.records import deal_record
from games.forms import parse_intent as parse
from games.models import Move, Table
from tests.games.tables import first_legal_move, started_table, view_message

pytestmark = pytest.mark.django_db


def test_a_seed_set_by_a_queryset_update_before_the_start_deals_the_round():
    rules = Rules(highest_double=6, rounds=2)
    table, _ = services.create_table(rules=rules, seat_count=2, host_name="Ana")
    services.join(table.code, name="Ben")
    screens.screen(table.code, None)  # somebody looks at the lobby first
    Table.objects.filter(code=table.code).update(deal_secret="", deal_commitment="", seed=424242)

    services.start(table.code, host_token=table.host_token)

    deal = Move.objects.get(table=table, number=2).record
    assert deal == deal_record(new_game(rules, 2, seed=424242).round)


def test_a_table_finished_by_a_queryset_update_refuses_the_next_move():
    table, tokens = started_table()
    turn = screens.screen(table.code, tokens[0]).data["game"]["turn"]
    move = parse(first_legal_move(table, tokens[turn]))
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)

    with pytest.raises(services.Refused, match="not being played"):
        services.act(table.code, token=tokens[turn], intent=move)


def test_a_seat_renamed_outside_the_services_is_named_in_the_next_view_and_refusal():
    table, tokens = started_table()
    table.seats.filter(position=0).update(name="Anabel")
    view = json.loads(view_message(table.code, tokens[1]))
    assert [s["name"] for s in view["seats"]] == ["Anabel", "Ben"]
    turn = view["game"]["turn"]
    waiting = tokens[1 - turn]
    draw = parse({"type": "draw", "version": table.version})
    on_turn = ["Anabel", "Ben"][turn]
    with pytest.raises(services.Refused, match=f"not your turn: {on_turn} is to play"):
        services.act(table.code, token=waiting, intent=draw)


def test_a_move_another_process_committed_is_read_from_the_move_log(
    django_capture_on_commit_callbacks,
):
    """This process's cached game is behind once another process has moved: the next read
    takes the lines since from the log."""
    table, tokens = started_table()
    table.game()  # cached at the start
    turn = screens.screen(table.code, tokens[0]).data["game"]["turn"]
    with django_capture_on_commit_callbacks(execute=False):  # as if in another process
        services.act(
            table.code, token=tokens[turn], intent=parse(first_legal_move(table, tokens[turn]))
        )

    table.refresh_from_db()
    records = Move.objects.filter(table=table).order_by("number").values_list("record", flat=True)
    assert table.game() == replay(list(records))[-1]
    assert table.game().round.log[-1].seat == turn


def test_a_move_appends_its_lines_to_the_log_with_their_numbers():
    table, tokens = started_table()
    turn = screens.screen(table.code, tokens[0]).data["game"]["turn"]
    lines_before = table.move_count

    services.act(
        table.code, token=tokens[turn], intent=parse(first_legal_move(table, tokens[turn]))
    )

    table.refresh_from_db()
    added = list(Move.objects.filter(table=table, number__gt=lines_before).order_by("number"))
    assert [m.number for m in added] == list(range(lines_before + 1, table.move_count + 1))
    assert all(m.version == table.version and m.created_at is not None for m in added)
    assert all(isinstance(m.record, dict) and m.record["type"] for m in added)


def test_an_unknown_table_is_refused():
    with pytest.raises(services.Refused, match="no table with that link"):
        services.act("no-such-code", token="a-token", intent=parse({"type": "draw", "version": 1}))


def test_a_tables_seats_are_read_without_joining_the_tables():
    """Seats are ordered by their table's id, not by the table (whose own ordering would
    join the tables to every read of a table's seats)."""
    table, _ = started_table()
    sql = str(table.seats.all().query)
    assert "JOIN" not in sql and [s.position for s in table.seats.all()] == [0, 1]

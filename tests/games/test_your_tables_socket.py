"""The socket of "Your tables" through config.asgi: it sends the list once it opens, then,
when one of the listed tables changes, that table's row alone, and only if what the row
shows changed; the whole list again when a table moves to the finished ones.

transaction=True: the consumer runs its queries in another thread, which sees only
committed rows."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction

from config.asgi import application
from games.engine import Rules
from games.models import Table, group_name
from games.services import commit
from tests.games.conftest import make_table
from tests.games.tables import play_to_round_end

from .test_your_tables import take_turn

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3  # seconds; a frame arrives in milliseconds


@database_sync_to_async
def session_holding(seats: dict[str, str]) -> str:
    session = SessionStore()
    session["table_seats"] = seats
    session.save()
    return session.session_key


async def open_list(seats: dict[str, str]) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    headers.append((b"cookie", f"sessionid={await session_holding(seats)}".encode()))
    socket = WebsocketCommunicator(application, "/ws/tables/", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def test_a_move_sends_the_row_of_its_table_alone():
    # Seed 1: a deal where Ana's first turn does not end the round.
    first, _, first_seats = await database_sync_to_async(make_table)(bots=(), seed=1)
    second, _, second_seats = await database_sync_to_async(make_table)(bots=(), seed=1)
    page = await open_list({first: first_seats["Ana"], second: second_seats["Ana"]})
    opening = await page.receive_from(TIMEOUT)
    assert opening.startswith('<div id="your-tables"')
    assert opening.count("Your turn.") == 2

    await database_sync_to_async(take_turn)(second, second_seats["Ana"])
    row = await page.receive_from(TIMEOUT)  # a first turn's line: sent once the turn passes
    assert row.startswith(f'<li id="your-table-{second}"') and "Ben to play." in row
    assert first not in row
    assert await page.receive_nothing(0.2)

    await database_sync_to_async(take_turn)(first, first_seats["Ana"])
    row = await page.receive_from(TIMEOUT)
    assert row.startswith(f'<li id="your-table-{first}"') and "Ben to play." in row
    await page.disconnect()


async def test_a_change_the_row_does_not_show_sends_nothing():
    code, _, seats = await database_sync_to_async(make_table)(bots=())
    page = await open_list({code: seats["Ana"]})
    await page.receive_from(TIMEOUT)

    def bump():  # Ben's socket comes: the table's revision moves on, not its row
        with transaction.atomic():
            table, seats = commit.locked(code)
            seats[1].channel_name = "ben's socket"
            seats[1].save(update_fields=["channel_name"])
            commit.announce(table, seats)

    await database_sync_to_async(bump)()
    assert await page.receive_nothing(0.3)
    await page.disconnect()


async def test_a_finished_match_moves_to_the_finished_list():
    code, _, seats = await database_sync_to_async(make_table)(
        bots=(), rules=Rules(highest_double=6, rounds=1)
    )
    page = await open_list({code: seats["Ana"]})
    await page.receive_from(TIMEOUT)

    def finish():
        table = Table.objects.get(code=code)
        play_to_round_end(table, dict(enumerate(seats.values())))

    await database_sync_to_async(finish)()
    while True:  # a row for each move, then the whole list once the match is over
        frame = await page.receive_from(TIMEOUT)
        if frame.startswith('<div id="your-tables"'):
            break
        assert frame.startswith(f'<li id="your-table-{code}"')
    assert "Finished</h2>" in frame and "Won by" in frame
    await page.disconnect()


async def test_a_browser_without_tables_gets_the_empty_list():
    page = await open_list({})
    assert "No table of yours is under way." in await page.receive_from(TIMEOUT)
    await page.disconnect()


async def test_what_a_tables_group_tells_its_own_sockets_passes_the_list_by():
    code, _, seats = await database_sync_to_async(make_table)(bots=())
    page = await open_list({code: seats["Ana"]})
    await page.receive_from(TIMEOUT)
    layer = get_channel_layer()
    for message in (
        {"type": "table.moved", "code": "Xk3vQ9aB", "by": "Ana"},
        {"type": "table.other"},
    ):
        await layer.group_send(group_name(code), message)
    assert await page.receive_nothing(0.2)
    await database_sync_to_async(take_turn)(code, seats["Ana"])
    assert "Ben to play." in await page.receive_from(TIMEOUT)  # the socket is still open
    await page.disconnect()


async def test_a_change_announced_without_its_table_redraws_the_rows_that_changed():
    # Seed 1: a deal where Ana's first turn does not end the round.
    first, _, first_seats = await database_sync_to_async(make_table)(bots=(), seed=1)
    second, _, second_seats = await database_sync_to_async(make_table)(bots=(), seed=1)
    page = await open_list({first: first_seats["Ana"], second: second_seats["Ana"]})
    await page.receive_from(TIMEOUT)

    def clock_set_in_a_shell():  # as the admin or a shell would, then a plain announcement
        Table.objects.filter(code=first).update(pace="own", turn_limit=3600)

    await database_sync_to_async(clock_set_in_a_shell)()
    await get_channel_layer().group_send(group_name(first), {"type": "table.changed"})
    row = await page.receive_from(TIMEOUT)
    assert row.startswith(f'<li id="your-table-{first}"') and "At your own pace" in row
    assert await page.receive_nothing(0.2)  # the other row, unchanged, is not sent
    await page.disconnect()

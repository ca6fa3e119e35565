"""A seat's page tells its socket whether it is in sight, and the alerts hear it: the
socket that holds the seat and said visible keeps its person from being alerted."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.alerts.models import SeatAlerts
from games.alerts.sending import in_sight
from games.models import TableSeat

from .conftest import Player, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def sight(code: str, name: str) -> tuple[str, bool]:
    seat = TableSeat.objects.get(table__code=code, name=name)
    record = SeatAlerts.objects.filter(seat=seat).first()
    return (record.shown_on if record else ""), bool(record) and in_sight(seat, record)


async def test_the_page_in_sight_and_out_of_it_and_closed():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ben = Player(code, tokens["Ben"])
    await ben.connect()
    await ben.send({"type": "visibility", "visible": True})
    await ben.send({"type": "ping"})  # answered after the visibility is kept
    assert (await ben.next_message())["type"] == "pong"
    shown_on, looking = await database_sync_to_async(sight)(code, "Ben")
    assert shown_on and looking

    await ben.send({"type": "visibility", "visible": False})
    await ben.send({"type": "ping"})
    await ben.next_message()
    assert await database_sync_to_async(sight)(code, "Ben") == ("", False)

    await ben.send({"type": "visibility", "visible": True})
    await ben.send({"type": "ping"})
    await ben.next_message()
    await ben.close()
    assert await database_sync_to_async(sight)(code, "Ben") == ("", False)


async def test_a_spectator_says_nothing_and_a_bad_visibility_is_refused():
    code, _, _ = await database_sync_to_async(make_table)(bots=())
    watcher = Player(code, None)
    await watcher.connect()
    await watcher.send({"type": "visibility", "visible": True})
    await watcher.send({"type": "visibility", "visible": "yes"})
    refused = await watcher.next_message()
    assert refused["type"] == "error" and "visible: true or false" in refused["message"]
    assert not await database_sync_to_async(SeatAlerts.objects.exists)()

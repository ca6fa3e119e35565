"""Tables for the online-play tests: built through the services, played over sockets."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from games import consumers, services, waker
from games.engine import Rules
from games.models import Table
from tests.sockets import close_sockets, track_sockets

ORIGIN = (b"origin", b"http://localhost")


@pytest.fixture(autouse=True)
def quick_bots(settings):
    """Bots move at once (the expert after a short search), a finished round waits for
    Ready and a closed socket's seat is away at once, so tests run at full speed."""
    settings.BOT_TURN_DELAY = 0
    settings.EXPERT_BUDGET = 0.05
    settings.NEXT_ROUND_COUNTDOWN = 3600
    settings.SEAT_AWAY_AFTER = 0  # a closed socket's seat is away at once (unless a test waits)


def fresh_channel_layer() -> None:
    """Forget the channel layer, so the next use builds one in the running event loop:
    channels-redis binds its locks to the loop that first used them, and every test (and
    every async_to_sync call from a sync test) runs its own loop. Daphne has just one."""
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
async def stop_table_tasks(request, monkeypatch):
    """Around each test: a channel layer of its own; afterwards, disconnect every socket it
    left open, stop the bots and countdowns it started, and close the database connections
    of the thread that consumers use, so PostgreSQL can drop the test database (see
    tests/sockets.py for why the sockets)."""
    fresh_channel_layer()
    opened = track_sockets(monkeypatch)
    yield
    await close_sockets(opened)
    tasks = [*waker.wakes.values(), *waker.polls.values(), *consumers.away_timers]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    waker.wakes.clear()
    waker.looks_at.clear()
    waker.called.clear()
    waker.polls.clear()
    if request.node.get_closest_marker("django_db"):
        await database_sync_to_async(connections.close_all)()


def make_table(humans=("Ana", "Ben"), bots=("greedy", "greedy"), rules=None, start=True, seed=None):
    """A table with the given people (the first hosts) and bots, started unless told not to
    (its deal from ``seed`` if given). Returns the table code, the host token and each
    person's seat token, by name."""
    rules = rules or Rules(highest_double=6, rounds=2)
    table, host = services.create_table(
        rules=rules, seat_count=len(humans) + len(bots), host_name=humans[0]
    )
    tokens = {humans[0]: host.token}
    for name in humans[1:]:
        tokens[name] = services.join(table.code, name=name).token
    for level in bots:
        services.add_bot(table.code, host_token=table.host_token, level=level)
    if seed is not None:
        Table.objects.filter(pk=table.pk).update(deal_secret="", deal_commitment="", seed=seed)
    if start:
        services.start(table.code, host_token=table.host_token)
    return table.code, table.host_token, tokens


class Player:
    """One socket at a table, as a browser would hold it."""

    def __init__(self, code: str, token: str | None):
        query = f"?seat={token}" if token else ""
        self.socket = WebsocketCommunicator(
            application, f"/ws/table/{code}/{query}", headers=[ORIGIN]
        )
        self.view: dict | None = None
        self.received: list[dict] = []

    async def connect(self):
        connected, _ = await self.socket.connect()
        assert connected
        return await self.next_view()

    async def next_message(self, timeout=5):
        message = json.loads(await self.socket.receive_from(timeout=timeout))
        self.received.append(message)
        if message["type"] == "view":
            self.view = message
        return message

    async def next_view(self, timeout=5):
        while True:
            message = await self.next_message(timeout)
            if message["type"] == "view":
                return message

    async def send(self, message: dict):
        await self.socket.send_to(text_data=json.dumps(message))

    async def drain(self):
        """Read every message already waiting; the last view wins."""
        while not await self.socket.receive_nothing(timeout=0.05):
            await self.next_message()
        return self.view

    async def close(self):
        await self.socket.disconnect()

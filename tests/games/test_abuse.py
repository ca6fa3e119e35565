"""A hostile client at a table's socket: what it sends is bounded, and what it breaks is its
own socket only (common.sockets, the guard).

Floods and storms are timed in benchmarks/abuse.py; these tests hold the behaviour."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from common import sockets
from config.asgi import application
from games import services
from games.models import TableSeat

from .conftest import ORIGIN, Player, make_table
from .tables import intent

pytestmark = pytest.mark.django_db(transaction=True)

DEEP = "[" * 4_000
# 4 KB, under the size limit: the parser would recurse 4,000 deep


async def outputs_until_close(player: Player) -> tuple[list[dict], dict]:
    """Every frame the socket sends, up to and with its close."""
    sent = []
    while True:
        output = await player.socket.receive_output(timeout=2)
        if output["type"] == "websocket.close":
            return sent, output
        sent.append(json.loads(output["text"]))


async def flood(player: Player, frames: int) -> tuple[list[dict], dict]:
    """Send ``frames`` pings at once; what the socket sent back, and its close."""
    for _ in range(frames):
        await player.socket.send_to(text_data='{"type": "ping"}')
    return await outputs_until_close(player)


async def admitted(code: str, token: str | None) -> int:
    """How many sockets of ``token`` (None: a spectator) open, one after another, before
    one is refused (at most BURST tries)."""
    count = 0
    for _ in range(sockets.BURST):
        player = Player(code, token)
        connected, _ = await player.socket.connect()
        if not connected:
            break
        count += 1
        await player.next_view()
        await player.close()
    return count


@database_sync_to_async
def channel_of(code: str, name: str) -> str:
    return TableSeat.objects.get(table__code=code, name=name).channel_name


async def test_json_nested_deeper_than_any_message_gets_an_error_and_the_socket_stays():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    for deep in (DEEP, '{"type": "ping", "x": [[[[[1]]]]]}'):
        await ana.socket.send_to(text_data=deep)
        error = await ana.next_message()
        assert error["code"] == "bad_message" and "nested too deeply" in error["message"]
    await ana.send({"type": "ping"})
    assert (await ana.next_message())["type"] == "pong"
    assert await channel_of(code, "Ana")


async def test_a_failing_handler_closes_its_socket_logs_once_and_marks_the_seat_away(
    monkeypatch, caplog
):
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    assert await channel_of(code, "Ana")

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a service")

    monkeypatch.setattr(services, "act", broken)
    with caplog.at_level(logging.ERROR):
        await ana.send({"type": "draw", "version": view["version"]})
        sent, closed = await outputs_until_close(ana)
    assert closed == {"type": "websocket.close", "code": 1011}
    assert sent == []
    assert [r.message for r in caplog.records if r.levelno >= logging.ERROR] == [
        "A TableConsumer socket failed on websocket.receive"
    ]
    assert await channel_of(code, "Ana") == ""  # the others see Ana away; a bot stands in


async def test_after_a_flood_closes_the_socket_nothing_more_is_read_or_sent():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    sent, closed = await flood(ana, sockets.BURST + 30)
    assert closed == {"type": "websocket.close", "code": sockets.FLOOD}
    assert len(sent) < sockets.BURST  # pongs (and maybe a view) for what fitted the budget
    assert await ana.socket.receive_nothing(timeout=0.5)  # the 30 frames after: ignored
    assert await channel_of(code, "Ana") == ""


async def test_a_flooding_seat_cannot_come_back_at_once_with_a_fresh_socket():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    _, closed = await flood(ana, sockets.BURST + 1)
    assert closed["code"] == sockets.FLOOD
    again = Player(code, tokens["Ana"])
    connected, _ = await again.socket.connect()
    assert not connected  # refused at the handshake, before any database work
    assert await channel_of(code, "Ana") == ""


async def test_reconnecting_spends_the_seats_budget_so_a_storm_is_refused(monkeypatch):
    monkeypatch.setattr(sockets, "RATE", 0.0)  # no refill while the loop runs, however slow
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    # far quicker than any page reconnects
    assert await admitted(code, tokens["Ana"]) == sockets.BURST // sockets.CONNECT_COST


async def test_an_address_opening_sockets_faster_than_a_page_is_refused_at_the_handshake(
    monkeypatch,
):
    """Spectators hold no seat: their reconnects spend their address's budget."""
    monkeypatch.setattr(sockets, "RATE", 0.0)  # no refill while the loop runs, however slow
    code, _, _ = await database_sync_to_async(make_table)(bots=())
    assert await admitted(code, None) == sockets.BURST // sockets.CONNECT_COST


async def test_a_seat_reopened_on_a_new_screen_redraws_nobody_elses_view():
    """A reconnect that replaces a socket changes nothing the others see: no announcement,
    so a storm of screens taking a seat over cannot multiply the table's views."""
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ben = Player(code, tokens["Ben"])
    await ben.connect()
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    await ben.drain()  # Ana coming in is news: one view
    again = Player(code, tokens["Ana"])
    await again.connect()
    _, closed = await outputs_until_close(ana)
    assert closed["code"] == 4409  # the first screen stops
    assert await ben.socket.receive_nothing(timeout=0.5)


def peer_gone_once(app, gone: asyncio.Event):
    """``app`` served as daphne serves it when a client has left between two messages: a
    send on its socket raises autobahn's Disconnected."""

    async def served(scope, receive, send):
        async def send_to_client(message):
            if gone.is_set() and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await app(scope, receive, send_to_client)

    return served


async def test_a_view_for_a_client_already_gone_is_dropped_quietly_and_frees_the_seat(caplog):
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    gone = asyncio.Event()
    ben = Player(code, tokens["Ben"])
    ben.socket = WebsocketCommunicator(
        peer_gone_once(application, gone),
        f"/ws/table/{code}/?seat={tokens['Ben']}",
        headers=[ORIGIN],
    )
    await ben.connect()
    ana = Player(code, tokens["Ana"])
    view = await ana.connect()
    gone.set()  # Ben's phone drops off; Ana's move is then announced to his socket
    with caplog.at_level(logging.INFO):
        await ana.send(intent(view["game"]["legal"][0], view["version"]))
        await ana.next_view()
        await ben.socket.wait(timeout=2)  # his consumer ends, without an exception
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert await channel_of(code, "Ben") == ""


async def test_a_flooding_seat_cannot_come_back_at_once_as_a_spectator_either():
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    _, closed = await flood(ana, sockets.BURST + 1)
    assert closed["code"] == sockets.FLOOD
    connected, _ = await Player(code, None).socket.connect()
    assert not connected


async def test_a_socket_cancelled_while_it_releases_its_seat_finishes_the_release(monkeypatch):
    """The server stopping cancels every consumer: one in the middle of freeing its seat
    finishes first (a write left in its thread would wait for a loop that is gone)."""
    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    ana = Player(code, tokens["Ana"])
    await ana.connect()
    started, finished = threading.Event(), threading.Event()
    disconnect = services.disconnect

    def slow_disconnect(*args, **kwargs):
        started.set()
        time.sleep(0.3)
        disconnect(*args, **kwargs)
        finished.set()

    monkeypatch.setattr(services, "disconnect", slow_disconnect)
    await ana.socket.send_input({"type": "websocket.disconnect", "code": 1001})
    await asyncio.to_thread(started.wait, 2)
    ana.socket.future.cancel()  # as daphne does to every socket when it stops
    await asyncio.gather(ana.socket.future, return_exceptions=True)
    assert finished.is_set()  # the consumer ended only once its seat was free
    assert await channel_of(code, "Ana") == ""

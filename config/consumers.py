"""The base of the app's websocket consumers."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.utils import await_many_dispatch

from config import relay


class Consumer(AsyncWebsocketConsumer):
    """A websocket consumer that takes its messages from this process's relay
    (config.relay) and dispatches each straight to its handler.

    Channels' own consumer opens a channel of the layer for each socket and reads it; here
    the process's relay reads one channel for every socket, and the socket's address (its
    ``channel_name``) is what services keep and messages are sent to (``relay.send``).

    Channels' own dispatch first sends ``close_old_connections`` to its one shared sync
    thread, for every message a socket receives. Our consumers never use the ORM there:
    their database work goes through ``games.db`` or ``database_sync_to_async``, which close
    stale connections in the thread that does the work (on SQLite the calls run in the event
    loop, whose connection that hop never touched anyway). So the hop was pure cost, five
    times a move (the action, and the four seats told of it): a thread switch and a turn at
    the GIL each, behind every other table's, which at a hundred busy tables came to a
    sixteenth of the process's time (benchmarks/load.py --profile).
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.scope = scope
        self.base_send = send
        self.relay = relay.here()
        self.channel_name, inbox = await self.relay.open()
        try:
            await await_many_dispatch([receive, inbox.get], self.dispatch)
        except StopConsumer:
            pass
        finally:
            await self.relay.close(self.channel_name)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def join(self, group: str) -> None:
        """Receive the messages sent to ``group`` (relay.group_send) from now on."""
        await self.relay.join(group, self.channel_name)

    async def leave(self, group: str) -> None:
        await self.relay.leave(group, self.channel_name)

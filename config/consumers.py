"""The base of the app's websocket consumers."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class Consumer(AsyncWebsocketConsumer):
    """A websocket consumer that dispatches each message straight to its handler.

    Channels' own dispatch first sends ``close_old_connections`` to its one shared sync
    thread, for every message a socket receives. Our consumers never use the ORM there:
    their database work goes through ``games.db`` or ``database_sync_to_async``, which close
    stale connections in the thread that does the work (on SQLite the calls run in the event
    loop, whose connection that hop never touched anyway). So the hop was pure cost, five
    times a move (the action, and the four seats told of it): a thread switch and a turn at
    the GIL each, behind every other table's, which at a hundred busy tables came to a
    sixteenth of the process's time (benchmarks/load.py --profile).
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

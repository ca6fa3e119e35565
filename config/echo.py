"""A trivial echo consumer, the floor the load benchmark measures the game against.

It goes through the same stack as a table (daphne, the origin check, sessions, the channel
layer's groups through this process's relay) and does the least a table could: a message
from one socket is sent back to every socket of its group. It is routed only when
LOAD_TEST_ECHO=1 (benchmarks/load.py sets it), never in a normal deployment.
"""

from __future__ import annotations

from config import relay
from config.consumers import Consumer


class EchoConsumer(Consumer):
    async def connect(self) -> None:
        self.group = f"echo-{self.scope['url_route']['kwargs']['group']}"
        await self.join(self.group)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave(self.group)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await relay.group_send(self.group, {"type": "echo", "text": text_data or ""})

    async def echo(self, event: dict) -> None:
        await self.send(text_data=event["text"])

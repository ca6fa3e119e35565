"""A trivial echo consumer, the floor the load benchmark measures the game against.

It goes through the same stack as a table (daphne, the origin check, sessions, the channel
layer's groups) and does the least a table could: a message from one socket is sent back
to every socket of its group. It is routed only when LOAD_TEST_ECHO=1 (benchmarks/load.py
sets it), never in a normal deployment.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"echo-{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo", "text": text_data or ""})

    async def echo(self, event: dict) -> None:
        await self.send(text_data=event["text"])

"""The consumers' base (config.consumers): a socket's frames and the relay's messages reach
its handlers through one inbox, in the order they came, and only the relay's are rationed."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from config import relay
from config.consumers import Consumer

GROUP = "table-test"


class Recorder(Consumer):
    """Says back what it handles; a group message waits while the test holds ``gate``."""

    gate: asyncio.Event

    async def connect(self) -> None:
        await self.join(GROUP)
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=f"frame {text_data}")

    async def table_changed(self, event: dict) -> None:
        await self.gate.wait()
        await self.send(text_data=f"message {event['n']}")


@pytest.fixture
def small_layer(settings) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.layers.RationedInMemoryChannelLayer",
            "CONFIG": {"capacity": 2},
        }
    }


async def test_a_busy_socket_drops_messages_past_capacity_but_never_its_own_frames(small_layer):
    Recorder.gate = asyncio.Event()
    socket = WebsocketCommunicator(Recorder.as_asgi(), "/ws/test/")
    connected, _ = await socket.connect()
    assert connected

    for n in range(4):  # the first is being handled (it waits); two fit; the last is dropped
        await relay.group_send(GROUP, {"type": "table.changed", "n": n})
        await asyncio.sleep(0)
    await socket.send_to(text_data="hello")  # the inbox is full of messages: a frame still goes in
    Recorder.gate.set()

    said = [await socket.receive_from(timeout=2) for _ in range(4)]
    assert said == ["message 0", "message 1", "message 2", "frame hello"]
    assert await socket.receive_nothing()
    await socket.disconnect()
    assert not relay.here().inboxes  # the socket left the relay when it closed

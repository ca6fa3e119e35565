"""/healthz on the Redis channel layer: it answers 200 while the process's sockets wait for
their messages, and 503 when Redis really is gone.

channels-redis reads every process-specific channel of a process (a socket's, or any name
from new_channel) through one receive loop: whichever receive holds the layer's receive
lock blocks in BZPOPMIN on the process's inbox until a message for some socket arrives. A
probe on such a channel waited behind it, so a process with one idle socket answered 503
"channel_layer failed: TimeoutError" with nothing wrong (config/views.py).
"""

from __future__ import annotations

import asyncio
import socket

import pytest
from channels.layers import get_channel_layer
from django.test import override_settings

from config.settings import channel_layers

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def a_socket_waiting_for_its_messages() -> asyncio.Task:
    """What every connected consumer does between messages: a receive on its own channel.
    Returns once that receive holds the layer's receive lock (blocked in BZPOPMIN)."""
    layer = get_channel_layer()
    waiting = asyncio.create_task(layer.receive(await layer.new_channel()))
    async with asyncio.timeout(5):
        while not (layer.receive_lock and layer.receive_lock.locked()):
            await asyncio.sleep(0.01)
    return waiting


@pytest.mark.services
async def test_healthz_answers_200_while_a_socket_of_the_process_waits_on_redis(
    require_redis, async_client
):
    with override_settings(CHANNEL_LAYERS=channel_layers({"REDIS_URL": require_redis})):
        waiting = await a_socket_waiting_for_its_messages()
        try:
            response = await async_client.get("/healthz")
        finally:
            waiting.cancel()
            await asyncio.gather(waiting, return_exceptions=True)
            await get_channel_layer().close_pools()
    assert response.status_code == 200, response.json()
    assert response.json() == {"database": "ok", "channel_layer": "ok"}


async def test_healthz_answers_503_when_redis_does_not_answer(async_client):
    """The check still fails on a real fault: nothing listens where the layer points."""
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    with override_settings(CHANNEL_LAYERS=channel_layers({"REDIS_URL": nowhere})):
        response = await async_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "ok"
    assert response.json()["channel_layer"].startswith("failed: ")

"""The Redis layer (config.layers.RelayRedisChannelLayer) against a real Redis: a group
message in one or two round trips, yet every other member still gets it once, in order, and
expiry and capacity still hold as channels-redis has them."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.layers import get_channel_layer

from config.layers import RelayRedisChannelLayer


@pytest.fixture
async def layer():
    layer = get_channel_layer()
    assert isinstance(layer, RelayRedisChannelLayer)
    await layer.flush()
    yield layer
    await layer.flush()
    await layer.close_pools()


async def nothing_for(layer: RelayRedisChannelLayer, channel: str) -> bool:
    try:
        await asyncio.wait_for(layer.receive(channel), timeout=0.3)
    except TimeoutError:
        return True
    return False


async def test_a_group_message_reaches_every_member_but_its_sender_once_in_order(layer):
    sender, other, third = [await layer.new_channel() for _ in range(3)]
    for channel in (sender, other, third):
        await layer.group_add("table-x", channel)

    for n in (1, 2):
        await layer.group_send("table-x", {"type": "table.changed", "n": n, "from": sender})

    for channel in (other, third):
        got = [await layer.receive(channel) for _ in range(2)]
        assert [m["n"] for m in got] == [1, 2]
    assert await nothing_for(layer, sender)


async def test_a_message_sent_from_outside_a_process_reaches_every_member(layer):
    members = [await layer.new_channel() for _ in range(2)]
    for channel in members:
        await layer.group_add("sheet-x", channel)

    await layer.group_send("sheet-x", {"type": "sheet.changed"})  # a view's, with no "from"

    for channel in members:
        assert await layer.receive(channel) == {"type": "sheet.changed"}


async def test_a_group_with_only_its_sender_left_sends_nothing_through_redis(layer):
    sender = await layer.new_channel()
    await layer.group_add("table-x", sender)

    await layer.group_send("table-x", {"type": "table.changed", "from": sender})

    connection = layer.connection(0)
    assert await connection.keys(f"{layer.prefix}specific*") == []


async def test_a_member_past_the_group_expiry_is_dropped_and_not_sent_to(layer):
    stale, fresh = [await layer.new_channel() for _ in range(2)]
    await layer.group_add("table-x", fresh)
    key = layer._group_key("table-x")  # noqa: SLF001
    connection = layer.connection(layer.consistent_hash("table-x"))
    await connection.zadd(key, {stale: time.time() - layer.group_expiry - 5})

    await layer.group_send("table-x", {"type": "table.changed"})

    assert await layer.receive(fresh) == {"type": "table.changed"}
    assert await nothing_for(layer, stale)
    assert [m.decode() for m in await connection.zrange(key, 0, -1)] == [fresh]


async def test_a_full_process_loses_the_message_and_the_others_still_get_it(settings):
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    busy, idle = (RelayRedisChannelLayer(hosts=hosts, capacity=2) for _ in range(2))
    full, other = await busy.new_channel(), await idle.new_channel()  # two processes
    for channel in (full, other):
        await busy.group_add("table-x", channel)
    for n in range(2):
        await busy.send(full, {"type": "unread", "n": n})

    await busy.group_send("table-x", {"type": "table.changed"})

    assert await idle.receive(other) == {"type": "table.changed"}
    assert [(await busy.receive(full))["n"] for _ in range(2)] == [0, 1]
    assert await nothing_for(busy, full)
    await busy.flush()
    for layer in (busy, idle):
        await layer.close_pools()

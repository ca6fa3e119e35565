"""The relay (config.relay): one channel of the layer a process, however many sockets it
holds, and every message still reaching every socket of a group, each its own copy, in the
order sent. Two relays on one layer stand for two processes on one Redis."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from config import relay
from config.layers import RationedInMemoryChannelLayer
from config.relay import Relay


@pytest.fixture
def layer(settings) -> RationedInMemoryChannelLayer:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.layers.RationedInMemoryChannelLayer"}}
    return get_channel_layer()


async def received(inbox: asyncio.Queue, count: int) -> list[dict]:
    return [await asyncio.wait_for(inbox.get(), timeout=2) for _ in range(count)]


async def test_a_group_holds_each_process_once_and_each_socket_gets_its_own_copy(layer):
    first, second = Relay(layer), Relay(layer)
    sockets = [await first.open(), await first.open(), await second.open()]
    for address, _ in sockets:
        await (first if address.startswith(first.channel) else second).join("table-x", address)
    assert sorted(layer.groups["table-x"]) == sorted([first.channel, second.channel])

    for n in (1, 2):
        await relay.group_send("table-x", {"type": "table.changed", "move": {"n": n}})

    got = [await received(inbox, 2) for _, inbox in sockets]
    assert all([m["move"]["n"] for m in messages] == [1, 2] for messages in got)
    assert got[0][0] == got[1][0] and got[0][0] is not got[1][0]  # a copy each
    for relay_ in (first, second):
        for address in list(relay_.inboxes):
            await relay_.close(address)


async def test_a_message_to_one_socket_reaches_only_that_socket(layer):
    here = Relay(layer)
    (one, one_inbox), (other, other_inbox) = await here.open(), await here.open()

    await relay.send(one, {"type": "seat.replaced"})

    assert await received(one_inbox, 1) == [{"type": "seat.replaced"}]
    await asyncio.sleep(0.05)
    assert other_inbox.empty()
    await here.close(one)
    await here.close(other)


async def test_the_process_leaves_a_group_with_its_last_socket_there_and_stops_reading(layer):
    here = Relay(layer)
    (one, _), (other, inbox) = await here.open(), await here.open()
    await here.join("table-x", one)
    await here.join("table-x", other)

    await here.close(one)
    assert here.channel in layer.groups["table-x"]  # the other socket is still in it
    await relay.group_send("table-x", {"type": "table.changed"})
    assert await received(inbox, 1) == [{"type": "table.changed"}]

    await here.leave("table-x", other)
    assert "table-x" not in layer.groups or here.channel not in layer.groups["table-x"]
    reader = here._reader  # noqa: SLF001
    await here.close(other)
    await asyncio.sleep(0)
    assert reader.cancelled() and not here.inboxes


async def test_a_socket_that_reads_nothing_loses_messages_past_the_layers_capacity(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.layers.RationedInMemoryChannelLayer",
            "CONFIG": {"capacity": 2},
        }
    }
    here = relay.here()
    (slow, slow_inbox), (quick, quick_inbox) = await here.open(), await here.open()
    await here.join("table-x", slow)
    await here.join("table-x", quick)

    for n in range(3):
        await relay.group_send("table-x", {"type": "table.changed", "n": n})
        assert (await received(quick_inbox, 1))[0]["n"] == n  # a reader keeps up

    assert [m["n"] for m in await received(slow_inbox, 2)] == [0, 1]  # the third was dropped
    await here.close(slow)
    await here.close(quick)


@pytest.mark.parametrize(
    "backend",
    [
        "config.layers.RationedInMemoryChannelLayer",  # leaves the sender's channel out
        "channels.layers.InMemoryChannelLayer",  # sends it back, as channels-redis does
    ],
)
async def test_a_process_hands_its_own_sockets_a_message_once_as_the_layer_takes_it(
    settings, backend
):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": backend}}
    here, other = relay.here(), Relay(get_channel_layer())  # this process, and another
    (mine, my_inbox), (theirs, their_inbox) = await here.open(), await other.open()
    await here.join("table-x", mine)
    await other.join("table-x", theirs)

    await relay.group_send("table-x", {"type": "table.changed", "n": 1})

    assert my_inbox.qsize() == 1  # handed over when the send returned, with no reader's turn
    assert await received(their_inbox, 1) == [{"type": "table.changed", "n": 1}]
    await asyncio.sleep(0.05)  # time for this process's reader to see its own copy
    assert [m["n"] for m in await received(my_inbox, 1)] == [1] and my_inbox.empty()
    await here.close(mine)
    await other.close(theirs)

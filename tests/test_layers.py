"""The embedded default's channel layer (config.layers): rationed, but every message still
reaches every member of a group, each its own copy, as Channels' own layer delivers them."""

from __future__ import annotations

from config.layers import RationedInMemoryChannelLayer


async def test_a_group_message_reaches_every_member_even_past_a_full_channel():
    layer = RationedInMemoryChannelLayer(capacity=1)
    first, full, last = [await layer.new_channel() for _ in range(3)]
    for channel in (first, full, last):
        await layer.group_add("table", channel)
    await layer.send(full, {"type": "unread"})

    await layer.group_send("table", {"type": "changed", "lines": [{"seat": 1}]})

    got = [await layer.receive(first), await layer.receive(last)]
    assert got[0] == got[1] == {"type": "changed", "lines": [{"seat": 1}]}
    assert got[0]["lines"] is not got[1]["lines"]  # a copy each, as over Redis
    assert await layer.receive(full) == {"type": "unread"}  # the full one lost only this one

"""The app's channel layers: Channels' own two, with the bookkeeping of a group message cut
down. Both leave out the channel of the process that sent a group message (``relay.SENDER``):
config.relay handed that process's sockets their copies as it sent it. Nothing else about
either layer changes.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

from config.relay import SENDER

logger = logging.getLogger(__name__)

SWEEP_EVERY = 1.0  # seconds


class RationedInMemoryChannelLayer(InMemoryChannelLayer):
    """The embedded default's layer, its bookkeeping rationed.

    Channels' InMemoryChannelLayer looks through every channel and every group for expired
    messages on each receive: with a few hundred sockets open that is most of a busy table's
    channel-layer time, and it grows with the square of the sockets. Expired messages can
    wait a second to be swept. And it sends a group message to each member in a task of its
    own, then waits on them all; an in-memory send never waits (a full channel raises at
    once), so here the members are sent to one after the other.
    """

    _swept = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        sender = message.get(SENDER)
        for channel in [c for c in self.groups.get(group, {}) if c != sender]:
            with contextlib.suppress(ChannelFull):  # as Channels does: its reader is far behind
                await self.send(channel, message)


# For each member's key: drop its expired messages, then add the message unless the key
# holds ``capacity`` already. channels-redis runs the same steps, the first in a round trip
# of its own. Returns how many keys were full.
SEND_TO_MEMBERS = """
local now = tonumber(ARGV[#ARGV - 1])
local expiry = tonumber(ARGV[#ARGV])
local full = 0
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


class RelayRedisChannelLayer(RedisChannelLayer):
    """channels-redis, with a group message in one round trip to Redis, or two.

    channels-redis takes four for each group message: it drops the group's expired members,
    reads the members, drops each member's expired messages, then sends. And with the
    sockets of a table on one process (deploy/nginx.conf), the sender is often the group's
    only member: its own copy went through Redis only to be read back and skipped. Here the
    group's members are read in one round trip (their expiry in the same pipeline), the
    sender is left out, and the others are sent to in one more, each member's expired
    messages dropped in the same script. What is kept, expired and dropped when full is as
    channels-redis does it; messages for a single channel (``send``) are untouched. The
    keys and messages are made by channels-redis' own helpers, private ones, hence the
    pinned minor release (pyproject.toml) and tests/production/test_redis_layer.py, which
    runs this against a real Redis.
    """

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        async with connection.pipeline(transaction=False) as lookup:
            lookup.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            lookup.zrange(key, 0, -1)
            _, members = await lookup.execute()
        sender = message.get(SENDER)
        channels = [name for member in members if (name := member.decode()) != sender]
        if not channels:
            return
        by_connection, messages, capacities = self._map_channel_keys_to_connection(
            channels, message
        )
        for index, keys in by_connection.items():
            full = await self.connection(index).eval(
                SEND_TO_MEMBERS,
                len(keys),
                *keys,
                *(messages[k] for k in keys),
                *(capacities[k] for k in keys),
                time.time(),
                self.expiry,
            )
            if full:  # as channels-redis reports it
                logger.info(
                    "%s of %s channels over capacity in group %s", full, len(channels), group
                )

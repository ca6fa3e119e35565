"""The in-memory channel layer of the embedded default, with its bookkeeping rationed.

Channels' InMemoryChannelLayer looks through every channel and every group for expired
messages on each receive: with a few hundred sockets open that is most of a busy table's
channel-layer time, and it grows with the square of the sockets. Expired messages can wait a
second to be swept. And it sends a group message to each member in a task of its own, then
waits on them all; an in-memory send never waits (a full channel raises at once), so here
the members are sent to one after the other, leaving out the channel of the process that
sent it (config.relay: that process handed it to its own sockets as it sent it). Nothing
else about the layer changes.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class RationedInMemoryChannelLayer(InMemoryChannelLayer):
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
        sender = message.get("from")
        for channel in [c for c in self.groups.get(group, {}) if c != sender]:
            with contextlib.suppress(ChannelFull):  # as Channels does: its reader is far behind
                await self.send(channel, message)

"""A process's sockets behind one channel of the channel layer, and one reader of it.

Channels gives every socket a channel of its own, and sends a group message to each member
channel. Over channels-redis that is one Redis message a socket, and a process takes its
messages off Redis one at a time: each waiting socket takes a lock in turn, pops one
message, then clears it from a backup list before the next pop. A move at a table whose
four sockets share a process was eight round trips in a row, each waiting for a turn of a
busy event loop (benchmarks/load.py: a move's median on PostgreSQL with Redis was 20 to 30
ms at 50 tables where the same move on SQLite, with no Redis, took 8).

Here each process has one channel and one reader. A group holds the channels of the
processes that have a socket in it, not the sockets; a message sent to the group reaches
each of those processes once, and the process hands a copy to each of its sockets in the
group, in the order the messages came. A socket's address (kept as a seat's
``channel_name``) is its process's channel and a number, so a message for one socket goes
to its process too. A socket's inbox holds as many messages as a channel of the layer would;
past that a message is dropped, as the layer drops it, and the next one heals the screen.

A process hands a message to its own sockets itself, once the layer has taken it. The
app's layers leave the sending process out (config.layers), and a copy that comes back all
the same, through a layer that sends it (Channels' own), is skipped. Through the layer's
queue and the reader, a move reached its table's sockets in the same process a turn of the
event loop later, and at a hundred busy tables each turn can wait behind another table's
move. Not before the layer has it: a player who saw a move could then answer it before the
other processes' sockets can be told, and the answer could reach them first.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import weakref
from collections import defaultdict
from typing import Any

from channels.layers import BaseChannelLayer, get_channel_layer

SEPARATOR = "#"  # never in a channel name, so an address is never taken for a channel
SENDER = "from"  # a group message's key for the channel of the process that sent it


class Relay:
    """This event loop's sockets, the groups they are in, and the task that reads for them."""

    def __init__(self, layer: BaseChannelLayer) -> None:
        self.layer = layer
        self.channel = ""  # this process's channel, made on the first socket
        self.inboxes: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self.groups: dict[str, set[str]] = defaultdict(set)  # group -> addresses here
        self._numbers = itertools.count(1)
        self._membership = asyncio.Lock()  # the layer's group_add/discard in local order
        self._reader: asyncio.Task | None = None

    async def open(self) -> tuple[str, asyncio.Queue[dict[str, Any]]]:
        """A new socket: its address and the inbox its messages arrive in."""
        if not self.channel:
            self.channel = await self.layer.new_channel()
        address = f"{self.channel}{SEPARATOR}{next(self._numbers)}"
        self.inboxes[address] = asyncio.Queue(maxsize=getattr(self.layer, "capacity", 100))
        if self._reader is None:
            self._reader = asyncio.ensure_future(self._read())
        return address, self.inboxes[address]

    async def close(self, address: str) -> None:
        """The socket is gone: the reader stops with the last one, and the socket leaves
        every group it is still in. The inbox goes first, before anything that waits, so
        that a socket cancelled while closing leaves nothing behind here."""
        self.inboxes.pop(address, None)
        if not self.inboxes and self._reader is not None:
            self._reader.cancel()
            self._reader = None
        for group in [g for g, members in self.groups.items() if address in members]:
            await self.leave(group, address)

    async def join(self, group: str, address: str) -> None:
        async with self._membership:
            self.groups[group].add(address)
            # Every join, not only the first: it restarts the group's expiry clock.
            await self.layer.group_add(group, self.channel)

    async def leave(self, group: str, address: str) -> None:
        async with self._membership:
            members = self.groups.get(group)
            if members is None or address not in members:
                return
            members.discard(address)
            if not members:
                del self.groups[group]
                await self.layer.group_discard(group, self.channel)

    async def _read(self) -> None:
        while True:
            envelope = await self.layer.receive(self.channel)
            if envelope.get(SENDER) != self.channel:  # else handed out as it was sent
                self.deliver(envelope)

    def deliver(self, envelope: dict[str, Any]) -> None:
        """Hand a message from the layer to its sockets here, a copy each."""
        if "group" in envelope:
            addresses = self.groups.get(envelope["group"], ())
        else:
            addresses = (envelope["to"],)
        for address in addresses:
            inbox = self.inboxes.get(address)
            if inbox is not None:
                with contextlib.suppress(asyncio.QueueFull):  # as the layer drops it
                    inbox.put_nowait(dict(envelope["message"]))


_relays: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Relay] = weakref.WeakKeyDictionary()


def here() -> Relay:
    """The relay of the running event loop (daphne has one; each test has its own), on the
    channel layer in use now."""
    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    relay = _relays.get(loop)
    if relay is None or relay.layer is not layer:
        relay = _relays[loop] = Relay(layer)
    return relay


async def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to every socket in ``group``, in whichever process it is: the other
    processes' through the layer, then this process's own."""
    envelope = {"group": group, "message": message}
    local = _relays.get(asyncio.get_running_loop())
    sockets_here = local is not None and bool(local.channel)
    if sockets_here:
        envelope[SENDER] = local.channel
    await get_channel_layer().group_send(group, envelope)
    if sockets_here:
        local.deliver(envelope)


async def send(address: str, message: dict[str, Any]) -> None:
    """Send ``message`` to the one socket at ``address``, in whichever process it is."""
    channel = address.rpartition(SEPARATOR)[0]
    envelope = {"to": address, "message": message}
    local = _relays.get(asyncio.get_running_loop())
    if local is not None and local.channel == channel:
        local.deliver(envelope)
    else:
        await get_channel_layer().send(channel, envelope)

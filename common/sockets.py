"""The guard both websockets (a table's and a score sheet's) stand behind.

What a hostile client can send is bounded in layers (docs/security.md has the whole list):
nginx limits connections and upgrades per address, daphne the size of one message
(``--websocket-max-message-size``), and this guard what the application does for a socket:

- a cap on the frames waiting to be handled on one socket (a page never has more than a
  few in flight), weighed before Channels does any work for a frame;
- a budget of messages per *sender*, not per socket: a seat's token, else the client's
  address (daphne's ``--proxy-headers`` makes that the real one behind nginx). Opening a
  socket spends from it too, and an empty budget refuses the handshake before any database
  work, so reconnecting does not refill it. How many sockets one address may open is
  nginx's to limit (``limit_req`` on upgrades): a budget per address here would also stop
  a pub full of phones behind one router, and the load benchmark's hundreds of sockets;
- the frame's length is checked before anything reads it, and JSON nested deeper than any
  message of the protocol is refused with an error frame (the parser would otherwise recurse
  until a ``RecursionError``);
- a socket over its budget is closed at once, its sender's and its address's budgets are
  set below zero (a penalty of PENALTY seconds), and the consumer stops: frames still in
  flight are never handled, so nothing is sent to a closing socket;
- whatever ends a socket (a close, a client gone, an exception, a cancelled task), its
  ``release`` runs once, in a ``finally``: the seat is marked away even when a handler failed;
- a flooding socket's frames that daphne goes on reading until the connection is gone are
  read and dropped as they arrive, and once it is gone the memory they took is handed back
  to the system (``drain``, ``return_freed_memory``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from autobahn.exception import Disconnected  # what daphne raises on a send to a closed peer
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

log = logging.getLogger(__name__)

TOO_BIG = 4413  # 4xxx closes are final: the page stops reconnecting and says why
FLOOD = 4429
FAILED = 1011  # the server's own fault: the page reconnects

MAX_MESSAGE = 8_192  # characters; the longest legal message is well under 2 KB
MAX_DEPTH = 4  # the deepest message of either protocol is an object holding a list of lists
BURST = 30  # messages a sender may send at once...
RATE = 10.0  # ...and per second after that
CONNECT_COST = 3  # opening a socket spends three: eight phones on one wifi may open at once
PENALTY = 10.0  # seconds a flooding sender waits before it may connect again
# Daphne reads a closed socket's frames until its close handshake times out (autobahn's
# default, 1 s, later on a busy process): the drain gives up waiting after this long.
DRAIN_LIMIT = 30.0


@dataclass
class Budget:
    """A token bucket: BURST messages at once, RATE a second after that."""

    allowance: float
    checked: float

    def spend(self, cost: float, now: float) -> bool:
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < cost:
            return False
        self.allowance -= cost
        return True

    def full(self, now: float) -> bool:
        return self.allowance + (now - self.checked) * RATE >= BURST


# One process's budgets by sender. A sender idle long enough to have a full budget again is
# forgotten (a fresh one is the same), so the dictionary holds only the recently active.
budgets: dict[str, Budget] = {}
_pruned = 0.0


def budget(sender: str, now: float) -> Budget:
    global _pruned
    if now - _pruned > 60:
        for key in [k for k, b in budgets.items() if b.full(now)]:
            del budgets[key]
        _pruned = now
    return budgets.setdefault(sender, Budget(float(BURST), now))


def address_of(scope: dict[str, Any]) -> str:
    """The budget key of the client's address (daphne's ``--proxy-headers`` makes it the
    real client's behind nginx)."""
    client = scope.get("client") or ("unknown", 0)
    return f"address:{client[0]}"


def return_freed_memory() -> None:
    """Hand the memory a flood's frames took back to the system. Python frees it, but
    glibc's allocator keeps it (between live blocks, where its own trimming never looks),
    so a process grew 20-30 MB with each flood and stayed there; ``malloc_trim`` returns
    it (benchmarks/abuse.py measures both). Where the C library has no such call (musl,
    macOS), there is nothing to do."""
    gc.collect()  # daphne's closed connection holds the frames in a reference cycle
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


_draining: set[asyncio.Task] = set()  # the running drains, kept from the garbage collector


async def drain(queue: asyncio.Queue) -> None:
    """Read and drop what a stopped socket's client still sends, until daphne says the
    connection is gone, then hand the memory back. Daphne queues every frame it reads for
    the consumer, stopped or not, so a flood's tail would otherwise pile up there (some
    100,000 frames in the second a close handshake takes), and be freed only with the
    connection, at no moment this process could tell."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_LIMIT):
            while (await queue.get())["type"] != "websocket.disconnect":
                pass
    return_freed_memory()


class BadMessage(ValueError):
    """A frame that is not a JSON object of the protocol's shape: the text says why."""


def parse(text: str) -> dict[str, Any]:
    """The frame as a JSON object, refused when not one or nested deeper than MAX_DEPTH."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise BadMessage("That message is nested too deeply to be one of this game's.") from None
    except ValueError:
        raise BadMessage("Messages are JSON objects.") from None
    if not isinstance(data, dict):
        raise BadMessage("A message is a JSON object with a type.")
    if _depth(data) > MAX_DEPTH:
        raise BadMessage("That message is nested too deeply to be one of this game's.")
    return data


def _depth(value: Any, limit: int = MAX_DEPTH + 1) -> int:
    """How deep lists and objects nest in ``value``, counted no further than ``limit``."""
    if not isinstance(value, dict | list) or limit == 0:
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(item, limit - 1) for item in items), default=0)


class GuardedConsumer(AsyncWebsocketConsumer):
    """A websocket consumer behind the guard. Subclasses implement ``opened`` (after the
    handshake was admitted), ``message`` (each frame, parsed) and ``release`` (undo what
    ``opened`` did; it runs once, however the socket ends)."""

    sender: str = ""
    stopping = False
    _released = False

    # -- Channels' entry points --------------------------------------------------------------

    async def __call__(self, scope, receive, send) -> None:
        # Daphne (and asgiref's test communicator) hand a consumer its queue's ``get``: the
        # queue's size is what the client sent that waits to be handled.
        queue = getattr(receive, "__self__", None)
        self.queue = queue if isinstance(queue, asyncio.Queue) else None
        self.waiting = queue.qsize if self.queue is not None else lambda: 0
        try:
            await super().__call__(scope, receive, send)
        except asyncio.CancelledError:
            # The server is stopping: release, then end as if closed. Daphne waits for all
            # its sockets together and stops at the first that ends cancelled, which would
            # leave the others' releases half done in a thread with no loop to finish on.
            pass
        finally:
            await self._release_once()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Every message, the socket's and the groups'. A frame is weighed first: a flood
        costs as little as it can. A handler that fails closes this socket alone, logged
        once here (not again by daphne).

        The handler is called as Channels' own ``dispatch`` calls it, without the thread hop
        that closes old database connections before each message: every query of these
        consumers runs through ``database_sync_to_async``, which closes them around each
        call, so the hop only cost time: about 0.13 ms a message, five messages a move."""
        if self.stopping:
            return
        if message["type"] == "websocket.receive":
            await self.weigh(message)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except Exception:
            log.exception("A %s socket failed on %s", type(self).__name__, message.get("type"))
            await self.stop(FAILED)

    async def connect(self) -> None:
        """Admit the socket if its sender's budget allows one more, and open it."""
        self.sender = self.sender_key()
        now = time.monotonic()
        if not budget(self.sender, now).spend(CONNECT_COST, now):
            await self.close()  # before the handshake completes: daphne answers 403
            raise StopConsumer
        await self.accept()
        await self.opened()

    async def disconnect(self, code: int) -> None:
        await self._release_once()

    async def weigh(self, frame: dict[str, Any]) -> None:
        """Stop the socket if the frame is too long, or its sender over budget, or more than
        a burst of its frames wait to be handled (it writes faster than any page)."""
        now = time.monotonic()
        if self.waiting() > BURST or not budget(self.sender, now).spend(1, now):
            # Its address too: it must not come straight back as a spectator to flood again.
            for key in {self.sender, address_of(self.scope)}:
                budget(key, now).allowance = -PENALTY * RATE
            log.info("Closed a flooding %s socket of %s", type(self).__name__, self.sender)
            if self.queue is not None:
                task = asyncio.get_running_loop().create_task(drain(self.queue))
                _draining.add(task)
                task.add_done_callback(_draining.discard)
            await self.stop(FLOOD)
        if len(frame.get("text") or frame.get("bytes") or "") > MAX_MESSAGE:
            await self.stop(TOO_BIG)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.refuse("bad_message", "Messages are JSON text, not binary frames.")
            return
        try:
            data = parse(text_data)
        except BadMessage as error:
            await self.refuse("bad_message", str(error))
            return
        await self.message(data)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """Send, unless this socket is closing: its peer may have left between our reading
        its last frame and this answer, which is no error of ours."""
        if self.stopping:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            await self.stop(None)

    # -- for subclasses ----------------------------------------------------------------------

    def sender_key(self) -> str:
        """Whose budget this socket spends: by default the client's address."""
        return address_of(self.scope)

    async def opened(self) -> None:
        raise NotImplementedError

    async def message(self, data: dict[str, Any]) -> None:
        raise NotImplementedError

    async def release(self) -> None:
        raise NotImplementedError

    async def refuse(self, code: str, message: str) -> None:
        """Tell this socket alone what was wrong with its message."""
        error = {"type": "error", "code": code, "message": message}
        await self.send(text_data=json.dumps(error, separators=(",", ":")))

    async def stop(self, code: int | None) -> None:
        """Undo what this socket joined, close it (with ``code`` unless its peer is already
        gone), and end the consumer: frames still in flight are never handled."""
        if not self.stopping:
            self.stopping = True
            try:
                await self._release_once()  # first: once the page sees the close, all is undone
            finally:
                if code is not None:
                    await self.close(code=code)
        raise StopConsumer

    async def _release_once(self) -> None:
        """Release, to the end even when cancelled (the server stopping): a release half
        done leaves a database write in a thread that then waits for a loop that is gone,
        and the process cannot exit."""
        if self._released:
            return
        self._released = True
        releasing = asyncio.ensure_future(self.release())
        while not releasing.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(releasing)
        releasing.result()

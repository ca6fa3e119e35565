"""One socket on an online table: thin on purpose.

It finds who is connecting (the seat token kept in the session, or a rejoin token; nobody
is a spectator), reads each message, checks its shape, calls a service and answers this
socket alone with an error when something was refused. Committed changes come back through
the table's group as a version number; every socket then sends its own seat the complete
view, so a socket that missed a message heals with the next one.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import parse_qs

from config import relay
from config.consumers import Consumer

from . import live, runner, screens, services, sessions
from .db import db
from .intents import BadMessage, parse
from .movelog import NotCached

NO_TABLE = 4404  # 4xxx closes are final: the page stops reconnecting and says why
REPLACED = 4409
TOO_BIG = 4413
FLOOD = 4429

MAX_MESSAGE = 8_192  # bytes; the longest legal line is well under 2 KB
BURST = 30  # messages a socket may send at once...
RATE = 10.0  # ...and per second after that


# Reads in flight, by table and revision: every socket of a table is told of a change at
# once, and the first to ask reads the table for all of them (the others wait for it).
_reads: dict[tuple[str, int], asyncio.Future] = {}


async def _read_once(code: str, version: int | None, revision: int) -> None:
    key = (code, revision)
    read = _reads.get(key)
    if read is None:
        read = asyncio.ensure_future(db(screens.read)(code, version, revision))
        _reads[key] = read
        read.add_done_callback(lambda _: _reads.pop(key, None))
    await asyncio.shield(read)


def _cached_message(*args: Any, **ask: Any) -> str | None:
    """A view built from this process's caches alone, or None where it lacks something."""
    try:
        return screens.message(*args, **ask, cached_only=True)
    except NotCached:
        return None


class TableConsumer(Consumer):
    code: str
    token: str | None = None
    host_token: str = ""
    shown: int = 0  # the newest revision this socket was sent a view of, at least

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.token = self._token()
        self.host_token = sessions.host_token(self.scope.get("session"), self.code)
        self._allowance = float(BURST)
        self._checked = time.monotonic()
        await self.accept()
        try:
            replaced, self.shown = await db(services.connect)(
                self.code, self.token, self.channel_name
            )
        except services.Refused as refused:
            await self._send({"type": "error", "code": "refused", "message": str(refused)})
            await self.close(code=NO_TABLE)
            return
        if replaced:
            await relay.send(replaced, {"type": "seat.replaced"})
        await self.join(live.group_name(self.code))
        await self._send_view(with_sheet=True)
        await runner.resume(self.code)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "code"):
            return
        await self.leave(live.group_name(self.code))
        if self.token:
            await db(services.disconnect)(self.code, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._within_rate():
            await self.close(code=FLOOD)
            return
        if text_data is None:
            await self._error("bad_message", "Messages are JSON text, not binary frames.")
            return
        if len(text_data.encode()) > MAX_MESSAGE:
            await self.close(code=TOO_BIG)
            return
        try:
            intent = parse(json.loads(text_data))
        except (ValueError, BadMessage) as error:
            text = str(error) if isinstance(error, BadMessage) else "Messages are JSON objects."
            await self._error("bad_message", text)
            return
        if intent.type == "ping":
            await self._send({"type": "pong"})
            return
        if self.token is None:
            await self._error("spectator", "Spectators watch: take a seat to play.")
            return
        await self._act(intent)

    async def table_changed(self, event: dict[str, Any]) -> None:
        if event["revision"] <= self.shown:
            # Sent already: this socket joined the group as its own arrival was announced,
            # and its first view showed that. (Group members are counted when the message
            # reaches this process, not when it was sent: config.relay.)
            return
        self.shown = event["revision"]
        await self._send_view(event["version"], event["revision"], move=event.get("move"))

    async def seat_replaced(self, event: dict[str, Any]) -> None:
        """The seat was opened on another screen: this one stops, and says why."""
        await self._send(
            {
                "type": "replaced",
                "message": "This seat is now open on another screen, so this one has stopped.",
            }
        )
        self.token = None  # do not free the seat the other screen now holds
        await self.close(code=REPLACED)

    # -- helpers -------------------------------------------------------------------------

    async def _act(self, intent) -> None:
        call = services.ready if intent.type == "ready" else services.act
        args = (
            (self.code, self.token) if intent.type == "ready" else (self.code, self.token, intent)
        )
        try:
            outcome = await db(call)(*args)
        except services.Stale as stale:
            await self._error("stale", str(stale))
            await self._send_view()
            return
        except services.Refused as refused:
            await self._error("refused", str(refused))
            return
        runner.after(self.code, outcome)

    def _token(self) -> str | None:
        query = parse_qs(self.scope.get("query_string", b"").decode())
        if query.get("seat"):
            return query["seat"][0]
        return sessions.seat_token(self.scope.get("session"), self.code)

    def _within_rate(self) -> bool:
        """A token bucket: BURST messages at once, RATE a second after that."""
        now = time.monotonic()
        self._allowance = min(BURST, self._allowance + (now - self._checked) * RATE)
        self._checked = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    async def _send_view(
        self,
        version: int | None = None,
        revision: int | None = None,
        with_sheet: bool = False,
        move: dict[str, Any] | None = None,
    ) -> None:
        """This seat's view at a version and revision (default: the newest); the score sheet
        region only when asked (on connect), or while a round is over (screens.screen).
        Built right here when this process already holds what it shows (no database, no
        thread), else in a worker thread."""
        ask = {"host_token": self.host_token, "with_sheet": with_sheet}
        args = (self.code, self.token, version, revision)
        message = None
        if revision is not None:  # told of a change: this process may hold all it shows
            message = _cached_message(*args, **ask)
            if message is None and move is not None and screens.follow(self.code, move):
                message = _cached_message(*args, **ask)  # another process's move, taken in
            if message is None:  # one read serves every socket here
                await _read_once(self.code, version, revision)
                message = _cached_message(*args, **ask)
        if message is None:
            message = await db(screens.message)(*args, **ask)
        await self.send(text_data=message)

    async def _error(self, code: str, message: str) -> None:
        await self._send({"type": "error", "code": code, "message": message})

    async def _send(self, data: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(data, separators=(",", ":")))

"""The socket of "Your tables" (``/ws/tables/``): it only listens. It joins the group of
each table on the page's list, and when one changes it draws that table's row again and
sends it, if what the row shows changed (a seat coming and going changes nothing there);
htmx-ext-ws swaps it in by its id. When a table leaves the list under way (finished, its
seat freed, deleted) the whole list is sent. At the start it sends the whole list once,
which heals whatever changed between the page's drawing and the socket's opening."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from common.sockets import GuardedConsumer
from crews import sessions as crew_sessions

from . import selectors, sessions
from .models import group_name
from .selectors import TableRow

LIST = "games/partials/your_tables.html"
ROW = "games/partials/your_table.html"

read = database_sync_to_async


def page_context(tokens: dict[str, str], *, device: str) -> dict[str, list[TableRow]]:
    """The list as the page and its socket draw it: the tables under way, then the
    finished ones."""
    rows = selectors.your_tables(tokens, device=device)
    return {
        "playing": [row for row in rows if not row.finished],
        "finished": [row for row in rows if row.finished],
    }


def shows(row: TableRow | None) -> tuple:
    """Everything a row shows but its time left (which the page counts down itself)."""
    if row is None:
        return ()
    table = row.table
    return (table.status, table.pace, row.seat.name, row.elsewhere, row.names, row.round_number,
            row.rounds, row.turn, row.due_at, row.totals, row.winners)  # fmt: skip


class YourTablesConsumer(GuardedConsumer):
    """Its budget is the client address's (common.sockets), as the crew page's."""

    tokens: dict[str, str]
    device = ""
    shown: dict[str, tuple]  # each listed table's code: what its row shows now
    joined: set[str]  # the tables whose groups this socket is in

    async def opened(self) -> None:
        session = self.scope["session"]
        self.tokens = sessions.seats(session)
        self.device = crew_sessions.known_device(session)
        self.shown, self.joined = {}, set()
        await self.send_list()

    async def release(self) -> None:
        for code in getattr(self, "joined", ()):
            await self.channel_layer.group_discard(group_name(code), self.channel_name)

    async def message(self, data: dict[str, Any]) -> None:
        """The page sends nothing; whatever arrives is ignored."""

    async def table_changed(self, event: dict[str, Any]) -> None:
        """A table of the list changed: its row again. A message that does not say which
        table (an admin's, a shell's) has every row drawn again, and the changed ones sent."""
        code = (event.get("table") or {}).get("code")
        if code is not None and code not in self.shown:
            return  # a table the list has let go of (its seat freed): nothing to draw
        for each in list(self.shown) if code is None else [code]:
            await self.send_row(each)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """The tables' groups carry messages for the tables' own sockets too (a match
        played again, and whatever else a table's page is told): the list handles the
        changes it shows and lets the rest pass."""
        if message["type"].startswith("websocket.") or hasattr(self, get_handler_name(message)):
            await super().dispatch(message)

    async def send_list(self) -> None:
        html, self.shown = await read(self._list)()
        for code in self.shown.keys() - self.joined:
            await self.channel_layer.group_add(group_name(code), self.channel_name)
            self.joined.add(code)
        await self.send(text_data=html)

    async def send_row(self, code: str) -> None:
        row = await read(selectors.your_table)(
            code, token=self.tokens.get(code), device=self.device
        )
        before = self.shown[code]
        if shows(row) == before:
            return
        if row is None or row.finished != (before[0] == "finished"):
            await self.send_list()  # the row leaves a list, or moves to the other one
            return
        self.shown[code] = shows(row)
        html = await read(render_to_string)(ROW, {"row": row})
        await self.send(text_data=html.strip())

    def _list(self) -> tuple[str, dict[str, tuple]]:
        context = page_context(self.tokens, device=self.device)
        rows = context["playing"] + context["finished"]
        return render_to_string(LIST, context).strip(), {row.table.code: shows(row) for row in rows}

"""One open score sheet over a websocket: thin on purpose.

It checks who is connecting (a device that joined with the match's link edits; the TV link
only watches), reads each message, calls a service and answers this phone alone (an ack,
or a notice when a change was not applied). Services announce committed changes to the
match's group; every socket then renders its own view of the changed regions, as the same
partials the page renders, so htmx-ext-ws swaps them in by id. A socket that (re)connects,
or asks with ``sync``, gets the whole current sheet.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async

from common.sockets import GuardedConsumer

from . import live, services, sessions
from .entries import Refused
from .forms import parse_edit, parse_setting, parse_undo
from .models import Match
from .rendering import Viewer, render_notice, render_parts, render_question

REFUSED = 4403  # a 4xxx close tells htmx-ext-ws not to reconnect


class SheetConsumer(GuardedConsumer):
    """Its budget is the client address's (common.sockets): phones hold no seat token."""

    match_id: int | None = None
    viewer: Viewer

    async def opened(self) -> None:
        found = await self._find(self.scope["url_route"]["kwargs"])
        if found is None:
            await self.stop(REFUSED)
        self.match_id, self.viewer = found
        await self.channel_layer.group_add(live.group_name(self.match_id), self.channel_name)
        await self.send(text_data=await self._render(live.ALL_PARTS))

    async def release(self) -> None:
        if self.match_id is not None:
            await self.channel_layer.group_discard(
                live.group_name(self.match_id), self.channel_name
            )

    async def message(self, data: dict[str, Any]) -> None:
        for frame in await self._handle(data):
            await self.send(text_data=frame)

    async def refuse(self, code: str, message: str) -> None:
        """The sheet speaks HTML to htmx: a refusal is a notice, as every other."""
        await self.send(text_data=render_notice("That message could not be read; reload the page."))

    async def sheet_changed(self, event: dict[str, Any]) -> None:
        """A committed change to this match: redraw the regions it touched."""
        await self.send(text_data=await self._render(event["parts"]))

    # -- the database side, one thread (database_sync_to_async) --------------------------

    @database_sync_to_async
    def _find(self, kwargs: dict[str, str]) -> tuple[int, Viewer] | None:
        if "viewer_code" in kwargs:
            match = Match.objects.filter(viewer_code=kwargs["viewer_code"]).first()
            return (match.pk, Viewer(editor=False)) if match else None
        match = Match.objects.filter(code=kwargs["code"]).first()
        me = sessions.joined(self.scope["session"], match.code) if match else None
        return (match.pk, Viewer(editor=True, name=me["name"])) if me else None

    @database_sync_to_async
    def _render(self, parts: list[str] | tuple[str, ...]) -> str:
        return render_parts(Match.objects.get(pk=self.match_id), self.viewer, parts)

    @database_sync_to_async
    def _handle(self, message: dict[str, Any]) -> list[str]:
        """Frames for this phone only: what became of its message."""
        match = Match.objects.get(pk=self.match_id)
        if not self.viewer.editor:
            return [render_notice("This is the read-only sheet: open the join link to edit.")]
        action = message.get("action")
        if action == "sync":
            return [render_parts(match, self.viewer, live.ALL_PARTS)]
        if action == "entry":
            return self._entry(match, message)
        try:
            if action == "setting":
                setting, value, was = parse_setting(message)
                services.change_setting(match, setting, value, was=was, by=self.viewer.name)
            elif action == "undo":
                change, confirmed = parse_undo(message)
                services.undo(match, change, by=self.viewer.name, confirmed=confirmed)
            else:
                raise Refused("That message could not be read; reload the page.")
        except services.AskFirst as question:
            return [render_question(str(question), question.change)]
        except Refused as refusal:
            # The phone may show rules that are out of date: send them again with the reason.
            return [render_notice(str(refusal)), render_parts(match, self.viewer)]
        return []

    def _entry(self, match: Match, message: dict[str, Any]) -> list[str]:
        client_id = str(message.get("client_id", ""))
        try:
            edit = parse_edit(message)
            outcome = services.record_entry(
                match,
                edit.round,
                edit.seat,
                edit.value,
                base_version=edit.base_version,
                client_id=edit.client_id,
                by=self.viewer.name,
            )
        except Refused as refusal:
            return [
                render_notice(str(refusal), entry=client_id),
                _ack(client_id, "refused", str(refusal)),
            ]
        frames = []
        if outcome.status == services.STALE:
            entry = outcome.entry
            conflict = {
                "round": edit.round,
                "player": entry.seat.player.name,
                "theirs": entry.value,
                "by": entry.entered_by or "nobody",
                "yours": edit.value,
                "retry": {
                    "round": edit.round,
                    "seat": edit.seat,
                    "base_version": entry.version,
                    "value": edit.value.to_json(),
                },
            }
            frames.append(render_notice("Not saved: the cell changed first.", conflict))
        return [*frames, _ack(client_id, outcome.status)]


def _ack(client_id: str, outcome: str, refusal: str = "") -> str:
    """A JSON frame (htmx swaps only HTML): the phone drops the entry from its outbox. A
    refusal's sentence rides along, so an editor still open for the entry shows it there
    and keeps what was typed."""
    ack = {"ack": client_id, "outcome": outcome}
    if refusal:
        ack["message"] = refusal
    return json.dumps(ack)

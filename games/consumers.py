"""One socket on an online table: thin on purpose.

It finds who is connecting (the seat token kept in the session, or a rejoin token; nobody
is a spectator), reads each message, checks its shape, calls a service and answers this
socket alone with an error when something was refused. Committed changes come back through
the table's group as ``table.changed``; every socket then sends its own seat the view
(games.screens), with only the regions its page does not hold yet (games.wire): the page
keeps the rest. A socket that missed a message heals with the next view, which is whole
when its version skips one this socket never sent.

What a table does on its own (bots taking their turns, a turn whose clock ran out, the
next round's deal) is the clock's (games.waker, games.services.clock): every announcement
of a committed change says when the table is next due, whoever made the change (a socket,
a page, the admin, a shell), and each socket that hears it has its process wake then.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.urls import reverse

from common.sockets import GuardedConsumer

from . import screens, selectors, services, sessions, waker
from .alerts import sending as alerts
from .forms import SEAT_INTENTS, BadMessage, Intent, parse_intent
from .models import group_name
from .threads import read, write
from .wire import Sent

NO_TABLE = 4404  # 4xxx closes are final: the page stops reconnecting and says why
REPLACED = 4409


class TableConsumer(GuardedConsumer):
    code: str
    token: str | None = None
    group = ""
    viewer: screens.Viewer
    shown: int = 0  # the newest revision this socket has sent a view of
    sent: Sent  # what this socket's page holds: a digest of each region (games.wire)
    asked = False  # it asked for a seat: its request goes when it closes

    # -- connection ------------------------------------------------------------------------

    def sender_key(self) -> str:
        """Who connects is read here, first thing (the table's code, a seat's token): a
        seat's budget follows its token across sockets; a spectator's, the address."""
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.token = self._token()
        return f"seat:{self.token}" if self.token else super().sender_key()

    async def opened(self) -> None:
        host_token = sessions.host_token(self.scope.get("session"), self.code)
        try:
            self.viewer, replaced, due = await write(services.connect)(
                self.code, token=self.token, host_token=host_token, channel=self.channel_name
            )
        except services.Refused as refused:
            self.token = None  # it holds no seat: nothing to free
            await self.refuse("refused", str(refused))
            await self.stop(NO_TABLE)
        if replaced:
            await self.channel_layer.send(replaced, {"type": "seat.replaced"})
        # Joined before the first view is read: a change committed from here on is
        # announced to this socket, and one committed before is in the view.
        self.group = group_name(self.code)
        self.sent = Sent()  # nothing yet: the first view is whole
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.push(with_sheet=True)
        after(self.code, due)  # what a restarted server left waiting: bots, a countdown
        rematch = await read(screens.rematch)(self.code)
        if rematch:  # the match was played again while this page was away
            await self.table_moved(rematch)

    async def release(self) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.token:
                await write(alerts.left)(channel=self.channel_name)
                await gone(self.code, self.channel_name)
            elif self.asked:  # its request goes at once: the answer could reach nobody
                await write(services.disconnect)(self.code, channel=self.channel_name)

    # -- what the browser sends --------------------------------------------------------------

    async def message(self, data: dict[str, Any]) -> None:
        try:
            intent = parse_intent(data)
        except BadMessage as error:
            await self.refuse("bad_message", str(error))
            return
        if intent.type == "ping":
            await self._send({"type": "pong"})
            # A page pings after 20 s of silence: if it missed the last change (a message
            # the channel layer dropped), this is when it gets the view, whole.
            if (await read(screens.revision)(self.code) or 0) > self.shown:
                await self.push(whole=True)
            return
        if intent.type in SEAT_INTENTS:
            await self._seat_request(intent)
            return
        if intent.type == "visibility":  # for the alerts: a spectator's page says nothing
            if self.token is not None:
                await write(alerts.seen)(
                    code=self.code, channel=self.channel_name, visible=intent.visible
                )
            return
        if self.token is None:
            await self.refuse("spectator", "Spectators watch: take a seat to play.")
            return
        await self._act(intent)

    async def _seat_request(self, intent: Intent) -> None:
        """Somebody watching asks for a seat back (or cancels), or a person at the table
        answers such a request: the answer comes back to the asker from the service."""
        try:
            if intent.type == "ask_seat":
                await write(services.ask_for_seat)(
                    self.code, token=self.token, channel=self.channel_name, position=intent.position
                )
                self.asked = True
            elif intent.type == "cancel_ask":
                await write(services.cancel_seat_request)(self.code, channel=self.channel_name)
            elif self.token is None:
                await self.refuse("spectator", "Only a person at the table can answer that.")
            else:
                await write(services.answer_seat_request)(
                    self.code, token=self.token, position=intent.position, approve=intent.approve
                )
        except services.Refused as refused:
            await self.refuse("refused", str(refused))

    async def _act(self, intent: Intent) -> None:
        try:
            if intent.type == "ready":
                outcome = await write(services.ready)(self.code, token=self.token)
            else:
                outcome = await write(services.act)(self.code, token=self.token, intent=intent)
        except services.Stale as stale:
            await self.refuse("stale", str(stale))
            await self.push(whole=True)
            return
        except services.Refused as refused:
            await self.refuse("refused", str(refused))
            return
        after(self.code, outcome)  # at once, without waiting for the announcement

    # -- what the table's group sends --------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        """A committed change: send this seat the view, unless it has sent one as new (the
        group's messages can arrive out of order), and start what the change left due. A
        message from a service carries the table as committed and what is due; any other
        (an admin's, a shell's) has both read afresh."""
        revision = event.get("revision")
        if revision is None or revision > self.shown:
            await self.push(shown=event.get("table"))
        if "due" in event:
            after(self.code, selectors.Outcome(**event["due"]))
        elif "table" not in event:
            after(self.code, await read(selectors.due)(self.code))

    async def table_moved(self, event: dict[str, Any]) -> None:
        """The finished match is being played again at a new table, opened by ``by``: the
        page offers the way there (the finished table's link leads there too)."""
        url = reverse("games:table", args=[event["code"]])
        await self._send({"type": "moved", "url": url, "by": event["by"]})

    async def seat_replaced(self, event: dict[str, Any]) -> None:
        """The seat was opened on another screen: this one stops, and says why."""
        await self._send(
            {
                "type": "replaced",
                "message": "This seat is now open on another screen, so this one has stopped.",
            }
        )
        self.token = None  # do not free the seat the other screen now holds
        await self.stop(REPLACED)

    async def seat_granted(self, event: dict[str, Any]) -> None:
        """The seat this screen asked for is given to it, under a new token: the page opens
        the seat's rejoin link, which puts the token in this browser's session."""
        url = reverse("games:rejoin", args=[self.code, event["token"]])
        await self._send({"type": "seat_granted", "url": url})

    async def seat_refused(self, event: dict[str, Any]) -> None:
        await self._send({"type": "seat_refused", "message": event["message"]})

    # -- helpers -----------------------------------------------------------------------------

    async def push(
        self, with_sheet: bool = False, shown: dict | None = None, whole: bool = False
    ) -> None:
        """Send this seat its view: of the table as ``shown`` by an announcement, else as
        it is now; only what its page does not hold yet, unless ``whole``."""
        args = (self.code, self.viewer)
        sent = {"sent": self.sent, "whole": whole}
        if screens.drawn_from_memory(shown, with_sheet):  # no read: drawn here, no thread hop
            text, revision = screens.view_message(*args, shown=shown, **sent)
        else:
            text, revision = await read(screens.view_message)(
                *args, with_sheet=with_sheet, shown=shown, **sent
            )
        self.shown = max(self.shown, revision)
        await self.send(text_data=text)

    def _token(self) -> str | None:
        query = parse_qs(self.scope.get("query_string", b"").decode())
        if query.get("seat"):
            return query["seat"][0]
        return sessions.seat_token(self.scope.get("session"), self.code)

    async def _send(self, data: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(data, separators=(",", ":")))


# -- a seat's socket gone ----------------------------------------------------------------

away_timers: set[asyncio.Task] = set()  # seats to be told away, each after SEAT_AWAY_AFTER


async def gone(code: str, channel: str) -> None:
    """A seat's socket closed. The seat is told away only SEAT_AWAY_AFTER seconds later,
    and only if no socket has taken it meanwhile (services.disconnect finds no seat held by
    an old socket): a page that reloads, as every lobby page does when the host starts the
    match, is back before anyone reads that its person has lost the connection."""
    if settings.SEAT_AWAY_AFTER <= 0:
        await write(services.disconnect)(code, channel=channel)
        return
    task = asyncio.create_task(_away_later(code, channel))
    away_timers.add(task)
    task.add_done_callback(away_timers.discard)
    task.add_done_callback(waker.report)


async def _away_later(code: str, channel: str) -> None:
    await asyncio.sleep(settings.SEAT_AWAY_AFTER)
    await write(services.disconnect)(code, channel=channel)


def after(code: str, outcome: selectors.Outcome | None) -> None:
    """Wake for what a committed change leaves due (games.waker): every socket of the
    table calls it on each announcement; a process looks at a table once all the same."""
    if outcome is not None:
        waker.wake_in(code, outcome.due_in)

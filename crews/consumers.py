"""An open crew page over a websocket: it only listens. When a match counted for the crew
changes (or somebody joins, claims or starts a season), the page's live region is drawn
again for this member and pushed; htmx-ext-ws swaps it in by its id. A page showing an
earlier season (``?season=<number>`` on the socket's address, as on the page's) is pushed
that season, not the current one."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from common.sockets import GuardedConsumer

from . import live, services
from .models import Crew
from .page import crew_context

REFUSED = 4403  # a 4xxx close tells htmx-ext-ws not to reconnect


class CrewConsumer(GuardedConsumer):
    """Its budget is the client address's (common.sockets), as the score sheet's."""

    crew_code: str | None = None
    member_id: int | None = None
    season: int | None = None  # the number of the season the page shows; None: the current

    async def opened(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        self.member_id = await self._member_id(code)
        if self.member_id is None:
            await self.stop(REFUSED)
        self.crew_code = code
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        try:
            self.season = int(query.get("season", [""])[0])
        except ValueError:
            self.season = None
        await self.channel_layer.group_add(live.group_name(code), self.channel_name)

    async def release(self) -> None:
        if self.crew_code is not None:
            await self.channel_layer.group_discard(
                live.group_name(self.crew_code), self.channel_name
            )

    async def message(self, data: dict[str, Any]) -> None:
        """The page sends nothing; whatever arrives is ignored."""

    async def crew_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await self._render())

    @database_sync_to_async
    def _member_id(self, code: str) -> int | None:
        crew = Crew.objects.filter(code=code).first()
        device = self.scope["session"].get("device", "") if crew else ""
        member = services.member_of(crew, device) if crew else None
        return member.pk if member else None

    @database_sync_to_async
    def _render(self) -> str:
        crew = Crew.objects.get(code=self.crew_code)
        me = crew.members.select_related("player").get(pk=self.member_id)
        shown = crew.seasons.filter(number=self.season).first() if self.season else None
        return render_to_string(
            "crews/partials/live.html", crew_context(crew, shown or crew.current_season(), me)
        )

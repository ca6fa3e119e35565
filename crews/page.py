"""What the crew page shows, worked out once for the page and for each live push: the
season's standings, ratings, head-to-head and game nights, and the crew's matches."""

from __future__ import annotations

from typing import Any

from .chart import nights_svg
from .models import Crew, CrewMatch, Member, Season
from .ranking import places
from .results import results
from .standings import bot_standings, game_nights, head_to_head, standings


def crew_context(crew: Crew, season: Season, me: Member) -> dict[str, Any]:
    filed = list(
        CrewMatch.objects.filter(season=season).select_related("match").order_by("-filed_at")
    )
    season_results = results(f.match for f in filed)
    by_match = {r.match: r for r in season_results}
    members = list(crew.members.select_related("player"))
    colours = {m.player_id: m.colour for m in members}
    names = {m.player_id: m.name for m in members}
    nights = game_nights(season_results)
    ratings = season.ratings.select_related("player")
    # A guest (a player of the crew's matches who is no member) plays in them and counts
    # in the members' ratings, but is listed apart: a guest of one night does not lead the
    # crew's standings, nor its ratings.
    lines = standings(season_results)
    return {
        "crew": crew,
        "me": me,
        "season": season,
        "seasons": list(crew.seasons.order_by("-number")),
        "members": members,
        "member_players": set(names),
        "claims": [m for m in members if m.claimed_by],
        "standings": [line for line in lines if line.person in names],
        "guests": [line for line in lines if line.person not in names],
        "bots": bot_standings(season_results),
        "ratings": places(ratings, names),
        "head_to_head": head_to_head(season_results),
        "nights": nights,
        "latest_night": nights[-1].date if nights else None,
        "chart": nights_svg(nights, colours, names) if nights else "",
        "matches": [(f, by_match[f.match_id]) for f in filed],
    }

"""A crew's history to take away: every seat of every match filed to it as CSV (for a
spreadsheet), or the whole crew as JSON (for a program, or to keep).

Both read the same results as the crew page (``crews.results``). Neither gives a secret: not
the crew's join code, nor a device, nor a match's join code (whoever has that can change its
sheet); a match is named by its read-only link's code, which is what a member could share
anyway.

An online match's game record (its move log) is the online table's, which lives in ``games``
above this app: the games side passes ``records`` (``games.review.records_of``) to
:func:`crew_json`, and only a finished match's record is written, since a record in play
shows every hand.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from common.csv_cells import csv_cell
from scoring.models import Match

from .models import Crew, CrewMatch
from .results import Placing, Result, results

CSV_HEADER = (
    "season",
    "date",
    "kind",
    "match",
    "status",
    "seat",
    "name",
    "bot",
    "total",
    "won",
    "rounds out",
)

Records = Callable[[Match], list[dict[str, Any]]]


def filed_results(crew: Crew) -> list[tuple[CrewMatch, Match, Result]]:
    """Each match filed to the crew with its filing and result, oldest first."""
    filings = {
        f.match_id: f for f in CrewMatch.objects.filter(crew=crew).select_related("season", "match")
    }
    matches = {match_id: f.match for match_id, f in filings.items()}
    return [(filings[r.match], matches[r.match], r) for r in results(matches.values())]


def crew_csv(crew: Crew) -> str:
    """One row per seat of every match filed to the crew, oldest match first, seats in
    order (seat 1 first). ``won`` is the seat's share of the win (1, 1/2 for a tie of two,
    0); ``rounds out`` counts the counted rounds it went out in. Every text cell is guarded
    against being run as a formula (``common.csv_cells``): the names are whatever people
    typed."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for filing, match, result in filed_results(crew):
        for position, placing in enumerate(result.placings):  # the sheet's seat order
            writer.writerow(
                csv_cell(cell)
                for cell in (
                    str(filing.season),
                    result.night.isoformat(),
                    result.kind,
                    match.viewer_code,
                    "finished" if result.finished else "in progress",
                    position + 1,
                    placing.name,
                    placing.bot,
                    placing.total,
                    round(placing.won, 4),
                    placing.outs,
                )
            )
    return out.getvalue()


def crew_json(crew: Crew, records: Records | None = None) -> dict[str, Any]:
    """The crew as plain data ``json.dumps`` writes as it is: its name, seasons, members,
    and every filed match with its seats, their rounds and totals. With ``records``, a
    finished online match also carries its game record, line by line."""
    seasons = crew.seasons.order_by("number")
    members = crew.members.select_related("player").order_by("joined_at", "pk")
    matches = []
    for filing, match, result in filed_results(crew):
        entry: dict[str, Any] = {
            "season": filing.season.number,
            "match": match.viewer_code,
            "kind": result.kind,
            "date": result.night.isoformat(),
            "started_at": result.started_at.isoformat(),
            "finished": result.finished,
            "rules": match.rules,
            "seats": [_seat(p, n) for n, p in enumerate(result.placings)],
        }
        if records is not None and match.kind == Match.Kind.ONLINE and result.finished:
            entry["record"] = records(match)
        matches.append(entry)
    return {
        "crew": crew.name,
        "created_at": crew.created_at.isoformat(),
        "seasons": [
            {"number": s.number, "name": str(s), "started_at": s.started_at.isoformat()}
            for s in seasons
        ],
        "members": [
            {
                "person": m.player_id,
                "name": m.name,
                "colour": m.colour,
                "emoji": m.emoji,
                "joined_at": m.joined_at.isoformat(),
                "left_at": m.left_at.isoformat() if m.left_at else None,
            }
            for m in members
        ],
        "matches": matches,
    }


def _seat(placing: Placing, position: int) -> dict[str, Any]:
    return {
        "seat": position + 1,
        "person": placing.person,
        "name": placing.name,
        "bot": placing.bot,
        "round_points": list(placing.rounds),  # counted rounds entered, in order
        "total": placing.total,
        "won": placing.won,
        "rounds_out": placing.outs,
    }

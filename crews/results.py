"""A crew's matches as plain data: who sat where, what they scored, who won.

Everything a crew page shows (standings, ratings, head-to-head, the game-night chart) is
worked out from these values alone, from online matches and score sheets alike: both keep
their rounds as score-sheet entries, so one reading of the sheet serves both.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone

from scoring.entries import OUT
from scoring.models import Entry, Match, Seat
from scoring.services import sheet_from


@dataclass(frozen=True)
class Placing:
    """One seat's match: ``person`` is the scoring Player's id (a bot has one too, but is
    told apart by ``bot``, its level)."""

    person: int
    name: str
    bot: str
    total: int
    rounds: tuple[int, ...]  # the points of each counted round entered
    outs: int  # counted rounds this seat went out in
    won: float  # 1 for a sole winner, 1/n for a win shared by n, else 0

    @property
    def is_person(self) -> bool:
        return not self.bot


@dataclass(frozen=True)
class Result:
    match: int
    code: str
    kind: str
    night: datetime.date  # the local date the match was started: its game night
    started_at: datetime.datetime
    finished: bool
    placings: tuple[Placing, ...]

    def people(self) -> tuple[Placing, ...]:
        return tuple(p for p in self.placings if p.is_person)


def results(matches: Iterable[Match]) -> list[Result]:
    """Each match's result, oldest first, in a fixed number of queries."""
    matches = list(matches)
    entries: dict[int, list[Entry]] = {m.pk: [] for m in matches}
    for entry in Entry.objects.filter(round__match__in=matches).select_related("round", "seat"):
        entries[entry.round.match_id].append(entry)
    seats: dict[int, list[Seat]] = {m.pk: [] for m in matches}
    found_seats = Seat.objects.filter(match__in=matches).select_related("player")
    for seat in found_seats.order_by("match_id", "position"):  # the sheet's columns in order
        seats[seat.match_id].append(seat)
    found = [_result(m, seats[m.pk], entries[m.pk]) for m in matches]
    return sorted(found, key=lambda r: (r.started_at, r.match))


def _result(match: Match, seats: list[Seat], entries: list[Entry]) -> Result:
    sheet = sheet_from(match, seats, entries)
    counted = [row for row in sheet.rows if row.counted]
    winners = sheet.winners
    placings = tuple(
        Placing(
            person=seat.player_id,
            name=seat.player.name,
            bot=seat.bot,
            total=sheet.totals[seat.position],
            rounds=tuple(
                c.score
                for row in counted
                for c in row.cells
                if c.seat == seat.position and c.score is not None
            ),
            outs=sum(
                1
                for row in counted
                for c in row.cells
                if c.seat == seat.position and c.value.kind == OUT
            ),
            won=1 / len(winners) if seat.position in winners else 0.0,
        )
        for seat in sheet.seats
    )
    return Result(
        match=match.pk,
        code=match.code,
        kind=match.kind,
        night=timezone.localdate(match.created_at),
        started_at=match.created_at,
        finished=sheet.finished,
        placings=placings,
    )

"""A crew's standings, head-to-head record and game nights, worked out from results alone.

These are plain functions over :class:`crews.results.Result` values (no database), so the
crew page, its tests and any later export read the same figures, whether the matches were
played at an online table or kept on a score sheet. Only finished matches count: a match
still being played has no winner yet, and its half-entered rounds would pull averages about.

Points are what the sheet counts against a player, so lower is better throughout: the best
match is the lowest total, and a lower average of points a round is the better one.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from .results import Placing, Result

# Shares of a win are 1/n for n players level: n is at most this.
MAX_SHARE = 100


class MatchTotal(NamedTuple):
    """One match's total for one player, with the match to link to."""

    match: int
    code: str
    total: int


@dataclass(frozen=True)
class Standing:
    """A line of the standings: a person (``person``, the scoring Player's id, and ``bot``
    blank), or every bot of one level together (``person`` None, ``bot`` the level)."""

    person: int | None
    bot: str
    name: str
    matches: int
    wins: float  # a win shared by n counts 1/n
    rounds: int  # counted rounds played
    points: int  # the points of those rounds together
    outs: int  # rounds gone out
    best: MatchTotal  # the lowest total (the earliest, when reached twice)
    worst: MatchTotal  # the highest total (the earliest, when reached twice)

    @property
    def points_a_round(self) -> float:
        """Points over every counted round played, whatever the match: a 13-round match
        weighs more than a 3-round one, as it should, being more of the player's game."""
        return self.points / self.rounds if self.rounds else 0.0


@dataclass
class _Tally:
    """Running sums while reading the results: a person's, or a bot level's."""

    name: str
    matches: int = 0
    wins: Fraction = Fraction(0)  # summed exactly: three thirds of a win are one win
    rounds: int = 0
    points: int = 0
    outs: int = 0
    best: MatchTotal | None = None
    worst: MatchTotal | None = None

    def add(self, result: Result, placing: Placing) -> None:
        self.matches += 1
        self.wins += Fraction(placing.won).limit_denominator(MAX_SHARE)
        self.rounds += len(placing.rounds)
        self.points += sum(placing.rounds)
        self.outs += placing.outs
        this = MatchTotal(result.match, result.code, placing.total)
        if self.best is None or this.total < self.best.total:
            self.best = this
        if self.worst is None or this.total > self.worst.total:
            self.worst = this

    def standing(self, person: int | None, bot: str) -> Standing:
        assert self.best is not None and self.worst is not None, "tallied at least one match"
        return Standing(
            person=person,
            bot=bot,
            name=self.name,
            matches=self.matches,
            wins=float(self.wins),
            rounds=self.rounds,
            points=self.points,
            outs=self.outs,
            best=self.best,
            worst=self.worst,
        )


def finished(results: Iterable[Result]) -> list[Result]:
    """The results that count: finished matches, oldest first as given."""
    return [r for r in results if r.finished]


def _ranked(lines: Iterable[Standing]) -> list[Standing]:
    """Most wins first; among equal wins the lower average; then by name, so the order is
    the same on every device."""
    return sorted(lines, key=lambda s: (-s.wins, s.points_a_round, s.name.casefold(), s.name))


def _people(results: Iterable[Result]) -> dict[int, _Tally]:
    """Each person's sums over the finished results. A person is their scoring Player, so
    an online match and a score sheet add to the same sums; the name kept is the one of
    their latest match (a player renamed reads as they are called now)."""
    tallies: dict[int, _Tally] = {}
    for result in finished(results):
        for placing in result.people():
            tally = tallies.setdefault(placing.person, _Tally(placing.name))
            tally.name = placing.name
            tally.add(result, placing)
    return tallies


def standings(results: Iterable[Result]) -> list[Standing]:
    """Every person who finished a match, with their figures over the finished matches:
    the table at the top of a crew's page."""
    return _ranked(t.standing(person, "") for person, t in _people(results).items())


def bot_label(level: str) -> str:
    """How a bot level reads in a list of people: ``Greedy bot``."""
    return f"{level.capitalize()} bot"


def bot_standings(results: Iterable[Result]) -> list[Standing]:
    """The bots, apart from the people: every bot of one level is one line (a bot is a new
    player at each table, so its seats are told together by the level alone)."""
    tallies: dict[str, _Tally] = {}
    for result in finished(results):
        for placing in result.placings:
            if not placing.is_person:
                tallies.setdefault(placing.bot, _Tally(bot_label(placing.bot))).add(result, placing)
    return _ranked(t.standing(None, level) for level, t in tallies.items())


# -- head to head --------------------------------------------------------------------------


class Meeting(NamedTuple):
    """How one person did against another over the matches both finished: ``ahead`` is how
    often they finished ahead of the other, ``behind`` how often behind, ``level`` level."""

    ahead: int = 0
    behind: int = 0
    level: int = 0

    @property
    def matches(self) -> int:
        return self.ahead + self.behind + self.level


@dataclass(frozen=True)
class HeadToHead:
    """Every pair of people who met: ``people`` in the order to draw them (id, name), and
    ``meetings[(a, b)]`` as ``a`` saw it (``meetings[(b, a)]`` is the same, turned round).
    A pair who never met has no key."""

    people: tuple[tuple[int, str], ...]
    meetings: dict[tuple[int, int], Meeting] = field(default_factory=dict)

    def rows(self) -> list[tuple[tuple[int, str], list[Meeting | None]]]:
        """The grid as a template draws it: each person with a cell for every person in
        the same order (None on the diagonal and for a pair who never met)."""
        return [
            (row, [self.meetings.get((row[0], column[0])) for column in self.people])
            for row in self.people
        ]


def ahead_of(a: Placing, b: Placing) -> int:
    """1 if ``a`` finished ahead of ``b``, -1 if behind, 0 if level: a lower total is ahead;
    on equal totals, the one the tie break made the winner (a larger share of the win)."""
    if a.total != b.total:
        return 1 if a.total < b.total else -1
    if a.won != b.won:
        return 1 if a.won > b.won else -1
    return 0


def head_to_head(results: Iterable[Result]) -> HeadToHead:
    """Each pair of people's record in the finished matches where both sat, bots left out.
    People are ordered as in :func:`standings`, so the grid reads with the table."""
    results = finished(results)
    counts: dict[tuple[int, int], list[int]] = {}
    for result in results:
        people = result.people()
        for a in people:
            for b in people:
                if a.person == b.person:
                    continue
                tally = counts.setdefault((a.person, b.person), [0, 0, 0])
                tally[{1: 0, -1: 1, 0: 2}[ahead_of(a, b)]] += 1
    met = {person for pair in counts for person in pair}
    order = tuple(
        (s.person, s.name) for s in standings(results) if s.person is not None and s.person in met
    )
    return HeadToHead(
        people=order,
        meetings={pair: Meeting(*tally) for pair, tally in counts.items()},
    )


# -- game nights -------------------------------------------------------------------------


@dataclass(frozen=True)
class NightLine:
    """A person's game night: matches finished, wins (shares for ties), and points a round
    over that night's counted rounds."""

    person: int
    name: str
    matches: int
    wins: float
    rounds: int
    points: int

    @property
    def points_a_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0


@dataclass(frozen=True)
class Night:
    """The matches finished on one date (the date each was started: a match that runs past
    midnight stays on its night). ``lines`` are the people, best first; ``winners`` the
    ids of the night's winner(s): the most wins, then the fewest points a round."""

    date: datetime.date
    matches: int
    lines: tuple[NightLine, ...]
    winners: tuple[int, ...]

    def line(self, person: int) -> NightLine | None:
        return next((line for line in self.lines if line.person == person), None)


def game_nights(results: Iterable[Result]) -> list[Night]:
    """Finished matches grouped by game night, oldest night first, with each person's
    figures that night and who won it. Bots are left out: the night is the people's."""
    by_date: dict[datetime.date, list[Result]] = {}
    for result in finished(results):
        by_date.setdefault(result.night, []).append(result)
    return [_night(date, by_date[date]) for date in sorted(by_date)]


def _night(date: datetime.date, results: list[Result]) -> Night:
    lines = [
        NightLine(person, t.name, t.matches, float(t.wins), t.rounds, t.points)
        for person, t in _people(results).items()
    ]
    lines.sort(key=lambda n: (-n.wins, n.points_a_round, n.name.casefold(), n.name))
    # The lines are in winning order, so the night's best is the first (a night of bots
    # alone has no line, and no winner).
    best = (lines[0].wins, lines[0].points_a_round) if lines else None
    winners = tuple(line.person for line in lines if (line.wins, line.points_a_round) == best)
    return Night(date=date, matches=len(results), lines=tuple(lines), winners=winners)

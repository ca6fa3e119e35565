"""Crews and matches for the crews' staff-side tests, made through the services as the site
makes them: a crew with its members' phones, and score sheets filed to it and played out."""

from __future__ import annotations

from collections.abc import Sequence

from crews import services as crews
from crews.models import Crew, Member
from crews.ratings import recompute
from games.engine.rules import Rules
from scoring import services as sheets
from scoring.entries import OUT, EntryValue
from scoring.models import Match

TWO_ROUNDS = Rules(highest_double=6, rounds=2)


def crew_of(*names: str) -> tuple[Crew, dict[str, Member]]:
    """A crew founded by the first name, the others joined, each from a phone of their own."""
    crew, founder = crews.create_crew("Friday dominoes", names[0], f"phone-{names[0]}")
    members = {names[0]: founder}
    for name in names[1:]:
        members[name], _ = crews.join(crew, name, f"phone-{name}")
    return crew, members


def play(match: Match, rounds: Sequence[Sequence[int | None]]) -> Match:
    """Enter every round's pips, seat by seat (None: went out), as the phones would."""
    for number, row in enumerate(rounds, start=1):
        for seat, pips in enumerate(row):
            value = EntryValue(OUT) if pips is None else EntryValue.count(pips)
            sheets.record_entry(
                match, number, seat, value, base_version=0, client_id=None, by="Ana"
            )
    match.refresh_from_db()
    return match


def crew_sheet(crew: Crew, names: Sequence[str], rounds: Sequence[Sequence[int | None]]) -> Match:
    """A score sheet opened for the crew and played out; its season rated as the sheet's
    signal would have it once committed (a test's transaction never commits)."""
    match = play(crews.open_sheet(crew, names, TWO_ROUNDS, by=names[0]), rounds)
    recompute(crew.current_season())
    return match


def sheet(names: Sequence[str], rounds: Sequence[Sequence[int | None]]) -> Match:
    """A score sheet kept without any crew."""
    return play(sheets.create_match(names, TWO_ROUNDS, by=names[0]), rounds)

"""The ratings as the crew page words them: each member's place ("2nd of 5") and how the
season's latest game night moved it ("up 1 place"), never the model's figure beside a
name. The figure (mu less three sigma, which a new or losing player has below 0) orders the
places; the page keeps the model's own numbers in a detail for whoever wants them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .models import Rating

UP, DOWN, STEADY, NEW = "up", "down", "steady", "new"


@dataclass(frozen=True)
class Place:
    """A member's line of the ratings: ``place`` and ``trend`` in words, ``direction`` one
    of UP, DOWN, STEADY or NEW (for the page's styling), and the rating behind them."""

    name: str
    place: str
    direction: str
    trend: str
    rating: Rating


def places(ratings: Iterable[Rating], names: Mapping[int, str]) -> list[Place]:
    """The members' ratings (``names``: by the scoring Player's id) best first, in words.
    People with the same figure share a place ("joint 2nd of 5"). The trend compares a
    place with the one held before the latest night among the members rated then."""
    rated = sorted((r for r in ratings if r.player_id in names), key=lambda r: -r.ordinal)
    now = [r.ordinal for r in rated]
    then = [r.ordinal_before for r in rated if r.ordinal_before is not None]
    lines = []
    for rating in rated:
        place = _rank(rating.ordinal, now)
        joint = "joint " if now.count(rating.ordinal) > 1 else ""
        before = rating.ordinal_before
        direction, trend = _trend(place, None if before is None else _rank(before, then))
        lines.append(
            Place(
                name=names[rating.player_id],
                place=f"{joint}{ordinal(place)} of {len(rated)}",
                direction=direction,
                trend=trend,
                rating=rating,
            )
        )
    return lines


def _rank(figure: float, figures: list[float]) -> int:
    """1 + how many are ahead: people level share the place, and the next place is skipped."""
    return 1 + sum(1 for other in figures if other > figure)


def _trend(place: int, before: int | None) -> tuple[str, str]:
    if before is None:
        return NEW, "first rated"
    if place == before:
        return STEADY, "steady"
    moved = abs(place - before)
    words = f"{moved} place{'' if moved == 1 else 's'}"
    return (UP, f"up {words}") if place < before else (DOWN, f"down {words}")


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"

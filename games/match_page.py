"""The match's page for the people who played it and watched it: once the match is over,
anybody with the table's link replays it round by round, move by move, every hand shown
(as the admin's replay does, from the same record and drawing), and can take its record.

Before the end it shows nothing of the play: hands are hidden while a match is played, and
the page would show them all.
"""

from __future__ import annotations

from typing import Any

from . import coach, review
from .models import Table


def is_open(table: Table) -> bool:
    """The page opens once the match is over; an imported record is staff's to review."""
    return table.status == Table.Status.FINISHED and not table.imported


def records(table: Table) -> list[dict[str, Any]]:
    return list(table.moves.order_by("number").values_list("record", flat=True))


def round_context(
    table: Table, number: int, asked_step: str | None, *, seat: int | None = None
) -> dict[str, Any] | None:
    """Round ``number`` at the step asked for (the deal when none, the last when past it),
    with the coach's marks on the decisions of ``seat`` (the person viewing, if they held
    one; nobody else's); None when the match never dealt that round."""
    lines = records(table)
    frames = review.round_frames(lines, number) if lines else []
    if not frames:
        return None
    last = len(frames) - 1
    try:
        step = min(max(int(asked_step or 0), 0), last)
    except ValueError:
        step = 0
    teller = review.Teller.of(lines)
    frame = frames[step]
    return {
        "table": table,
        "number": number,
        "rounds": review.rounds_in(lines),
        "step": step,
        "last": last,
        "said": teller.tell(frame.record),
        "picture": review.picture(frame.game, teller.names, teller.public_trains),
        "marks": _marks(table, number, seat, teller),
    }


def _marks(table: Table, number: int, seat: int | None, teller: review.Teller) -> list:
    """The viewer's own decisions the coach marked in this round, once it has weighed them."""
    weighed = coach.staff_review(table, number, teller) if seat is not None else None
    if weighed is None or weighed["review"].status != weighed["review"].Status.DONE:
        return []
    return [w for w in weighed["decisions"] if w.decision.seat == seat and w.decision.marked]

"""The match's page for the people who played it and watched it: once the match is over,
anybody with the table's link replays it round by round, move by move, every hand shown
(as the admin's replay does, from the same record and drawing), and can take its record.

Before the end it shows nothing of the play: hands are hidden while a match is played, and
the page would show them all.
"""

from __future__ import annotations

from typing import Any

from . import review
from .models import Table


def is_open(table: Table) -> bool:
    """The page opens once the match is over; an imported record is staff's to review."""
    return table.status == Table.Status.FINISHED and not table.imported


def records(table: Table) -> list[dict[str, Any]]:
    return list(table.moves.order_by("number").values_list("record", flat=True))


def round_context(table: Table, number: int, asked_step: str | None) -> dict[str, Any] | None:
    """Round ``number`` at the step asked for (the deal when none, the last when past it);
    None when the match never dealt that round."""
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
    }

"""Closing the tables nobody plays: a live table after a day without a move, one at its own
pace after a month (``ABANDON_LIVE_AFTER``, ``ABANDON_OWN_PACE_AFTER``), and a lobby nobody
started after as long without a change. A closed table is recorded as abandoned; its score
sheet keeps the rounds played and stays unfinished, so crews and statistics, which count
finished matches alone, leave it out.

The clock calls this from every process at once: each table is closed under its row lock,
taken with ``skip_locked``, so a table one process is closing is skipped by the others,
which then find it closed. The table's sockets are told, and the pages of its crew, whose list
of matches shows it abandoned."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce

from crews import live as crew_pages
from games.models import Pace, Table, abandoned_after

from .commit import announce

# What closing a table changes: nothing is due at it any more, and its version moves on, so
# that a move, a bot's turn or a drawing based on the table still open is stale.
CLOSED = ["status", "version", "revision", "next_round_at", "turn_due_at", "updated_at"]


def close_abandoned(*, now: datetime) -> list[str]:
    """Close every table idle past its pace's limit at ``now``: the codes closed."""
    candidates = list(_idle(now).values_list("code", flat=True))
    return [code for code in candidates if _close(code, now=now)]


def _idle(now: datetime) -> QuerySet[Table]:
    """The tables in their lobby or being played whose last move (a lobby's last change)
    is older than their pace allows."""
    return Table.objects.annotate(idle_since=Coalesce("moved_at", "updated_at")).filter(
        Q(pace=Pace.LIVE, idle_since__lt=now - abandoned_after(Pace.LIVE))
        | Q(pace=Pace.OWN, idle_since__lt=now - abandoned_after(Pace.OWN)),
        status__in=[Table.Status.LOBBY, Table.Status.PLAYING],
    )


def _close(code: str, *, now: datetime) -> bool:
    """Close the table of ``code`` if it is still idle once its row is locked: False when
    another process holds the lock (it is closing the table, or a move came), or when the
    table moved or closed since it was listed."""
    with transaction.atomic():
        locked = _idle(now).select_for_update(skip_locked=True).filter(code=code)
        table = locked.first()
        if table is None:
            return False
        seats = list(table.seats.all())
        table.status = Table.Status.ABANDONED
        table.version += 1
        table.next_round_at = None
        table.turn_due_at = None
        announce(table, seats, CLOSED)
        if table.crew is not None and table.match_id is not None:  # its matches list says so
            crew_pages.announce(table.crew.code)
    return True

"""Why a table refuses a request, and the checks that refuse it.

A request the table cannot take is answered with ``Refused``, whose message is for the
person who asked: the pages and the socket show it as it is. The services and the selectors
make the same checks, so they share them here.
"""

from __future__ import annotations

from collections.abc import Iterable
from hmac import compare_digest

from common import names as people

from .models import NAME_LENGTH, Table, TableSeat

NO_TABLE = "There is no table with that link: it may have been mistyped."


class Refused(ValueError):
    """A request the table cannot take; the message says why, for the person who asked."""


class Stale(Refused):
    """An action based on a view the table has moved on from."""


def seat_of(seats: Iterable[TableSeat], token: str) -> TableSeat:
    """The seat ``token`` holds: a token that holds none is a spectator's."""
    seat = next((s for s in seats if token and compare_digest(s.token, token)), None)
    if seat is None:
        raise Refused("You do not have a seat at this table: you can watch it as a spectator.")
    return seat


def require_host(table: Table, host_token: str) -> None:
    if not host_token or host_token != table.host_token:
        raise Refused("Only the host can do that.")


def require_lobby(table: Table) -> None:
    if table.status == Table.Status.ABANDONED:
        raise Refused("This table was closed for lack of play: open a new one.")
    if table.status != Table.Status.LOBBY:
        raise Refused("The match has started: seats can no longer change.")


def free_position(table: Table, seats: Iterable[TableSeat], position: int | None) -> int:
    """``position`` if that seat is free, or with None the first free seat."""
    taken = {s.position for s in seats}
    if position is None:
        free = [p for p in range(table.seat_count) if p not in taken]
        if not free:
            raise Refused(f"The table is full: all {table.seat_count} seats are taken.")
        return free[0]
    if not 0 <= position < table.seat_count:
        raise Refused(f"This table has seats 1 to {table.seat_count}.")
    if position in taken:
        raise Refused(f"Seat {position + 1} is taken: pick a free one.")
    return position


def clean_name(name: str) -> str:
    try:
        return people.clean(name, NAME_LENGTH)
    except people.BadName as bad:
        raise Refused(str(bad)) from None

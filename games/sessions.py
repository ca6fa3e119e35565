"""Seat tokens in the player's session: how a browser keeps its seat at each table.

The token itself never appears in a page; a reload, a reopened link or a new socket finds
the seat through the session. Another device gets it through the rejoin link.
"""

from __future__ import annotations

from typing import Any

KEY = "table_seats"
HOST_KEY = "hosted_tables"


def seat_token(session: Any, code: str) -> str | None:
    if session is None:
        return None
    return session.get(KEY, {}).get(code)


def remember_seat(session: Any, code: str, token: str) -> None:
    seats = dict(session.get(KEY, {}))
    seats[code] = token
    session[KEY] = seats


def forget_seat(session: Any, code: str) -> None:
    seats = dict(session.get(KEY, {}))
    if seats.pop(code, None) is not None:
        session[KEY] = seats


def host_token(session: Any, code: str) -> str:
    if session is None:
        return ""
    return session.get(HOST_KEY, {}).get(code, "")


def remember_host(session: Any, code: str, token: str) -> None:
    hosted = dict(session.get(HOST_KEY, {}))
    hosted[code] = token
    session[HOST_KEY] = hosted


def seats(session: Any) -> dict[str, str]:
    """The seat token this browser holds at each table, by the table's code."""
    if session is None:
        return {}
    return dict(session.get(KEY, {}))

"""What a device remembers, in its session: who it is at each match, and its players.

There are no accounts: a phone says once which seat (or name) it is at a match, and every
change it makes is attributed to that name. The players it has played with are offered
again when it creates the next match.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .models import Player

REMEMBERED_PLAYERS = 40


def joined(session: Any, code: str) -> dict | None:
    """``{"name": ..., "seat": position or None}`` if this device joined the match."""
    return session.get("sheets", {}).get(code)


def join(session: Any, code: str, name: str, seat: int | None) -> None:
    sheets = session.get("sheets", {})
    sheets[code] = {"name": name, "seat": seat}
    session["sheets"] = sheets


def remembered_players(session: Any) -> list[Player]:
    """The players this device has played with, most recent first."""
    ids = session.get("players", [])
    if not ids:  # no query at all for a device that never played (and no session needed)
        return []
    found = Player.objects.in_bulk(ids)
    return [found[i] for i in ids if i in found]


def remember_players(session: Any, players: Iterable[Player]) -> None:
    latest = [p.pk for p in players]
    older = [i for i in session.get("players", []) if i not in latest]
    session["players"] = (latest + older)[:REMEMBERED_PLAYERS]

"""A table's game, read from its move log, with a per-process cache.

Replaying a whole match for every view would cost tens of milliseconds by the last round,
so each process keeps the latest states it knows of each table and, when the table has moved
on (another process wrote to it), replays only the lines it has not seen. A few recent
versions are kept, because a socket renders the version it was told about, which can be one
or two behind the newest when players act quickly. The cache is written only after a
commit: a state from a transaction that rolled back must never be served.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.engine import Game, Replayer

from . import statements
from .models import Move, Table

KEPT_VERSIONS = 4  # per table and process: enough for its sockets to catch up in order

_lock = threading.Lock()
# Keyed by the table's code, which is never given to another table: a primary key can come
# round again after a rolled-back transaction (tests roll back after every test).
_known: dict[str, OrderedDict[int, Game | None]] = {}  # table code -> {version: game}


class NotCached(LookupError):
    """Asked for what this process has not read yet, where the database may not be used."""


def game_of(table: Table, version: int | None = None, *, cached_only: bool = False) -> Game | None:
    """The table's game at ``version`` (default: the table's current version); None before
    the match starts. Versions newer than the table's are not asked for. ``cached_only``
    raises :class:`NotCached` rather than read the move log."""
    version = table.version if version is None else min(version, table.version)
    with _lock:
        known = _known.get(table.code, OrderedDict())
        if version in known:
            return known[version]
        if cached_only:
            raise NotCached(f"table {table.code} at version {version}")
        start = max((v for v in known if v < version), default=None)
        base = known[start] if start is not None else None
    moves = Move.objects.filter(table=table, version__lte=version).order_by("number")
    if start is not None:
        replayer = Replayer(base)
        moves = moves.filter(version__gt=start)
    else:
        replayer = Replayer()
    for record in moves.values_list("record", flat=True):
        replayer.feed(record)
    _remember(table.code, version, replayer.game)
    return replayer.game


def follow(code: str, base: int, version: int, records: Sequence[dict[str, Any]]) -> bool:
    """Bring this process's game of a table from version ``base`` to ``version`` with the
    lines another process committed (a move's announcement carries them), instead of reading
    them back from the log. False when this process does not hold the game at ``base``."""
    with _lock:
        known = _known.get(code, {})
        if version in known:
            return True
        if base not in known:
            return False
        replayer = Replayer(known[base])
    for record in records:
        replayer.feed(record)
    _remember(code, version, replayer.game)
    return True


def append(table: Table, records: Sequence[dict[str, Any]], game: Game) -> None:
    """Write ``records`` as the next lines of the log under a new table version, and
    remember ``game``, the state they lead to, once the transaction commits. The caller has
    locked the table, and saves it (its ``version`` and ``move_count`` move on here)."""
    table.version += 1
    statements.insert(
        Move,
        [
            Move(table=table, number=table.move_count + i, version=table.version, record=record)
            for i, record in enumerate(records, 1)
        ],
    )
    table.move_count += len(records)
    code, version = table.code, table.version
    transaction.on_commit(lambda: _remember(code, version, game))


def _remember(code: str, version: int, game: Game | None) -> None:
    with _lock:
        known = _known.setdefault(code, OrderedDict())
        known[version] = game
        known.move_to_end(version)
        while len(known) > KEPT_VERSIONS:
            known.popitem(last=False)

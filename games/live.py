"""The channel-layer group of a table: every socket open on the table listens to it.

A change is announced only after it is committed, and the message carries the table's new
version, never a view: each socket renders its own seat's view, and a socket that missed a
message heals with the next one. A move's log lines travel with it between the server's own
processes, as the move log holds them (a draw names the tile drawn); a socket only ever
sends its own seat's view, never the message itself.
"""

from __future__ import annotations

from config import broadcast


def group_name(code: str) -> str:
    return f"table-{code}"


def table_changed(code: str, version: int, revision: int, move: dict | None = None) -> None:
    """Tell every socket of the table, once committed, to send its seat the view at
    ``version`` (the game) and ``revision`` (everything else on the screen). A ``move``
    (games.screens.follow) lets another process show it without reading the database."""
    message = {"type": "table.changed", "version": version, "revision": revision}
    if move is not None:
        message["move"] = move
    broadcast.after_commit(group_name(code), message)

"""The channel-layer group of a match: every open sheet of the match listens to it.

Services announce a change only after it is committed; the message names the match and
which parts of the page changed, never the sheet itself, so each socket renders its own
view (editor or read-only viewer) from the database.
"""

from __future__ import annotations

from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

# The page regions a change can touch, each a partial with a stable id.
SHEET = "sheet"
SETTINGS = "settings"
ALL_PARTS = (SHEET, SETTINGS)


def group_name(match_id: int) -> str:
    return f"sheet-{match_id}"


def announce(match_id: int, parts: Iterable[str]) -> None:
    """Tell every open sheet of the match, once committed, to redraw ``parts``."""
    group, message = group_name(match_id), {"type": "sheet.changed", "parts": sorted(set(parts))}
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().group_send)(group, message))

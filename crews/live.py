"""The channel-layer group of a crew: every open crew page listens to it and redraws its
standings when a match counted for the crew changes."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_name(crew_code: str) -> str:
    return f"crew-{crew_code}"


def announce(crew_code: str) -> None:
    """Tell every open page of the crew, once committed, to redraw."""
    group, message = group_name(crew_code), {"type": "crew.changed"}
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().group_send)(group, message))

"""The table page's alerts card, for the person seated at it (games/alerts)."""

from __future__ import annotations

import json
from typing import Any

from django import template

from games.alerts import push
from games.models import Pace, SeatAlerts

register = template.Library()


@register.inclusion_tag("games/cards/alerts.html", takes_context=True)
def alerts_card(context: dict[str, Any]) -> dict[str, Any]:
    """Push for this device (once the server has a VAPID key), this person's address for
    mail, and at an own-pace table the nudge: their own and nobody else's."""
    me, table = context["me"], context["table"]
    record = SeatAlerts.objects.filter(seat=me).first()
    return {
        "table": table,
        "push_key": push.public_key(),
        "email": record.email if record else "",
        "endpoints": json.dumps(list(me.push_devices.values_list("endpoint", flat=True))),
        "own_pace": table.pace == Pace.OWN,
        "csrf_token": context.get("csrf_token"),
    }

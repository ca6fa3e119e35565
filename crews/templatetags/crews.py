"""The crews this device is a member of, for the front page."""

from __future__ import annotations

from typing import Any

from django import template

from crews import sessions
from crews.models import Member

register = template.Library()


@register.inclusion_tag("crews/partials/my_crews.html", takes_context=True)
def my_crews(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    device = sessions.known_device(request.session) if request is not None else ""
    if not device:
        return {"memberships": []}
    found = Member.objects.filter(device=device, left_at=None).select_related("crew", "player")
    return {"memberships": list(found)}

"""What a crew does when a match counted for it changes: its season's ratings are worked
out again (a finished match's totals can still be corrected) and its pages redraw."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from scoring.models import Match
from scoring.signals import match_changed

from . import live
from .models import CrewMatch
from .ratings import recompute


@receiver(match_changed)
def match_changed_for_crew(sender: Any, match: Match, status_changed: bool, **kwargs: Any) -> None:
    filing = CrewMatch.objects.filter(match=match).select_related("crew", "season").first()
    if filing is None:
        return
    if status_changed or match.status == Match.Status.FINISHED:
        recompute(filing.season)
        live.announce(filing.crew.code)

"""The sheet's page regions, rendered the same way for the page and for a websocket push.

Each region is a partial whose root element has a stable id; htmx-ext-ws swaps every
top-level element of a pushed frame by that id. A viewer (the read-only TV link) gets the
same regions without anything that edits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.template.loader import render_to_string

from games.engine.rules import LABELS, describe

from . import live
from .forms import setting_choices, setting_value
from .models import Change, Match
from .services import (
    HOUSE_RULES,
    Sheet,
    compute_sheet,
    last_undoable,
    recent_changes,
    setting_shown,
)

# One colour per seat, distinguishable for the common colour-vision deficiencies (Okabe-Ito
# first), used by the chart's lines and the legend.
COLOURS = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#7f7f7f",
    "#8c564b",
    "#000000",
    "#b8a000",
)

# The chart's drawing area, in SVG units (it scales to the width of the screen).
WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 10, 24


@dataclass(frozen=True)
class Viewer:
    """Who is looking: an editor (joined with the match's link, as ``name``) or the TV."""

    editor: bool
    name: str = ""


def live_context(match: Match, viewer: Viewer) -> dict:
    """Everything the live regions need, computed once per render."""
    sheet = compute_sheet(match)
    return {
        "match": match,
        "sheet": sheet,
        "viewer": viewer,
        "standing": standing(sheet),
        "chart": chart(sheet),
        "changes": recent_changes(match),
        **(undo_buttons(match, viewer) if viewer.editor else {}),
        "settings": settings_rows(sheet),
    }


def undo_buttons(match: Match, viewer: Viewer) -> dict:
    """What this phone may undo: its own latest change in one tap (``undoable``), and the
    sheet's latest change when somebody else made it (``take_back``: it asks first)."""
    latest = last_undoable(match)
    if latest is None or latest.by == viewer.name:
        return {"undoable": latest, "take_back": None}
    return {"undoable": last_undoable(match, by=viewer.name), "take_back": latest}


def render_parts(match: Match, viewer: Viewer, parts: Iterable[str] = live.ALL_PARTS) -> str:
    """The regions named by ``parts`` as one websocket frame."""
    context = {**live_context(match, viewer), "parts": set(parts)}
    return render_to_string("scoring/partials/live.html", context)


def render_notice(message: str, conflict: dict | None = None, entry: str = "") -> str:
    """A message to the one phone whose change was not applied, added to its notices;
    ``entry``, the refused entry's client id."""
    return render_to_string(
        "scoring/partials/notice.html", {"message": message, "conflict": conflict, "entry": entry}
    )


def render_question(question: str, change: Change) -> str:
    """Taking back somebody else's change, asked on the one phone that tried: a notice
    with the question and the button that confirms it."""
    confirm = {"action": "undo", "change": change.pk, "confirm": True}
    return render_to_string(
        "scoring/partials/notice.html", {"message": question, "confirm": confirm}
    )


def standing(sheet: Sheet) -> str:
    """Who leads after the rounds every player has entered, or after the last round who won
    (ties share the win), then any round still being entered. A blank cell is not a 0: a
    half-entered round names how many counts are in rather than crowning the players whose
    counts are missing."""
    if not sheet.leaders:
        return "No scores yet: tap a cell to enter a count."
    if sheet.finished:
        names = _together(sheet, sheet.leaders)
        verb = "wins" if len(sheet.leaders) == 1 else "share the win"
        return f"{names} {verb} on {sheet.totals[sheet.leaders[0]]}."
    said = []
    complete = [row for row in sheet.rows if row.counted and row.complete]
    if complete:
        seats = range(len(sheet.seats))
        totals = [sum(row.cells[seat].score or 0 for row in complete) for seat in seats]
        low = min(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == low]
        verb = "leads" if len(leaders) == 1 else "lead"
        played = f"After {len(complete)} of {sheet.rules.round_count} rounds"
        said.append(f"{played}: {_together(sheet, leaders)} {verb} on {low}.")
    for row in sheet.rows:
        entered = sum(1 for cell in row.cells if not cell.value.is_blank)
        if row.counted and 0 < entered < len(row.cells):
            said.append(f"Round {row.number}: {entered} of {len(row.cells)} counts entered.")
    return " ".join(said)


def _together(sheet: Sheet, seats: Iterable[int]) -> str:
    names = [sheet.seats[i].player.name for i in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def settings_rows(sheet: Sheet) -> list[dict]:
    """The house rules with their options and current values (HOUSE_RULES' order)."""
    return [
        {
            "setting": setting,
            "label": LABELS[setting],
            "choices": setting_choices(setting, sheet.rules.highest_double),
            "value": setting_value(sheet.rules, setting),
            "text": describe(setting, setting_shown(sheet.rules, setting)),
        }
        for setting in HOUSE_RULES
    ]


def chart(sheet: Sheet) -> dict:
    """Running totals per player as SVG polylines, from round 0 (everyone on 0) to the last
    round with a score; blank cells carry the total on."""
    last = max((row.number for row in sheet.rows if row.counted and _scored(row)), default=0)
    series = []
    for seat in sheet.seats:
        points, running = [0], 0
        for row in sheet.rows[:last]:
            cell = row.cells[seat.position]
            running = cell.running if cell.running is not None else running
            points.append(running)
        series.append(points)
    values = [v for points in series for v in points]
    low, high = min(values), max(values + [10])
    span_x = max(last, 1)

    def x(i: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * i / span_x, 1)

    def y(v: int) -> float:
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - v) / (high - low), 1)

    lines = [
        {
            "name": seat.player.name,
            "colour": COLOURS[seat.position % len(COLOURS)],
            "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(points)),
            "end": (x(len(points) - 1), y(points[-1])),
            "total": points[-1],
        }
        for seat, points in zip(sheet.seats, series, strict=True)
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "empty": last == 0,
        "lines": lines,
        "x_ticks": [(x(i), i) for i in range(0, last + 1, 1 if last <= 13 else 2)],
        "y_ticks": [(y(v), v) for v in sorted({low, 0, high})],
        "axis": {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM},
    }


def _scored(row) -> bool:
    return any(cell.score is not None for cell in row.cells)

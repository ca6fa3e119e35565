"""The game-night chart of a crew's page, drawn on the server as an SVG.

Drawn on the server rather than by a script in the browser so the page shows it at once, on
any phone, with no chart library to ship: one line per person through their points a round
on each game night, in the colour they picked. The geometry is worked out here; the drawing
is a template (crews/partials/nights_chart.svg), which escapes the names.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Mapping, Sequence

from django.template.loader import render_to_string

from .standings import Night, NightLine

# The drawing's own units: the SVG scales to the width of its box (viewBox, width 100%).
# Narrow enough that its 13-unit text stays readable when a phone shrinks it to fit.
WIDTH = 480
LEFT, RIGHT, TOP = 52, 28, 14  # room for the y axis's numbers and title, and the last date
PLOT_HEIGHT = 200
X_LABELS = 34  # the band under the plot for the dates
LEGEND_COLUMNS = 3
LEGEND_ROW = 22
LEGEND_NAME = 16  # characters of a name the legend shows; its tooltip has all of it
LABEL_ROOM = 56  # the least room a date label takes along the x axis
FALLBACK_COLOUR = "#6b7280"  # for a player with no colour of their own (a guest)
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
Y_TITLE = "Points a round (lower is better)"

Scale = Callable[[float], float]  # a figure to the drawing's units along one axis


def nights_svg(
    nights: Sequence[Night], colours: Mapping[int, str], names: Mapping[int, str]
) -> str:
    """The chart of the game nights as an SVG element.

    ``colours`` and ``names`` are by person (the scoring Player's id): the crew's members.
    People in the order of ``names`` come first in the legend, anyone else (a guest) after,
    in the order they first played. A person who missed a night has no dot on it and their
    line goes straight on to their next night. Before the first night the page says so in
    words instead (templates/crews/partials/live.html)."""
    people = _people(nights, names)
    label = {p: names.get(p) or _first_line(nights, p).name for p in people}
    plot_width = WIDTH - LEFT - RIGHT
    averages = [line.points_a_round for night in nights for line in night.lines]
    bottom, top, step = _axis(min(averages), max(averages))
    legend_rows = math.ceil(len(people) / LEGEND_COLUMNS)
    height = TOP + PLOT_HEIGHT + X_LABELS + legend_rows * LEGEND_ROW + 8

    def x(index: float) -> float:
        if len(nights) == 1:
            return LEFT + plot_width / 2
        return LEFT + index * plot_width / (len(nights) - 1)

    def y(value: float) -> float:
        return TOP + PLOT_HEIGHT * (top - value) / (top - bottom)

    multi_year = nights[0].date.year != nights[-1].date.year
    first, last = _date(nights[0].date, True), _date(nights[-1].date, True)
    span = first if len(nights) == 1 else f"{first} to {last}"
    summary = (
        f"{Y_TITLE} on each game night: {len(nights)} "
        f"night{'s' if len(nights) != 1 else ''}, {span}; " + ", ".join(label[p] for p in people)
    )
    middle = TOP + PLOT_HEIGHT / 2
    context = {
        "width": WIDTH,
        "height": height,
        "summary": summary,
        "grid": _y_axis(bottom, top, step, y),
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "label_x": LEFT - 6,
        "y_title": Y_TITLE,
        "y_title_middle": f"{middle:g}",
        "dates": _x_axis(nights, x, multi_year),
        "date_baseline": TOP + PLOT_HEIGHT + 20,
        "people": [
            _person_line(nights, person, label[person], _colour(colours.get(person)), x, y)
            for person in people
        ],
        "legend": _legend(people, label, colours, TOP + PLOT_HEIGHT + X_LABELS),
    }
    return render_to_string("crews/partials/nights_chart.svg", context)


def _people(nights: Sequence[Night], names: Mapping[int, str]) -> list[int]:
    played = {line.person for night in nights for line in night.lines}
    ordered = [p for p in names if p in played]
    for night in nights:
        for line in night.lines:
            if line.person not in ordered:
                ordered.append(line.person)
    return ordered


def _first_line(nights: Sequence[Night], person: int) -> NightLine:
    return next(line for night in nights for line in night.lines if line.person == person)


def _colour(colour: str | None) -> str:
    """A member's colour as stored (#rrggbb), or the guests' grey: nothing else reaches the
    SVG's attributes."""
    return colour if colour and COLOUR.match(colour) else FALLBACK_COLOUR


def _axis(lowest: float, highest: float) -> tuple[float, float, float]:
    """The bottom and top of the y axis and the step of its gridlines: round numbers at or
    beyond the lowest and highest averages, in at most four steps of 1, 2 or 5 x 10^k,
    numbers read at a glance. The axis starts at 0 unless an average is below it: with
    "out scores -10" a night of going out averages under 0, and its dot stays in the plot."""
    lowest = min(lowest, 0.0)
    highest = max(highest, lowest + 1.0)
    magnitude = 10 ** math.floor(math.log10((highest - lowest) / 4))
    for step in (m * magnitude for m in (1, 2, 5, 10, 20, 50)):
        bottom, top = math.floor(lowest / step) * step, math.ceil(highest / step) * step
        if top - bottom <= 4 * step:
            break
    return bottom, top, step


def _y_axis(bottom: float, top: float, step: float, y: Scale) -> list[dict[str, str]]:
    """A gridline a step, each with its number."""
    values = [bottom + k * step for k in range(round((top - bottom) / step) + 1)]
    return [{"y": f"{y(v):.1f}", "label_y": f"{y(v) + 4:.1f}", "value": f"{v:g}"} for v in values]


def _date(day: datetime.date, with_year: bool) -> str:
    """A night as people say it: 14 Mar (with the year when the chart spans two)."""
    return f"{day.day} {day:%b}" + (f" {day.year}" if with_year else "")


def _x_axis(nights: Sequence[Night], x: Scale, multi_year: bool) -> list[dict[str, str]]:
    """A date under each night, or under every few when there are too many to read."""
    room = LABEL_ROOM * (1.4 if multi_year else 1)
    every = max(1, math.ceil(len(nights) * room / (WIDTH - LEFT - RIGHT)))
    return [
        {"x": f"{x(index):.1f}", "text": _date(night.date, multi_year)}
        for index, night in enumerate(nights)
        if index % every == 0
    ]


def _person_line(
    nights: Sequence[Night], person: int, name: str, colour: str, x: Scale, y: Scale
) -> dict:
    """A person's polyline (when they played two nights or more) and a dot a night, each
    dot with a tooltip of its figures."""
    points = [
        (index, night, line)
        for index, night in enumerate(nights)
        if (line := night.line(person)) is not None
    ]
    dots = []
    for index, night, line in points:
        wins = f"{line.wins:g} win{'' if line.wins == 1 else 's'}"
        matches = f"{line.matches} match{'' if line.matches == 1 else 'es'}"
        best = " (the night's winner)" if person in night.winners else ""
        tip = (
            f"{name}, {_date(night.date, True)}: {line.points_a_round:.1f} points a round, "
            f"{wins} in {matches}{best}"
        )
        dots.append({"x": f"{x(index):.1f}", "y": f"{y(line.points_a_round):.1f}", "tip": tip})
    coordinates = " ".join(f"{x(i):.1f},{y(line.points_a_round):.1f}" for i, _, line in points)
    return {
        "person": person,
        "name": name,
        "colour": colour,
        "line": coordinates if len(points) >= 2 else "",
        "dots": dots,
    }


def _legend(
    people: Sequence[int], label: Mapping[int, str], colours: Mapping[int, str], top: float
) -> list[dict[str, str]]:
    column = (WIDTH - LEFT - RIGHT) / LEGEND_COLUMNS
    keys = []
    for index, person in enumerate(people):
        row, col = divmod(index, LEGEND_COLUMNS)
        left, middle = LEFT + col * column, top + row * LEGEND_ROW + 8
        name = label[person]
        keys.append(
            {
                "name": name,
                "short": name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1] + "…",
                "colour": _colour(colours.get(person)),
                "x": f"{left:.1f}",
                "y": f"{middle - 6:.1f}",
                "text_x": f"{left + 18:.1f}",
                "text_y": f"{middle + 4:.1f}",
            }
        )
    return keys

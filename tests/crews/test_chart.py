"""The game-night chart: well-formed SVG a phone scales, a line per person in their colour,
names that cannot break out of it, and something sensible before there are two nights."""

import datetime
import xml.etree.ElementTree as ET

import pytest

from crews import services as crews
from crews.chart import FALLBACK_COLOUR, PLOT_HEIGHT, TOP, nights_svg
from crews.page import crew_context
from crews.standings import Night, NightLine
from games.engine.rules import Rules

from .played import crew_of, play

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & Co'
ANA, BEN, CY = 1, 2, 3
COLOURS = {ANA: "#1f77b4", BEN: "#d62728", CY: "#2ca02c"}
NAMES = {ANA: "Ana", BEN: HOSTILE, CY: "Cy"}


def night(day, *lines):
    """A night from (person, matches, wins, rounds, points); the first listed won it."""
    return Night(
        date=datetime.date(2024, 3, day),
        matches=max(line[1] for line in lines),
        lines=tuple(
            NightLine(p, NAMES.get(p, f"Guest {p}"), m, w, r, pts) for p, m, w, r, pts in lines
        ),
        winners=(lines[0][0],),
    )


# Ana and Ben play three nights; Cy only the second.
NIGHTS = [
    night(1, (ANA, 2, 1.5, 4, 20), (BEN, 2, 0.5, 4, 40)),
    night(8, (BEN, 1, 1.0, 2, 10), (ANA, 1, 0.0, 2, 30), (CY, 1, 0.0, 2, 44)),
    night(15, (ANA, 3, 2.0, 6, 36), (BEN, 3, 1.0, 6, 60)),
]


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def people(root):
    return {
        int(g.get("data-person")): g for g in root.iter(f"{SVG}g") if g.get("class") == "person"
    }


def test_the_chart_is_well_formed_svg_that_scales():
    root = parsed(nights_svg(NIGHTS, COLOURS, NAMES))
    assert root.get("role") == "img"
    assert "lower is better" in root.get("aria-label")
    assert root.get("width") == "100%"
    assert len(root.get("viewBox").split()) == 4
    assert root.get("height") is None  # the height follows from the width and the viewBox


def test_one_line_a_person_with_two_nights_or_more_in_their_colour():
    lines = people(parsed(nights_svg(NIGHTS, COLOURS, NAMES)))
    assert set(lines) == {ANA, BEN, CY}
    for person in (ANA, BEN):
        (polyline,) = lines[person].iter(f"{SVG}polyline")
        assert polyline.get("stroke") == COLOURS[person]
        assert len(polyline.get("points").split()) == 3
        circles = list(lines[person].iter(f"{SVG}circle"))
        assert len(circles) == 3
        assert {c.get("fill") for c in circles} == {COLOURS[person]}
    assert list(lines[CY].iter(f"{SVG}polyline")) == []  # one night: a dot, no line
    assert len(list(lines[CY].iter(f"{SVG}circle"))) == 1


def test_the_dots_run_left_to_right_by_night_and_higher_points_are_higher():
    lines = people(parsed(nights_svg(NIGHTS, COLOURS, NAMES)))
    ana = [(float(c.get("cx")), float(c.get("cy"))) for c in lines[ANA].iter(f"{SVG}circle")]
    ben = [(float(c.get("cx")), float(c.get("cy"))) for c in lines[BEN].iter(f"{SVG}circle")]
    assert [x for x, _ in ana] == sorted(x for x, _ in ana)
    assert [x for x, _ in ana] == [x for x, _ in ben]
    # Ana's 5, 15 and 6 points a round, Ben's 10, 5 and 10: a larger number is drawn
    # higher (a smaller y), the axis title saying lower is better.
    assert ana[0][1] > ben[0][1] and ana[1][1] < ben[1][1] and ana[2][1] > ben[2][1]


def test_every_dot_has_a_tooltip_with_its_figures():
    lines = people(parsed(nights_svg(NIGHTS, COLOURS, NAMES)))
    tips = [c.find(f"{SVG}title").text for c in lines[ANA].iter(f"{SVG}circle")]
    assert (
        tips[0] == "Ana, 1 Mar 2024: 5.0 points a round, 1.5 wins in 2 matches (the night's winner)"
    )
    assert tips[1] == "Ana, 8 Mar 2024: 15.0 points a round, 0 wins in 1 match"


def test_the_legend_and_axes_say_what_is_drawn():
    svg = nights_svg(NIGHTS, COLOURS, NAMES)
    root = parsed(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Points a round (lower is better)" in texts
    assert {"1 Mar", "8 Mar", "15 Mar"} <= set(texts)
    assert {"Ana", "Cy"} <= set(texts)
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    assert [r.get("fill") for r in legend.iter(f"{SVG}rect")] == [COLOURS[p] for p in NAMES]


def test_a_hostile_name_comes_out_as_text():
    svg = nights_svg(NIGHTS, COLOURS, NAMES)
    assert "<script" not in svg
    root = parsed(svg)
    assert not list(root.iter(f"{SVG}script"))
    assert not list(root.iter("script"))
    (polyline,) = people(root)[BEN].iter(f"{SVG}polyline")
    assert polyline.find(f"{SVG}title").text == HOSTILE  # escaped once: reads as typed
    assert HOSTILE in root.get("aria-label")


def test_a_colour_that_is_not_a_colour_is_not_written():
    hostile = {ANA: '#000000" onload="alert(1)', BEN: "red"}
    svg = nights_svg(NIGHTS, hostile, NAMES)
    assert "onload" not in svg
    lines = people(parsed(svg))
    assert {c.get("fill") for c in lines[ANA].iter(f"{SVG}circle")} == {FALLBACK_COLOUR}
    assert {c.get("fill") for c in lines[BEN].iter(f"{SVG}circle")} == {FALLBACK_COLOUR}


def test_a_guest_without_a_name_or_colour_is_drawn_under_their_own_name():
    guest = night(22, (ANA, 1, 1.0, 2, 4), (7, 1, 0.0, 2, 8))
    root = parsed(nights_svg([*NIGHTS, guest], COLOURS, NAMES))
    assert "Guest 7" in [t.text for t in root.iter(f"{SVG}text")]
    assert {c.get("fill") for c in people(root)[7].iter(f"{SVG}circle")} == {FALLBACK_COLOUR}


def test_one_night_draws_dots_and_no_lines():
    root = parsed(nights_svg(NIGHTS[:1], COLOURS, NAMES))
    assert not list(root.iter(f"{SVG}polyline"))
    circles = list(root.iter(f"{SVG}circle"))
    assert len(circles) == 2
    width = float(root.get("viewBox").split()[2])
    assert all(0 < float(c.get("cx")) < width for c in circles)


def test_many_nights_across_years_stay_readable():
    many = [
        Night(
            date=datetime.date(2023, 12, 1) + datetime.timedelta(days=7 * n),
            matches=1,
            lines=(NightLine(ANA, "Ana", 1, 1.0, 3, 3 * n),),
            winners=(ANA,),
        )
        for n in range(40)
    ]
    root = parsed(nights_svg(many, COLOURS, NAMES))
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "x-labels")
    shown = [t.text for t in labels]
    assert 2 <= len(shown) < 40  # every few nights, not one on top of another
    assert shown[0] == "1 Dec 2023"  # the year, the chart running into the next
    assert len(list(root.iter(f"{SVG}circle"))) == 40


@pytest.mark.django_db
def test_a_negative_average_stays_inside_the_plot_not_in_the_legend():
    """With "out scores -10", Ana goes out in both rounds: her night averages -10 points a
    round, below the 0 the axis used to start at, and her dot fell into the legend."""
    crew, members = crew_of("Ana", "Ben", "Cy")
    bonus = Rules(highest_double=6, rounds=2, out_score=-10)
    play(
        crews.open_sheet(crew, ["Ana", "Ben", "Cy"], bonus, by="Ana"),
        [[None, 12, 40], [None, 30, 8]],
    )
    root = parsed(crew_context(crew, crew.current_season(), members["Ana"])["chart"])
    dots = [float(c.get("cy")) for g in people(root).values() for c in g.iter(f"{SVG}circle")]
    assert len(dots) == 3
    assert all(TOP <= cy <= TOP + PLOT_HEIGHT for cy in dots)
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    assert max(dots) < min(float(r.get("y")) for r in legend.iter(f"{SVG}rect"))
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "y-labels")
    values = [float(t.text) for t in labels.iter(f"{SVG}text")]
    assert min(values) <= -10 and 0 in values and max(values) >= 24  # Cy's (40 + 8) / 2

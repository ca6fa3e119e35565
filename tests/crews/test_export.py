"""A crew's export: the CSV has a row per seat of every filed match, its names guarded so a
spreadsheet never runs one as a formula; the JSON is plain data that round-trips through
json, and carries a finished online match's game record when the games side gives it."""

from __future__ import annotations

import csv
import io
import json

import pytest

from crews import services as crews
from crews.export import CSV_HEADER, crew_csv, crew_json
from games import review
from scoring import services as sheets
from scoring.models import Match
from tests.review.conftest import play_online_match

from .played import TWO_ROUNDS, crew_of, crew_sheet, play

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example","x")'


@pytest.fixture
def crew_with_a_formula():
    """A crew whose third member typed a formula as their name, and one finished sheet."""
    crew, members = crew_of("Ana", "Ben", FORMULA)
    match = crew_sheet(crew, ["Ana", "Ben", FORMULA], [[None, 10, 20], [5, None, 7]])
    return crew, members, match


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_csv_has_a_row_a_seat_and_guards_the_names(crew_with_a_formula):
    crew, _, match = crew_with_a_formula
    header, *seats = rows(crew_csv(crew))
    assert tuple(header) == CSV_HEADER
    assert seats == [
        ["Season 1", f"{match.created_at:%Y-%m-%d}", "sheet", match.viewer_code, "finished",
         "1", "Ana", "", "5", "1.0", "1"],
        ["Season 1", f"{match.created_at:%Y-%m-%d}", "sheet", match.viewer_code, "finished",
         "2", "Ben", "", "10", "0.0", "1"],
        ["Season 1", f"{match.created_at:%Y-%m-%d}", "sheet", match.viewer_code, "finished",
         "3", f"'{FORMULA}", "", "27", "0.0", "0"],
    ]  # fmt: skip
    assert match.code not in crew_csv(crew)  # the sheet's join code is a secret


def test_a_shared_win_and_a_bot_seat_are_written_as_such(db):
    crew, members = crew_of("Ana", "Ben")
    online = sheets.create_match(
        ["Ana", "Ben", "Greedy bot 1"],
        TWO_ROUNDS,
        kind=Match.Kind.ONLINE,
        known=crews.people_of(crew),
        bots=["", "", "greedy"],
    )
    crews.count_for(crew, online, by="Ana")
    play(online, [[None, 6, 2], [6, None, 10]])
    seats = rows(crew_csv(crew))[1:]
    assert [(s[6], s[7], s[8], s[9]) for s in seats] == [
        ("Ana", "", "6", "0.5"),
        ("Ben", "", "6", "0.5"),
        ("Greedy bot 1", "greedy", "12", "0.0"),
    ]


def test_the_json_round_trips_and_says_who_played_what(crew_with_a_formula):
    crew, members, match = crew_with_a_formula
    exported = crew_json(crew)
    assert json.loads(json.dumps(exported)) == exported
    assert exported["crew"] == crew.name
    assert [s["number"] for s in exported["seasons"]] == [1]
    assert [m["name"] for m in exported["members"]] == ["Ana", "Ben", FORMULA]
    (played,) = exported["matches"]
    assert played["match"] == match.viewer_code and played["finished"] is True
    assert [(s["name"], s["total"], s["won"]) for s in played["seats"]] == [
        ("Ana", 5, 1.0),
        ("Ben", 10, 0.0),
        (FORMULA, 27, 0.0),
    ]
    assert played["seats"][0]["round_points"] == [0, 5]
    assert "record" not in played  # a score sheet has no game record
    text = json.dumps(exported)
    for secret in [crew.code, match.code, *(m.device for m in members.values())]:
        assert secret not in text


def test_a_finished_online_match_carries_its_game_record(db):
    crew, members = crew_of("Ana")
    online = play_online_match()
    crews.file_match(crew, online, {0: members["Ana"].pk}, by="Ana")
    unfinished = sheets.create_match(
        ["Ana", "Random bot 1"],
        TWO_ROUNDS,
        kind=Match.Kind.ONLINE,
        known=crews.people_of(crew),
        bots=["", "random"],
    )
    crews.count_for(crew, unfinished, by="Ana")

    exported = crew_json(crew, records=review.records_of)

    assert json.loads(json.dumps(exported)) == exported
    by_code = {m["match"]: m for m in exported["matches"]}
    assert by_code[online.viewer_code]["record"] == review.records_of(online)
    assert by_code[online.viewer_code]["record"][0]["type"] == "match"
    assert "record" not in by_code[unfinished.viewer_code]  # a record in play shows hands
    assert "record" not in crew_json(crew)["matches"][0]

"""The match list, a match's page and the player statistics, for a finished online match and
a finished score sheet: what they show is checked against the record and the sheet."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import review
from games.engine import Rules, preset
from scoring import services as sheets
from scoring.entries import EntryValue
from scoring.models import Match
from scoring.review import rules_summary
from scoring.services import compute_sheet

from .conftest import simulated_record

pytestmark = pytest.mark.django_db

LIST = reverse("admin:scoring_match_changelist")


def listed(admin_client, query: str = "") -> list[Match]:
    response = admin_client.get(LIST + query)
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def tight(html: str) -> str:
    """HTML without the white space between tags, to find a row of cells in it."""
    return re.sub(r">\s+<", "><", html)


def row_of(admin_client, match: Match) -> str:
    """The list's row of ``match``, as text."""
    html = admin_client.get(LIST).content.decode()
    start = html.index(reverse("admin:scoring_match_change", args=[match.pk]))
    return html[start : html.index("</tr>", start)]


def sheet_with(names: list[str], rules: Rules, pips: list[int]) -> Match:
    """A one-round sheet: everyone's count of pips."""
    match = sheets.create_match(names, rules, by=names[0])
    for seat, count in enumerate(pips):
        sheets.record_entry(
            match, 1, seat, EntryValue.count(count), base_version=0, client_id=None, by="x"
        )
    return match


# -- the list ------------------------------------------------------------------------------


def test_the_list_shows_players_kind_rules_status_winners_and_rounds(
    admin_client, online_match, sheet_match
):
    online = row_of(admin_client, online_match)
    for shown in ["Ana, Greedy bot 1, Random bot 1", "Online table", "double-6, Rounds to play: 3"]:
        assert shown in online
    record_end = review.records_of(online_match)[-1]
    names = review.names_in(review.records_of(online_match))
    winners = " and ".join(names[seat] for seat in record_end["winners"])
    assert f'<td class="field-winner_names">{winners}</td>' in online
    assert '<td class="field-rounds_played">3</td>' in online
    assert "Finished" in online

    sheet = row_of(admin_client, sheet_match)
    for shown in ["Alice, Ben, Cara, Dev", "Score sheet", "Double-blank is worth 50"]:
        assert shown in sheet
    assert '<td class="field-winner_names">Dev</td>' in sheet
    assert '<td class="field-rounds_played">4</td>' in sheet


def test_a_preset_is_named_on_any_set_and_other_rules_say_what_differs(db):
    family_on_nine = preset("family").changed(highest_double=9)
    assert rules_summary(family_on_nine) == "double-9, family"
    assert rules_summary(Rules()) == "double-12, standard"
    assert rules_summary(Rules(highest_double=6, out_score=-10)) == (
        "double-6, The player who goes out scores -10"
    )


def test_the_list_filters_by_status_kind_set_preset_and_variant(admin_client, online_match):
    family = sheets.create_match(["A", "B"], preset("family").changed(highest_double=9))
    cuban = sheets.create_match(["C", "D"], preset("cuban"))
    house = sheet_with(["E", "F"], Rules(rounds=1, out_score=-10), [3, 4])
    imported = review.import_record(simulated_record(5), by="staff")

    def only(query: str) -> set[int]:
        return {m.pk for m in listed(admin_client, query)}

    assert only("?status__exact=finished") == {online_match.pk, house.pk, imported.pk}
    assert only("?status__exact=in_progress") == {family.pk, cuban.pk}
    assert only("?played=sheet") == {family.pk, cuban.pk, house.pk}
    assert only("?played=online") == {online_match.pk}
    assert only("?played=imported") == {imported.pk}
    assert only("?set=9") == {family.pk}
    assert only("?set=6") == {online_match.pk, imported.pk}
    assert only("?preset=family") == {family.pk}
    assert only("?preset=cuban") == {cuban.pk}
    assert only("?preset=house") == {online_match.pk, house.pk, imported.pk}
    assert only("?variant=cuban") == {cuban.pk}
    assert only("?played=sheet&variant=standard") == {family.pk, house.pk}


def test_the_list_searches_by_player_name_and_sorts_by_date_and_set(admin_client, online_match):
    double_nine = sheets.create_match(["Zoe", "Yann"], Rules(highest_double=9))
    assert [m.pk for m in listed(admin_client, "?q=zoe")] == [double_nine.pk]
    assert [m.pk for m in listed(admin_client, "?q=Greedy bot")] == [online_match.pk]
    # Columns: 0 the action checkbox, 1 date, 2 players, 3 played, 4 rules (by set)...
    assert [m.pk for m in listed(admin_client, "?o=4")] == [online_match.pk, double_nine.pk]
    assert [m.pk for m in listed(admin_client, "?o=-4")] == [double_nine.pk, online_match.pk]
    assert [m.pk for m in listed(admin_client, "?o=1")] == [online_match.pk, double_nine.pk]
    assert [m.pk for m in listed(admin_client, "?o=-1")] == [double_nine.pk, online_match.pk]
    assert [m.pk for m in listed(admin_client, "?o=-3")] == [double_nine.pk, online_match.pk]


def test_the_list_costs_the_same_queries_for_two_matches_or_eight(admin_client):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(LIST).status_code == 200
        return len(captured)

    def add_two(seed: int) -> None:
        sheet_with(["Ana", "Ben", "Cy"], Rules(rounds=2), [5, 0, 7])
        review.import_record(simulated_record(seed), by="staff")

    add_two(1)
    few = queries()
    for seed in (2, 3, 4):
        add_two(seed)
    assert len(listed(admin_client)) == 8
    assert queries() == few


# -- a match's page ------------------------------------------------------------------------


def test_an_online_match_page_shows_seats_rules_sheet_history_and_move_log(
    admin_client, online_match
):
    html = admin_client.get(reverse("admin:scoring_match_change", args=[online_match.pk]))
    html = html.content.decode()
    for seat in ["Ana", "Greedy bot 1", "Random bot 1", "the greedy bot", "the random bot"]:
        assert seat in html
    for rule in ["Set: double-6", "Rounds to play: 3", "Variant: Mexican Train"]:
        assert rule in html
    sheet = compute_sheet(online_match)
    totals = "".join(f"<td><strong>{total}</strong></td>" for total in sheet.totals)
    assert totals in html
    assert "history of entries and settings" in html.lower()
    assert "Round 1, Random bot 1: blank →" in html and "the table" in html
    records = review.records_of(online_match)
    names = review.names_in(records)
    for record in records:
        if record["type"] == "action" and record["kind"] == "play":
            low, high = record["tile"]
            assert f"{names[record['seat']]} played {high}-{low} on " in html
    assert f"Round {records[-2]['round']} is over" in html
    for number in (1, 2, 3):
        assert reverse("admin:scoring_match_replay", args=[online_match.pk, number]) in html
    assert reverse("admin:scoring_match_export", args=[online_match.pk]) in html
    assert re.search(r"Round 1: \d+ lines ·", html) and " 1 lines" not in html
    assert 'rel="icon"' in html  # the site's icon: no request for a missing /favicon.ico


def test_a_sheet_match_page_shows_its_sheet_totals_and_who_changed_what(admin_client, sheet_match):
    html = admin_client.get(reverse("admin:scoring_match_change", args=[sheet_match.pk]))
    html = html.content.decode()
    assert "".join(f"<td><strong>{t}</strong></td>" for t in (69, 72, 82, 57)) in html
    assert "Won by Dev" in html
    assert "Round 2, Cara: blank → 27 pips" in html
    assert "Double-blank is worth 50" in html and ">Ben<" in html
    assert "Move log" not in html
    assert reverse("scoring:viewer", args=[sheet_match.viewer_code]) in html


def test_the_move_log_tells_the_docs_example_in_words():
    records = [
        {"type": "match", "format": 1, "rules": Rules(highest_double=6).to_dict(),
         "players": 2, "seed": 1, "first_seat": 0, "names": ["Ana", "Ben"]},
        {"type": "action", "round": 1, "kind": "play", "seat": 0, "tile": [5, 12], "train": 2,
         "end": 0},
        {"type": "action", "round": 1, "kind": "play", "seat": 1, "tile": [0, 3], "train": 0,
         "end": 0},
        {"type": "action", "round": 1, "kind": "draw", "seat": 1, "tile": [2, 4]},
        {"type": "round_end", "round": 1, "reason": "stalled", "out_seat": None, "hands": [],
         "scores": [4, 39]},
    ]  # fmt: skip
    teller = review.Teller.of(records)
    assert [teller.tell(r) for r in records[1:]] == [
        "Ana played 12-5 on the Mexican train.",
        "Ben played 3-0 on Ana's train.",
        "Ben drew 4-2.",
        "Round 1 is over: stalled, nobody could play. Ana 4, Ben 39.",
    ]


# -- statistics ----------------------------------------------------------------------------


def test_statistics_per_person_and_per_bot_level_follow_the_records_and_sheets(
    admin_client, online_match, sheet_match
):
    review.import_record(review.export_record(online_match), by="staff")  # a copy: not counted
    response = admin_client.get(reverse("admin:scoring_player_statistics"))
    assert response.status_code == 200
    people, bots = (dict((t.label, t) for t in group) for _, group in response.context["groups"])

    records = review.records_of(online_match)
    names = review.names_in(records)
    ends = [r for r in records if r["type"] == "round_end"]
    winners = records[-1]["winners"]
    for seat, label in [(1, "Greedy bot"), (2, "Random bot"), (0, "Ana")]:
        tally = bots.get(label) or people[label]
        points = [end["scores"][seat] for end in ends]
        assert tally.matches == 1, label
        assert tally.points == points, label
        assert tally.wins == (1 / len(winners) if seat in winners else 0), label
        assert (tally.best, tally.worst) == (min(points), max(points))
        assert names[seat].startswith(label) or label == "Ana"

    dev = people["Dev"]
    assert (dev.matches, dev.wins, dev.points) == (1, 1, [13, 8, 36, 0])
    assert (dev.average, dev.best, dev.worst) == (14.25, 0, 36)
    assert people["Alice"].wins == 0
    html = tight(response.content.decode())
    assert "<td>Dev</td><td>1</td><td>1</td><td>4</td><td>14.3</td><td>0</td><td>36</td>" in html


def test_a_tie_shares_the_win_and_unfinished_matches_do_not_count(admin_client):
    sheet_with(["Ana", "Ben", "Cy"], Rules(rounds=1), [10, 10, 12])
    sheets.create_match(["Ana", "Dee"], Rules(rounds=1))  # never played: not finished
    response = admin_client.get(reverse("admin:scoring_player_statistics"))
    (_, people), (_, bots) = response.context["groups"]
    assert [(t.label, t.matches, t.wins) for t in people] == [
        ("Ana", 1, 0.5),
        ("Ben", 1, 0.5),
        ("Cy", 1, 0),
    ]
    assert bots == []
    assert "<td>Ana</td><td>1</td><td>0.50</td>" in tight(response.content.decode())

"""Export a match as its game record and import a record as a read-only match: the round
trip is exact, and a record that does not replay is refused with its line, creating nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import review, services
from games.engine import RecordError
from games.engine.records import loads
from games.forms import Intent
from games.models import Move, Table, TableSeat
from scoring.models import Change, Entry, Match, Player
from scoring.services import compute_sheet

from .conftest import simulated_record

pytestmark = pytest.mark.django_db

IMPORT = reverse("admin:scoring_match_import")


def export(admin_client, match: Match) -> str:
    response = admin_client.get(reverse("admin:scoring_match_export", args=[match.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="match-')
    return response.content.decode()


def upload(admin_client, text: str | bytes):
    data = text.encode() if isinstance(text, str) else text
    return admin_client.post(IMPORT, {"record": SimpleUploadedFile("bug.jsonl", data)})


def everything() -> tuple[int, ...]:
    models = (Match, Player, Entry, Change, Table, TableSeat, Move)
    return tuple(model.objects.count() for model in models)


def test_export_then_import_gives_the_same_record_and_the_same_sheet(admin_client, online_match):
    text = export(admin_client, online_match)
    assert loads(text) == review.records_of(online_match)

    response = upload(admin_client, text)
    assert response.status_code == 302
    copy = Match.objects.exclude(pk=online_match.pk).get()
    assert response["Location"] == reverse("admin:scoring_match_change", args=[copy.pk])

    assert review.records_of(copy) == review.records_of(online_match)
    assert export(admin_client, copy) == text
    original, imported = compute_sheet(online_match), compute_sheet(copy)
    assert imported.totals == original.totals
    assert imported.winners == original.winners
    assert [[c.score for c in row.cells] for row in imported.rows] == [
        [c.score for c in row.cells] for row in original.rows
    ]
    assert [s.player.name for s in imported.seats] == [s.player.name for s in original.seats]
    assert (copy.kind, copy.status, copy.get_rules()) == (
        Match.Kind.ONLINE,
        Match.Status.FINISHED,
        online_match.get_rules(),
    )


def test_an_imported_match_is_listed_as_imported_and_cannot_be_played(admin_client, online_match):
    copy = review.import_record(review.export_record(online_match), by="staff")
    table = Table.objects.get(match=copy)
    assert table.imported and table.status == Table.Status.FINISHED
    seat = table.seats.get(position=1)
    with pytest.raises(services.Refused, match="not being played"):
        services.act(table.code, token=seat.token, intent=Intent("draw", table.version))
    assert services.play_bot_turn(table.code) is None
    assert Move.objects.filter(table=table).count() == len(review.records_of(online_match))

    page = admin_client.get(reverse("admin:scoring_match_changelist")).content.decode()
    assert page.count("Online table, imported") == 1
    page = admin_client.get(reverse("admin:scoring_match_change", args=[copy.pk]))
    assert "Imported from a game record: read-only, never playable." in page.content.decode()
    assert copy.created_by == "staff"


def test_a_record_from_the_simulator_opens_and_replays(admin_client):
    text = simulated_record(seed=8)
    response = upload(admin_client, text)
    assert response.status_code == 302
    match = Match.objects.get()
    assert [s.player.name for s in compute_sheet(match).seats] == [
        "random 0",
        "greedy 1",
        "strategic 2",
        "greedy 3",
    ]
    assert compute_sheet(match).totals == tuple(loads(text)[-1]["totals"])
    replay = reverse("admin:scoring_match_replay", args=[match.pk, 3])
    assert admin_client.get(replay, {"step": 5}).status_code == 200


def test_a_record_without_names_seats_its_players_by_number():
    records = loads(simulated_record(seed=9))
    del records[0]["names"]
    match = review.import_record("\n".join(json.dumps(r) for r in records), by="staff")
    assert [s.player.name for s in match.seats.order_by("position")] == [
        "Seat 1",
        "Seat 2",
        "Seat 3",
        "Seat 4",
    ]


def test_a_record_that_stops_mid_round_opens_in_progress(admin_client):
    records = loads(simulated_record(seed=10))
    second_deal = [i for i, r in enumerate(records) if r["type"] == "deal"][1]
    cut = records[: second_deal + 6]  # round 1 ended, round 2 five actions in
    match = review.import_record("".join(json.dumps(r) + "\n" for r in cut), by="staff")
    assert match.status == Match.Status.IN_PROGRESS
    assert compute_sheet(match).rounds_scored == 1
    assert review.records_of(match) == cut
    replay = reverse("admin:scoring_match_replay", args=[match.pk, 2])
    assert "Step 5 of 5." in admin_client.get(replay, {"step": 5}).content.decode()


def broken(text: str, line: int, change) -> str:
    """``text`` with its ``line`` (1-based) changed by ``change(record)``."""
    lines = text.splitlines()
    record = json.loads(lines[line - 1])
    change(record)
    lines[line - 1] = json.dumps(record)
    return "\n".join(lines) + "\n"


def test_a_record_that_breaks_a_rule_is_refused_with_its_line_and_nothing_is_created(
    admin_client, online_match
):
    text = review.export_record(online_match)
    records = loads(text)
    line = next(i for i, r in enumerate(records, 1) if r["type"] == "action" and i > 5)
    seat = records[line - 1]["seat"]
    bad = broken(text, line, lambda r: r.update(seat=(seat + 1) % 3))
    before = everything()
    response = upload(admin_client, bad)
    assert response.status_code == 200
    error = response.context["form"].errors["record"][0]
    assert error.startswith(f"This record does not replay: line {line}: ")
    assert "turn" in error
    assert everything() == before

    # A blank line is still a line of the file: the error names the line people see.
    with pytest.raises(RecordError) as refused:
        review.import_record("\n" + bad, by="staff")
    assert refused.value.line == line + 1
    assert everything() == before


def garble_line_3(lines: list[str]) -> int:
    lines.insert(2, "{not json")
    return 3


def drop_the_first_deal(lines: list[str]) -> int:
    del lines[1]
    return 2  # the first action now comes before any deal


def repeat_the_match_line(lines: list[str]) -> int:
    lines.insert(0, lines[0])
    return 2


def misstate_the_totals(lines: list[str]) -> int:
    lines[-1] = lines[-1].replace('"totals":[', '"totals":[1')
    return len(lines)


def keep_only_the_match_line(lines: list[str]) -> int:
    del lines[1:]
    return 1


def empty_the_file(lines: list[str]) -> int:
    lines.clear()
    return 1


def name_a_player_twice(lines: list[str]) -> int:
    match = json.loads(lines[0])
    match["names"][1] = match["names"][0]
    lines[0] = json.dumps(match)
    return 1


def give_one_name_too_few(lines: list[str]) -> int:
    match = json.loads(lines[0])
    match["names"].pop()
    lines[0] = json.dumps(match)
    return 1


@pytest.mark.parametrize(
    ("breakage", "says"),
    [
        (garble_line_3, "not JSON"),
        (drop_the_first_deal, "an action of round 1 during another round"),
        (repeat_the_match_line, "a second match record"),
        (misstate_the_totals, "match_end says totals"),
        (keep_only_the_match_line, "no round was dealt"),
        (empty_the_file, "no record"),
        (name_a_player_twice, "Ana is named twice"),
        (give_one_name_too_few, "names must be a list of 3 texts"),
    ],
)
def test_broken_records_are_refused_with_the_line_and_the_sentence(online_match, breakage, says):
    lines = review.export_record(online_match).splitlines()
    line = breakage(lines)
    before = everything()
    with pytest.raises(RecordError) as refused:
        review.import_record("\n".join(lines), by="staff")
    assert refused.value.line == line
    assert says in str(refused.value)
    assert everything() == before


def test_a_file_that_is_not_text_is_refused(admin_client):
    response = upload(admin_client, b"\xff\xfe\x00binary")
    assert "not text" in response.context["form"].errors["record"][0]
    assert Match.objects.count() == 0


def test_a_sheet_has_no_record_to_export(admin_client, sheet_match):
    url = reverse("admin:scoring_match_export", args=[sheet_match.pk])
    response = admin_client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "admin:scoring_match_change", args=[sheet_match.pk]
    )
    assert "has no game record" in response.content.decode()


def test_the_list_links_to_the_import_form(admin_client):
    page = admin_client.get(reverse("admin:scoring_match_changelist")).content.decode()
    assert f'href="{IMPORT}"' in page
    assert "multipart/form-data" in admin_client.get(IMPORT).content.decode()

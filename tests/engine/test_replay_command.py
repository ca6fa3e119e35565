"""``manage.py replay`` accepts a record the engine wrote and refuses a tampered one."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine.records import dumps

from .test_records import play_match

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def record_file(tmp_path):
    _, records = play_match()
    path = tmp_path / "match.jsonl"
    path.write_text(dumps(records))
    return path, records


def test_replay_accepts_a_record_written_by_the_engine_and_prints_the_totals(record_file):
    path, records = record_file
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    text = out.getvalue()
    assert "a legal record. 2 of 2 rounds played (finished)" in text
    totals = records[-1]["totals"]
    for name, total in zip(["Ana", "Ben", "Cy"], totals, strict=True):
        assert f"{name}" in text and f"{total:>5}" in text


def test_replay_rejects_the_same_record_with_one_action_made_illegal(record_file):
    path, records = record_file
    i = next(i for i, r in enumerate(records) if r["type"] == "action" and r["kind"] == "play")
    records[i] = {**records[i], "train": 99}
    path.write_text(dumps(records))
    with pytest.raises(CommandError) as refused:
        call_command("replay", str(path))
    assert refused.value.returncode == 1
    assert f"line {i + 1}: There is no train 99" in str(refused.value)


def test_replay_exits_with_status_one_from_the_shell(record_file):
    path, records = record_file
    i = next(i for i, r in enumerate(records) if r["type"] == "action" and r["kind"] == "play")
    records[i] = {**records[i], "seat": (records[i]["seat"] + 1) % 3}
    path.write_text("\n".join(json.dumps(r) for r in records))
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert f"line {i + 1}: It is not seat" in done.stderr


def test_replay_reports_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(tmp_path / "nothing.jsonl"))

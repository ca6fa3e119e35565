"""The simulator: its checks, its summary and the simulate command end to end."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.engine import Rules, new_game
from games.engine.actions import play
from games.engine.records import loads, replay
from games.simulate import check_state, parse_rule, play_match, simulate


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_command_plays_checks_and_writes_records_that_replay(tmp_path):
    records = tmp_path / "records"
    out = run(
        "--players", "3", "--matches", "3", "--bots", "strategic,greedy,random",
        "--seed", "7", "--rules", "short", "--rule", "rounds=2",
        "--rule", "double_blank_value=50", "--records", str(records), "--json",
    )  # fmt: skip
    summary = json.loads(out)
    assert summary["matches"] == 3 and summary["rounds"] == 6
    assert summary["invariant_violations"] == 0
    assert [s["bot"] for s in summary["seats"]] == ["strategic", "greedy", "random"]
    assert sum(s["win_share"] for s in summary["seats"]) == pytest.approx(1)
    files = sorted(records.iterdir())
    assert [f.name for f in files] == ["match-7.jsonl", "match-8.jsonl", "match-9.jsonl"]
    for file in files:
        lines = loads(file.read_text())
        assert lines[0]["rules"]["double_blank_value"] == 50
        final = replay(lines)[-1]
        assert final.is_over
        assert lines[-1]["type"] == "match_end" and lines[-1]["totals"] == final.totals()
        replayed = io.StringIO()
        call_command("replay", str(file), stdout=replayed)
        assert "a legal record" in replayed.getvalue()


def test_a_single_match_goes_to_one_record_file(tmp_path):
    file = tmp_path / "match.jsonl"
    run("--matches", "1", "--rules", "random", "--rule", "rounds=1", "--records", str(file))
    assert replay(loads(file.read_text()))[-1].is_over


def test_the_text_summary_names_every_figure():
    out = run("--players", "2", "--matches", "2", "--rules", "one_tile", "--rule", "rounds=1")
    for words in ("matches 2", "rounds 2", "actions", "stalled rounds", "invariant violations 0"):
        assert words in out
    assert "points/round" in out and "win share" in out and "actions per second" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "greedy,random"], "2 bots for 4 players"),
        (["--bots", "clever"], "unknown bot"),
        (["--rules", "fancy"], "not a preset"),
        (["--rule", "double_blank_value=7"], "double_blank_value"),
        (["--rule", "colour=red"], "expected name=value"),
        (["--rules", "random", "--rule", "hand_size=99"], "no valid rules"),
        (["--players", "11"], "2 to 10 players"),
    ],
)
def test_bad_options_are_refused_with_a_reason(args, message):
    with pytest.raises(CommandError, match=message):
        run("--matches", "1", *args)


def test_rule_values_are_read_by_the_settings_type():
    assert parse_rule("double_plays_again=on") == ("double_plays_again", True)
    assert parse_rule("rounds=none") == ("rounds", None)
    assert parse_rule("hand_size=9") == ("hand_size", 9)
    assert parse_rule("variant=cuban") == ("variant", "cuban")
    with pytest.raises(ValueError):
        parse_rule("draw_before_passing=maybe")


def test_the_checker_reports_a_lost_tile():
    game = new_game(Rules(), players=4, seed=1)
    rnd = game.round
    broken = game._replace(round=rnd._replace(boneyard=rnd.boneyard[1:]))
    assert any("conserved" in p for p in check_state(broken))
    assert check_state(game) == []


def test_an_illegal_choice_by_a_bot_is_a_violation(monkeypatch):
    import games.simulate

    def cheat(level, seed):
        return lambda view: play(view.turn, (0, 0), 0)

    monkeypatch.setattr(games.simulate, "make_bot", cheat)
    result = play_match(Rules(rounds=1), ["greedy"] * 4, seed=1)
    assert result.violations and all("chose" in v for v in result.violations)
    assert result.winners == []  # the match was broken off


def test_simulate_is_reproducible_from_its_seed():
    first = simulate(4, 2, ["strategic", "greedy", "random", "greedy"], seed=3, rules="short")
    again = simulate(4, 2, ["strategic", "greedy", "random", "greedy"], seed=3, rules="short")
    assert first.as_dict()["seats"] == again.as_dict()["seats"]
    assert first.actions == again.actions

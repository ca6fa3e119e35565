"""Game records: writing, replaying, and refusing a record that breaks a rule."""

from pathlib import Path

import pytest

from games.engine import Action, Recorder, RecordError, Rules, legal_actions, new_game, replay
from games.engine.records import dumps, loads, replay_steps

SHORT = Rules(rounds=2, highest_double=6)


def play_match(rules=SHORT, players=3, seed=4):
    """A whole match, last legal action every time, and its record."""
    game = new_game(rules, players, seed=seed)
    recorder = Recorder(game, names=["Ana", "Ben", "Cy"][:players])
    while True:
        if game.round.result is not None:
            if game.is_over:
                return game, recorder.records
            game = recorder.next_round(game)
            continue
        seat = game.round.turn
        game = recorder.apply(game, legal_actions(game, seat)[-1])


def test_a_record_has_match_deal_actions_round_end_and_match_end():
    game, records = play_match()
    kinds = [r["type"] for r in records]
    assert kinds[0] == "match" and kinds[1] == "deal" and kinds[-1] == "match_end"
    assert kinds.count("deal") == 2 and kinds.count("round_end") == 2
    assert records[0]["names"] == ["Ana", "Ben", "Cy"]
    assert records[-1]["totals"] == game.totals()


def test_replay_rebuilds_every_state_and_the_same_scores():
    game, records = play_match()
    states = replay(loads(dumps(records)))
    assert states[-1] == game
    assert len(states) == sum(r["type"] in ("deal", "action") for r in records)


def test_replay_steps_pair_each_record_with_its_state():
    _, records = play_match()
    steps = list(replay_steps(records))
    assert steps[0][0]["type"] == "deal"
    assert all(r["type"] in ("deal", "action") for r, _ in steps)


def _first_play(records):
    return next(i for i, r in enumerate(records) if r["type"] == "action" and r["kind"] == "play")


def test_replay_refuses_an_illegal_action_naming_its_line():
    _, records = play_match()
    i = _first_play(records)
    records[i] = {**records[i], "tile": [0, 0], "train": 0}
    with pytest.raises(RecordError) as refused:
        replay(records)
    assert refused.value.line == i + 1
    assert "You do not hold" in str(refused.value) or "does not match" in str(refused.value)


def test_replay_refuses_an_action_out_of_turn():
    _, records = play_match()
    i = _first_play(records)
    seat = records[i]["seat"]
    records[i] = {**records[i], "seat": (seat + 1) % 3}
    with pytest.raises(RecordError, match="not seat"):
        replay(records)


def test_replay_refuses_wrong_scores_and_totals():
    _, records = play_match()
    end = next(i for i, r in enumerate(records) if r["type"] == "round_end")
    bad = list(records)
    bad[end] = {**bad[end], "scores": [0, 0, 0]}
    with pytest.raises(RecordError, match="round_end says scores"):
        replay(bad)
    bad = list(records)
    bad[-1] = (
        {**bad[-1], "winners": [2]} if bad[-1]["winners"] != [2] else {**bad[-1], "winners": [0]}
    )
    with pytest.raises(RecordError, match="match_end says winners"):
        replay(bad)


def test_replay_refuses_a_draw_that_names_the_wrong_tile():
    for seed in range(50):  # the first seed whose round has a draw in it
        _, records = play_match(rules=Rules(rounds=1, highest_double=6), players=2, seed=seed)
        draws = [i for i, r in enumerate(records) if r.get("kind") == "draw"]
        if draws:
            break
    i = draws[0]
    records[i] = {**records[i], "tile": [6, 6] if records[i]["tile"] != [6, 6] else [5, 6]}
    with pytest.raises(RecordError, match="the boneyard gives"):
        replay(records)


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([{"type": "deal"}], "must start with its match record"),
        ([{"type": "match", "rules": {}, "players": 1}], "2 to 10 players"),
        ([{"type": "match", "rules": {"speed": 1}, "players": 2}], "speed"),
        ([{"type": "match", "rules": {}, "players": 2}, {"type": "lunch"}], "unknown record type"),
        (
            [{"type": "match", "rules": {}, "players": 2}, {"type": "deal", "round": 1}],
            "missing field",
        ),
        (
            [{"type": "match", "rules": {}, "players": 2}, {"type": "round_end"}],
            "still being played",
        ),
    ],
)
def test_replay_refuses_broken_records(records, message):
    with pytest.raises(RecordError, match=message):
        replay(records)


def test_loads_refuses_a_line_that_is_not_json():
    with pytest.raises(RecordError, match="line 2: not JSON"):
        loads('{"type": "match"}\n{oops\n')


RECORDED = Path(__file__).with_name("records") / "greedy-and-strategic-3-rounds.jsonl"


def test_a_record_written_before_the_house_rules_replays_to_its_own_totals():
    """A record kept as it was written (three rounds, greedy and strategic bots): whatever
    the engine gains, the records people already hold must replay unchanged."""
    records = loads(RECORDED.read_text())
    game = replay(records)[-1]
    assert game.totals() == records[-1]["totals"] == [95, 107, 118, 31]


def _retyped(records, index, **fields):
    changed = [dict(r) for r in records]
    changed[index].update(fields)
    return changed


@pytest.mark.parametrize(
    ("where", "fields", "says"),
    [
        (0, {"names": [1, 2, 3]}, "names must be a list of 3 texts"),
        (0, {"names": ["Ana", "Ben"]}, "names must be a list of 3 texts"),
        (0, {"names": "Ana, Ben, Cy"}, "names must be a list of 3 texts"),
        (0, {"players": 3.0}, "players must be a whole number"),
        (0, {"seed": 4.0}, "seed must be a whole number"),
        (1, {"round": 1.0}, "round must be a whole number"),
        (1, {"engine": 6.0}, "engine must be a whole number"),
        ("action", {"round": 1.0}, "round must be a whole number"),
        ("action", {"round": True}, "round must be a whole number"),
        ("round_end", {"scores": "floats"}, "round_end says scores"),
        ("match_end", {"totals": "floats"}, "match_end says totals"),
    ],
)
def test_replay_refuses_numbers_of_the_wrong_type_naming_the_line(where, fields, says):
    """``1.0 == 1`` in Python: a record with floats where whole numbers belong, or names that
    are not one text a seat, is refused at its line, never accepted nor a bare TypeError."""
    _, records = play_match()
    if isinstance(where, str):
        where = next(i for i, r in enumerate(records) if r["type"] == where)
    for key, value in fields.items():
        if value == "floats":
            fields[key] = [float(n) for n in records[where][key]]
    with pytest.raises(RecordError, match=says) as refused:
        replay(_retyped(records, where, **fields))
    assert refused.value.line == where + 1


def test_the_play_action_is_importable_from_the_package():
    """The package exports ``play`` the action; no submodule of that name may hide it."""
    from games.engine import play

    assert play(0, (12, 5), 0) == Action("play", 0, (5, 12), 0, 0)

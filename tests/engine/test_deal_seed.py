"""A deal anybody can check: every round dealt from the secret and the contributions, and
the check that deals them again from the revealed values."""

from __future__ import annotations

import copy
import hashlib
import hmac
import random

import pytest

from games.engine import legal_actions, new_game
from games.engine.deal_seed import Committed, check_record, digest, new_value, round_key
from games.engine.records import Recorder
from games.engine.rules import VARIANTS
from games.engine.tiles import full_set
from games.simulate import random_rules


def committed_match(seed: int, variant: str) -> tuple[list[dict], Committed]:
    """A whole match of random legal moves at a random table of ``variant``, dealt from a
    secret and a contribution a seat, recorded with its commitment and revealed secret as
    an online table records it."""
    rng = random.Random(f"deal-seed/{seed}/{variant}")
    players = rng.randint(2, 6)
    rules = random_rules(rng, players, {"variant": variant, "rounds": rng.randint(1, 4)})
    committed = Committed(
        rng.randbytes(32).hex(), tuple(rng.randbytes(32).hex() for _ in range(players))
    )
    game = new_game(rules, players, first_seat=rng.randrange(players), order=committed)
    recorder = Recorder(game, order=committed)
    recorder.records[0] |= committed.match_fields([False] * players)
    while True:
        while game.round.result is None:
            game = recorder.apply(game, rng.choice(legal_actions(game, game.round.turn)))
        if game.is_over:
            break
        game = recorder.next_round(game)
    assert recorder.records[-1]["type"] == "match_end"
    recorder.records[-1]["secret"] = committed.secret
    return recorder.records, committed


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rounds_deal_recomputes_from_the_revealed_values(variant):
    for seed in range(6):
        records, committed = committed_match(seed, variant)
        found = check_record(records)
        dealt = [r["round"] for r in records if r["type"] == "deal"]
        assert found.commitment_kept and found.holds
        assert [r.number for r in found.rounds] == dealt
        assert (
            records[0]["deal"]["commitment"]
            == hashlib.sha256(committed.secret.encode()).hexdigest()
        )


def test_a_changed_secret_fails_the_check_at_the_first_round():
    records, _ = committed_match(1, "standard")
    records[-1]["secret"] = new_value()
    found = check_record(records)
    assert not found.commitment_kept and not found.holds
    assert found.first_difference == 1


def test_a_changed_contribution_fails_the_check_at_the_first_round():
    records, _ = committed_match(2, "cuban")
    shares = records[0]["deal"]["contributions"]
    shares[-1] = shares[-1][:-1] + ("0" if shares[-1][-1] != "0" else "1")
    found = check_record(records)
    assert found.commitment_kept and not found.holds
    assert found.first_difference == 1


def test_contributions_count_in_seat_order():
    records, _ = committed_match(3, "chicken_foot")
    records[0]["deal"]["contributions"].reverse()
    assert check_record(records).first_difference == 1


def test_a_round_dealt_with_another_rounds_number_is_named():
    """Round 2 shuffled with round 1's key (the same secret and shares): the check names
    round 2, and round 1 still holds."""
    for seed in range(20):
        records, committed = committed_match(seed, "standard")
        if sum(r["type"] == "deal" for r in records) >= 2:
            break
    else:
        pytest.fail("no match of two rounds")
    tampered = copy.deepcopy(records)
    second = next(r for r in tampered if r["type"] == "deal" and r["round"] == 2)
    first = next(r for r in tampered if r["type"] == "deal" and r["round"] == 1)
    rules_top = tampered[0]["rules"]["highest_double"]
    engine_from_hand = tampered[0]["rules"]["engine_from_hand"]
    tiles = [t for t in full_set(rules_top) if engine_from_hand or t != (second["engine"],) * 2]
    wrong = committed(tiles, 1)
    size = len(first["hands"][0])
    second["hands"] = [
        [list(t) for t in wrong[s * size : (s + 1) * size]] for s in range(len(first["hands"]))
    ]
    second["boneyard"] = [list(t) for t in wrong[len(first["hands"]) * size :]]
    found = check_record(tampered)
    assert found.rounds[0].matches and found.first_difference == 2
    # and a deal line that claims another round's number is not that round's deal
    relabelled = copy.deepcopy(records)
    next(r for r in relabelled if r["type"] == "deal" and r["round"] == 2)["round"] = 1
    assert check_record(relabelled).first_difference is not None


def doc_recipe_order(secret: str, contributions: list[str], number: int, tiles: list) -> list:
    """The recipe exactly as docs/engine.md writes it, done again apart from the module."""
    key = hmac.new(
        secret.encode(), f"round {number}:{':'.join(contributions)}".encode(), hashlib.sha256
    ).digest()
    stream = b""
    block = 0
    tiles = list(tiles)
    for i in range(len(tiles) - 1, 0, -1):
        while True:
            if not stream:
                stream = hmac.new(key, block.to_bytes(4, "big"), hashlib.sha256).digest()
                block += 1
            word, stream = int.from_bytes(stream[:4], "big"), stream[4:]
            if word < 2**32 - 2**32 % (i + 1):
                break
        j = word % (i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def test_the_recipe_is_the_one_the_docs_write_down():
    rng = random.Random(9)
    for number in range(1, 14):
        secret = rng.randbytes(32).hex()
        shares = [rng.randbytes(32).hex() for _ in range(rng.randint(2, 8))]
        tiles = list(full_set(12))
        assert Committed(secret, tuple(shares))(tiles, number) == doc_recipe_order(
            secret, shares, number, tiles
        )
        assert round_key(secret, shares, number) != round_key(secret, shares, number + 1)
    assert digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

"""Invariants that hold after every action of every game.

The property tests and the simulator check these after each action; they are cheap enough
for thousands of games but not free, which is why the simulator can turn them off.
"""

from __future__ import annotations

from collections import Counter

from .moves import legal_actions, went_out
from .scoring import HandCount, score
from .state import Game
from .tiles import full_set


def violations(game: Game) -> list[str]:
    """Every invariant the state breaks, as sentences; empty when all is well."""
    rnd = game.round
    if rnd is None:
        return []
    found: list[str] = []
    seen: Counter = Counter()
    for hand in rnd.hands:
        seen.update(hand)
    seen.update(rnd.boneyard)
    for train in rnd.trains:
        for branch in train.branches:
            seen.update((min(x), max(x)) for x in branch.tiles)
    if rnd.engine_placed:
        seen[(rnd.engine, rnd.engine)] += 1
    # Every tile of the set is somewhere: in the hub, a hand, the boneyard or a train.
    # Only a round whose engine waits in the hub from the start leaves it out of the deal.
    expected = set(full_set(game.rules.highest_double))
    twice = sorted(t for t, n in seen.items() if n > 1)
    if twice:
        found.append(f"tiles in two places: {twice}")
    if set(seen) != expected:
        missing = sorted(expected - set(seen))
        extra = sorted(set(seen) - expected)
        found.append(f"tiles not conserved: missing {missing}, unknown {extra}")
    for train in rnd.trains:
        if train.is_public and train.marked:
            found.append("a public train carries a marker")
    if game.rules.covers_owed and game.rules.double_scope == "table":
        owed = {(i, n) for i, n in rnd.owed_doubles()}
        if len({n for _, n in owed}) > 1 or len({i for i, _ in owed}) > 1:
            found.append(f"more than one double uncovered under the table scope: {owed}")
    if rnd.result is None:
        if went_out(rnd, rnd.turn):
            found.append(f"seat {rnd.turn}, out of tiles, is on turn")
        if not legal_actions(game, rnd.turn):
            found.append(f"seat {rnd.turn} is on turn with no legal action")
        others = [s for s in range(game.players) if s != rnd.turn and legal_actions(game, s)]
        if others:
            found.append(f"seats {others} have legal actions out of turn")
    else:
        found.extend(_result_violations(game))
    return found


def _result_violations(game: Game) -> list[str]:
    """A finished round's scores are the scoring function's, and the match keeps them."""
    rnd = game.round
    result = rnd.result
    found = []
    if game.scores[-1] != result.scores or game.outs[-1] != result.outs:
        found.append("the match's scores miss the finished round")
    if set(result.outs) != {s for s in range(game.players) if went_out(rnd, s)}:
        found.append(f"the round's outs {result.outs} are not the seats with no tile left")
    if len(result.outs) > 1 and not game.rules.everyone_first_turn:
        found.append(f"several seats went out {result.outs} without everyone_first_turn")
    for seat in result.outs:
        last = next(e.tile for e in reversed(rnd.log) if e.seat == seat and e.kind == "play")
        if (seat in result.out_on_double) != (last[0] == last[1]):
            found.append(f"seat {seat}'s going out on a double disagrees with its last tile")
    expected = tuple(
        score(None if seat in result.outs else HandCount.of(hand), game.rules,
              on_double=seat in result.out_on_double)
        for seat, hand in enumerate(result.hands)
    )  # fmt: skip
    if result.scores != expected:
        found.append(f"round scores {result.scores} are not the scoring function's {expected}")
    return found

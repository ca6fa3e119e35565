"""Engine speed: self-play actions per second, matches per second, and the planner.

    .venv/bin/python benchmarks/engine.py [--matches 40] [--hands 1000] [--positions 80]
        [--deals 12] [--seed 0]

Self-play is the simulator with its checks off: four greedy bots (and, for comparison,
four random ones) play complete 13-round matches under the default rules, each action
costing one seat view (with its legal actions), one bot decision and one ``apply``.

The planner (:func:`games.bots.planner.best_line`) is timed on random hands of 15, 20 and
25 tiles from a double-12 set, the engine a random double, against the plain exhaustive
search over every line (:func:`games.bots.planner.exhaustive_line`) on the same hands: the
two must agree on the tile count (and the pips) of every hand.

The expert's search (:func:`games.bots.expert.search`) lives on playouts: it is timed on
``--positions`` decisions with a choice, drawn from strategic self-play as
``benchmarks/expert_decisions.py`` draws them, each searched with ``--deals`` deals of every
legal action.

Times are the CPU time of this process (``time.process_time``), so other work on a shared
machine slows the figures less than it would wall-clock times; they are still one core of
whatever machine runs them, so compare figures from one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from expert_decisions import positions

from games.bots.expert import search
from games.bots.planner import best_line, exhaustive_line, line_value
from games.engine import Rules, view_for
from games.engine.tiles import Tile, full_set
from games.simulate import play_match


def self_play(bot: str, matches: int, seed: int) -> tuple[float, float, int]:
    """Actions per second, matches per second, and actions played."""
    actions = 0
    started = time.process_time()
    for i in range(matches):
        actions += play_match(Rules(), (bot,) * 4, seed + i, check=False).actions
    seconds = time.process_time() - started
    return actions / seconds, matches / seconds, actions


def search_rate(count: int, deals: int, seed: int) -> tuple[float, int]:
    """Playouts a second of the expert's search, and the playouts, on ``count`` decisions
    (four from each strategic game)."""
    games = [g for s in range(seed, seed + (count + 3) // 4) for g in positions(s, 4)][:count]
    playouts = 0
    started = time.process_time()
    for i, game in enumerate(games):
        scores = search(view_for(game, game.round.turn), i, playouts=deals)
        playouts += sum(map(len, scores.values()))
    return playouts / (time.process_time() - started), playouts


def random_hands(size: int, count: int, seed: int) -> list[tuple[list[Tile], int]]:
    rng = random.Random(f"hands/{seed}/{size}")
    hands = []
    for _ in range(count):
        engine = rng.randrange(13)
        tiles = [t for t in full_set(12) if t != (engine, engine)]
        hands.append((rng.sample(tiles, size), engine))
    return hands


def timed(
    search: Callable[[list[Tile], int], list[Tile]], hands: list[tuple[list[Tile], int]]
) -> tuple[list[float], list[tuple[int, int]]]:
    """Each hand's time in milliseconds, and each answer's value."""
    times, values = [], []
    for hand, engine in hands:
        started = time.process_time()
        line = search(hand, engine)
        times.append((time.process_time() - started) * 1000)
        values.append(line_value(line))
    return times, values


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40, help="self-play matches per bot")
    parser.add_argument("--hands", type=int, default=1000, help="planner hands per size")
    parser.add_argument("--positions", type=int, default=80, help="expert decisions")
    parser.add_argument("--deals", type=int, default=12, help="deals an expert decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"`{' '.join(['benchmarks/engine.py', *(argv if argv is not None else sys.argv[1:])])}`")

    print("\n| Self-play, 4 seats, default rules, checks off | Actions | Actions/s | Matches/s |")
    print("|---|---|---|---|")
    for bot in ("greedy", "random"):
        per_action, per_match, actions = self_play(bot, args.matches, args.seed)
        print(
            f"| {args.matches} matches, {bot} bots | {actions:,} | {per_action:,.0f} "
            f"| {per_match:.2f} |"
        )
    sys.stdout.flush()

    rate, playouts = search_rate(args.positions, args.deals, args.seed)
    print("\n| Expert search, 4 seats, default rules | Playouts | Playouts/s |")
    print("|---|---|---|")
    print(f"| {args.positions} decisions, {args.deals} deals each | {playouts:,} | {rate:,.0f} |")
    sys.stdout.flush()

    print(
        "\n| Hand | Planner median | Planner p99 | Planner max | Exhaustive median "
        "| Exhaustive p99 | Total time ratio | Same tile count | Same pips |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for size in (15, 20, 25):
        hands = random_hands(size, args.hands, args.seed)
        fast, fast_values = timed(best_line, hands)
        slow, slow_values = timed(exhaustive_line, hands)
        same_count = sum(f[0] == s[0] for f, s in zip(fast_values, slow_values, strict=True))
        same_pips = sum(f == s for f, s in zip(fast_values, slow_values, strict=True))
        print(
            f"| {size} tiles x {len(hands)} | {statistics.median(fast):.3f} ms "
            f"| {percentile(fast, 0.99):.3f} ms | {max(fast):.3f} ms "
            f"| {statistics.median(slow):.3f} ms | {percentile(slow, 0.99):.1f} ms "
            f"| {sum(slow) / sum(fast):,.1f}x | {same_count}/{len(hands)} "
            f"| {same_pips}/{len(hands)} |"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()

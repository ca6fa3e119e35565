"""How well the bots play: seat-rotated tables, win shares and points with 95% CIs.

    .venv/bin/python benchmarks/bots.py [--matches 1000] [--seed 0] [--workers 2]
    .venv/bin/python benchmarks/bots.py --table expert,strategic --expert-budget 0.5

Each table puts one bot (the first named) against copies of another. Every seed is played
once per seat arrangement, the lone bot moving round the table, so each bot sits in every
seat equally often and meets the same deals: luck of the deal cancels out. A seed's
matches form one sample; the 95% confidence intervals are over those samples (normal
approximation, 1.96 standard errors). Default rules unless --rules names a preset.

Win share: a match's win goes to the lowest total, a tie split evenly; per seat, so with
four seats 25% is parity. Points: mean points per round, averaged over a bot's seats.

The expert searches a fixed number of deals a decision (--expert-playouts), so a figure
does not depend on the machine's speed, or, with --expert-budget, as it does at a table:
for that many seconds a decision, each of which is timed and reported.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from games.bots import Bot, ExpertBot, make_bot
from games.engine import PRESETS, Action, SeatView
from games.simulate import play_match

TABLES = (("strategic", "greedy"), ("greedy", "random"))


def play(
    rules_name: str,
    lineup: tuple[str, ...],
    seed: int,
    expert_playouts: int = 8,
    rounds: int | None = None,
    expert_budget: float | None = None,
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """One match: per seat, (win share, mean points per round); and, for each of the
    expert's decisions, the seconds it took on the clock and of the process's CPU (the
    clock's figure includes the time other programs had the core)."""
    thinking: list[tuple[float, float]] = []

    def make(level: str, seed: str) -> Bot:
        if level != "expert":
            return make_bot(level, seed)
        if expert_budget is None:
            return ExpertBot(seed, budget=None, playouts=expert_playouts)
        expert = ExpertBot(seed, budget=expert_budget)

        def timed(view: SeatView) -> Action:
            start, cpu = time.perf_counter(), time.process_time()
            action = expert(view)
            thinking.append((time.perf_counter() - start, time.process_time() - cpu))
            return action

        return timed

    rules = PRESETS[rules_name]
    rules = rules if rounds is None else dataclasses.replace(rules, rounds=rounds)
    result = play_match(rules, lineup, seed, first_seat=0, check=False, make=make)
    rounds = len(result.round_scores)
    return [
        (
            (1 / len(result.winners)) if seat in result.winners else 0.0,
            sum(scores[seat] for scores in result.round_scores) / rounds,
        )
        for seat in range(len(lineup))
    ], thinking


def run_table(
    lone: str,
    field: str,
    players: int,
    seeds: Sequence[int],
    rules: str,
    workers: int,
    expert_playouts: int = 8,
    rounds: int | None = None,
    expert_budget: float | None = None,
) -> tuple[dict[str, list[tuple[float, float]]], list[tuple[float, float]]]:
    """Per bot, one (win share, points per round) sample per seed, each the mean over the
    seat arrangements and over that bot's seats; and the expert's decision times."""
    lineups = [tuple(lone if s == r else field for s in range(players)) for r in range(players)]
    jobs = [
        (rules, lineup, seed, expert_playouts, rounds, expert_budget)
        for seed in seeds
        for lineup in lineups
    ]
    with ProcessPoolExecutor(workers) as pool:
        played = list(pool.map(play, *zip(*jobs, strict=True), chunksize=4))
    outcomes = [outcome for outcome, _ in played]
    thinking = [seconds for _, times in played for seconds in times]
    samples: dict[str, list[tuple[float, float]]] = {lone: [], field: []}
    for i in range(len(seeds)):
        group = outcomes[i * players : (i + 1) * players]
        for bot in (lone, field):
            seats = [
                outcome[seat]
                for lineup, outcome in zip(lineups, group, strict=True)
                for seat in range(players)
                if lineup[seat] == bot
            ]
            samples[bot].append(
                (
                    statistics.fmean(w for w, _ in seats),
                    statistics.fmean(p for _, p in seats),
                )
            )
    return samples, thinking


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000, help="per table (1000)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="first seed (0)")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    parser.add_argument("--table", action="append", help="LONE,FIELD (default: both tables)")
    parser.add_argument(
        "--expert-playouts", type=int, default=8, help="deals the expert searches a decision (8)"
    )
    parser.add_argument(
        "--expert-budget", type=float, help="seconds the expert thinks a decision, not playouts"
    )
    parser.add_argument("--rounds", type=int, help="rounds a match (default: the rules')")
    args = parser.parse_args(argv)
    tables = [tuple(t.split(",")) for t in args.table] if args.table else list(TABLES)
    per_table_seeds = range(args.seed, args.seed + max(1, args.matches // args.players))
    matches = len(per_table_seeds) * args.players
    print(f"`{' '.join(['benchmarks/bots.py', *(argv if argv is not None else sys.argv[1:])])}`")
    print(
        f"\n{matches} matches per table ({len(per_table_seeds)} seeds x {args.players} "
        f"seat arrangements), {args.players} seats, rules: {args.rules}.\n"
    )
    print("| Table | Bot | Win share (95% CI) | Points per round (95% CI) |")
    print("|---|---|---|---|")
    for lone, field in tables:
        samples, thinking = run_table(
            lone,
            field,
            args.players,
            per_table_seeds,
            args.rules,
            args.workers,
            args.expert_playouts,
            args.rounds,
            args.expert_budget,
        )
        name = f"{lone} vs {args.players - 1} {field}"
        for bot in (lone, field):
            win, win_ci = mean_ci([w for w, _ in samples[bot]])
            points, points_ci = mean_ci([p for _, p in samples[bot]])
            print(f"| {name} | {bot} | {win:.1%} ± {win_ci:.1%} | {points:.2f} ± {points_ci:.2f} |")
        lone_points = [p for _, p in samples[lone]]
        field_points = [p for _, p in samples[field]]
        gap, gap_ci = mean_ci([o - f for o, f in zip(lone_points, field_points, strict=True)])
        ratio = statistics.fmean(lone_points) / statistics.fmean(field_points)
        print(
            f"| {name} | {lone} - {field} | | {gap:.2f} ± {gap_ci:.2f} "
            f"({ratio - 1:+.1%} of {field}'s) |"
        )
        if thinking:
            clock, cpu = [c for c, _ in thinking], [p for _, p in thinking]
            print(
                f"\nThe expert's {len(thinking)} decisions: {statistics.fmean(clock):.3f} s "
                f"on average, {max(clock):.3f} s at most; of CPU, {statistics.fmean(cpu):.3f} s "
                f"on average, {max(cpu):.3f} s at most."
            )


if __name__ == "__main__":
    main()

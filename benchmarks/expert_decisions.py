"""How much the expert's decisions gain over the strategic bot's, judged from the real hands.

    .venv/bin/python benchmarks/expert_decisions.py [--games 150] [--per-game 4]
        [--variant deals=24] [--variant work=8000,drop=0.5] [--oracle 30] [--workers 2]

benchmarks/bots.py measures whole matches, whose luck of the deal hides a change to the
search unless it is large. This looks at decisions one at a time. From strategic self-play
(four seats, standard rules, a round of the match drawn at random for each game) it takes
positions where the seat on turn has a choice, lets the expert decide each one from the
seat's view as it would at a table, and judges its choice against the strategic bot's by
playing both out from the *real* hands (the boneyard shuffled anew for each of ``--oracle``
playouts, the same shuffles for both). The gain is the strategic choice's margin less the
expert's (points less the others' mean, lower is better, so a positive gain is a better
decision), averaged over the decisions, with one standard error; every variant meets the
same positions, so each is also given as a paired difference against the first.

A variant sets the search's deals a decision (``deals=N``) or its work (``work=N``: a
budget counted in clock readings, about 16,000 a second here, so that a figure does not
depend on the machine), and may change ExpertBot's ``confidence``, ``drop`` and
``drop_after`` (see games/bots/expert.py). Deterministic for its arguments.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from games.bots import ExpertBot, StrategicBot
from games.bots.expert import margin, playout
from games.engine import Action, Game, Rules, apply, new_game, next_round, view_for

SETTINGS = {"confidence": "CONFIDENCE", "drop": "DROP", "drop_after": "DROP_AFTER"}


def positions(seed: int, per_game: int) -> list[Game]:
    """Up to ``per_game`` decisions with a choice, from one round of a strategic match."""
    rng = random.Random(f"positions/{seed}")
    bot = StrategicBot()
    game = new_game(Rules(), 4, seed=seed)
    target = rng.randint(1, game.rules.round_count)
    while game.round.number < target or game.round.result is not None:
        if game.round.result is not None:
            game = next_round(game)
        else:
            game = apply(game, bot(view_for(game, game.round.turn)))
    found = []
    while game.round.result is None:
        view = view_for(game, game.round.turn)
        if len(view.legal) > 1:
            found.append(game)
        game = apply(game, bot(view))
    rng.shuffle(found)
    return found[:per_game]


def expert(variant: dict[str, float], seed: str) -> ExpertBot:
    if "work" in variant:
        ticks = itertools.count()
        bot = ExpertBot(seed, budget=variant["work"], clock=lambda: next(ticks))
    else:
        bot = ExpertBot(seed, budget=None, playouts=int(variant["deals"]))
    for key, attribute in SETTINGS.items():
        if key in variant:
            setattr(bot, attribute, variant[key])
    return bot


def judged(game: Game, action: Action, shuffle: str) -> tuple[int, ...]:
    """The round's scores after ``action``, played out from the real hands."""
    rnd = game.round
    boneyard = list(rnd.boneyard)
    random.Random(shuffle).shuffle(boneyard)
    real = game._replace(round=rnd._replace(boneyard=tuple(boneyard)))
    return playout(real, action, StrategicBot())


def study(job: tuple[int, int, list[dict[str, float]], int]) -> list[list[float]]:
    """Each decision's gain over the strategic choice, one per variant."""
    seed, per_game, variants, oracle = job
    rows = []
    for i, game in enumerate(positions(seed, per_game)):
        seat = game.round.turn
        view = view_for(game, seat)
        default = StrategicBot()(view)
        chosen = [expert(variant, f"{seed}/{i}")(view) for variant in variants]
        outcomes = {
            action: [margin(judged(game, action, f"{seed}/{i}/{k}"), seat) for k in range(oracle)]
            for action in {default, *chosen}
        }
        base = statistics.fmean(outcomes[default])
        rows.append([base - statistics.fmean(outcomes[action]) for action in chosen])
    return rows


def parse_variant(text: str) -> dict[str, float]:
    variant = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        if key not in {"deals", "work", *SETTINGS}:
            raise SystemExit(f"{key!r}: a variant sets deals, work, {', '.join(SETTINGS)}")
        variant[key] = float(value)
    if ("deals" in variant) == ("work" in variant):
        raise SystemExit(f"{text!r}: a variant sets either deals or work")
    return variant


def mean_se(values: list[float]) -> str:
    return (
        f"{statistics.fmean(values):+.3f} ± {statistics.stdev(values) / math.sqrt(len(values)):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--variant", action="append", help="e.g. work=8000,drop=0.5")
    parser.add_argument("--oracle", type=int, default=30, help="playouts judging a choice")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    texts = args.variant or ["work=8000"]
    variants = [parse_variant(text) for text in texts]
    start = time.perf_counter()
    jobs = [
        (s, args.per_game, variants, args.oracle) for s in range(args.seed, args.seed + args.games)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = [row for found in pool.map(study, jobs) for row in found]
    if len(rows) < 2:
        raise SystemExit(f"{len(rows)} decision: a standard error needs two (more --games).")
    print(f"`benchmarks/expert_decisions.py {' '.join(sys.argv[1:])}`\n")
    print(f"{len(rows)} decisions, {time.perf_counter() - start:.0f} s.\n")
    print("| Variant | Gain over the strategic choice (1 SE) | Paired, against the first |")
    print("|---|---|---|")
    for v, text in enumerate(texts):
        gains = [row[v] for row in rows]
        against = [row[v] - row[0] for row in rows]
        print(f"| {text} | {mean_se(gains)} | {mean_se(against) if v else ''} |")


if __name__ == "__main__":
    main()

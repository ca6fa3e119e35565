"""Self-play: complete matches bot against bot, every invariant checked after every action.

``python manage.py simulate`` is a thin wrapper around :func:`simulate`; the benchmarks and
the tests call these functions directly. A match is reproducible from its seed: the deals
come from the seed, and so do the random bots' choices.

The invariants (``check=True``), checked after every action:

* tiles are conserved: the hands, the boneyard, every train and the engine in the hub hold
  the whole set, no tile twice;
* the seat on turn has at least one legal action and every other seat has none;
* every action offered is accepted by ``apply`` (and the bot picked one of them);
* rounds end: no round runs longer than any legal round can.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from games.bots import Bot, make_bot
from games.engine import (
    PRESETS,
    Game,
    IllegalAction,
    Recorder,
    Rules,
    RulesError,
    apply,
    legal_actions,
    new_game,
    next_round,
    view_for,
)
from games.engine.invariants import violations as invariant_violations
from games.engine.rules import (
    BLANK_VALUES,
    DOUBLE_BLANK_VALUES,
    DOUBLE_SCOPES,
    ENGINE_HUNTS,
    FIRST_TURNS,
    MAX_PUBLIC_TRAINS,
    OUT_SCORES,
    OWN_TRAIN_FIRST,
    ROUND_ENGINES,
    TIE_BREAKS,
    VARIANTS,
)
from games.engine.tiles import SUPPORTED_SETS, set_size

RANDOM = "random"  # the --rules value that draws every setting at random, match by match


@dataclass
class MatchResult:
    seed: int
    totals: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)  # empty if the match was broken off
    round_scores: list[tuple[int, ...]] = field(default_factory=list)
    actions: int = 0
    stalled_rounds: int = 0
    violations: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] | None = None


def play_match(
    rules: Rules,
    bots: Sequence[str],
    seed: int,
    first_seat: int = 0,
    check: bool = True,
    record: bool = False,
    make: Callable[[str, str], Bot] | None = None,
) -> MatchResult:
    """Play one whole match with a bot of each named level in each seat (``make`` builds
    them: a benchmark may build the expert with its own playouts). A violation that
    leaves nothing sensible to play on (an illegal choice, an endless round) ends it."""
    players = len(bots)
    make = make or make_bot
    seat_bots: list[Bot] = [make(level, f"{seed}/{seat}") for seat, level in enumerate(bots)]
    game = new_game(rules, players=players, seed=seed, first_seat=first_seat)
    names = [f"{level} {seat}" for seat, level in enumerate(bots)]
    recorder = Recorder(game, names) if record else None
    step = recorder.apply if recorder else apply
    # A turn lays a tile, draws one or passes, and the round stalls once nobody can lay
    # a tile: no legal round comes near this many actions.
    longest_round = 4 * set_size(rules.highest_double) * (players + 1)
    result = MatchResult(seed)
    while True:
        rnd = game.round
        assert rnd is not None
        if check:
            result.violations.extend(check_state(game))
        for _ in range(longest_round):
            if rnd.result is not None:
                break
            view = view_for(game, rnd.turn)
            action = seat_bots[rnd.turn](view)
            if check and action not in view.legal:
                result.violations.append(_where(game, f"a bot chose {action}, not offered"))
            try:
                game = step(game, action)
            except IllegalAction as error:
                result.violations.append(_where(game, f"a bot chose {action}: {error}"))
                break
            result.actions += 1
            rnd = game.round
            assert rnd is not None
            if check:
                result.violations.extend(check_state(game))
        if rnd.result is None:
            if not result.violations:
                result.violations.append(_where(game, "the round does not end"))
            break
        result.round_scores.append(rnd.result.scores)
        result.stalled_rounds += rnd.result.reason == "stalled"
        if game.is_over:
            result.winners = game.winners()
            break
        game = recorder.next_round(game) if recorder else next_round(game)
    result.totals = game.totals()
    if recorder:
        result.records = recorder.records
    return result


def check_state(game: Game) -> list[str]:
    """The invariants of the module docstring that hold in a state: the engine's own
    (:func:`games.engine.invariants.violations`) and every offered action accepted."""
    problems = [_where(game, problem) for problem in invariant_violations(game)]
    rnd = game.round
    if rnd is not None and rnd.result is None:
        for action in legal_actions(game, rnd.turn):
            try:
                apply(game, action)
            except IllegalAction as error:
                problems.append(_where(game, f"offered {action} refused: {error}"))
    return problems


def _where(game: Game, message: str) -> str:
    rnd = game.round
    number = rnd.number if rnd else 0
    return f"seed {game.seed}, round {number}, after {len(rnd.log) if rnd else 0} events: {message}"


# -- rules ---------------------------------------------------------------------------------


def random_rules(rng: random.Random, players: int, fixed: dict[str, Any] | None = None) -> Rules:
    """Every setting drawn at random (``fixed`` ones excepted), redrawn until the rules are
    valid and the table of ``players`` fits the set."""
    for _ in range(1000):
        top = rng.choice(SUPPORTED_SETS)
        covered = rng.random() < 0.7
        variant = rng.choice(VARIANTS)
        settings: dict[str, Any] = {
            "highest_double": top,
            "rounds": rng.choice([None, rng.randint(1, top + 1)]),
            "hand_size": rng.choice([None, None, rng.randint(1, 20)]),
            "public_trains": rng.randint(0, MAX_PUBLIC_TRAINS),
            "unstarted_trains_open": rng.random() < 0.5,
            "first_turn": rng.choice(FIRST_TURNS),
            "draw_before_passing": rng.random() < 0.7,
            "doubles_must_be_covered": covered,
            "double_scope": rng.choice(DOUBLE_SCOPES)
            if covered and variant != "cuban"
            else "table",
            "double_plays_again": rng.random() < 0.5,
            "engine_from_hand": rng.random() < 0.5,
            "variant": variant,
            "double_blank_value": rng.choice(DOUBLE_BLANK_VALUES),
            "double_penalty": rng.choice([0, 0, 5 * rng.randint(0, 20)]),
            "out_score": rng.choice(OUT_SCORES),
            "round_engines": rng.choice(ROUND_ENGINES),
            "blank_value": rng.choice(BLANK_VALUES),
            "out_on_double": rng.choice([0, 0, 5 * rng.randint(-10, 20)]),
            "tie_break": rng.choice(TIE_BREAKS),
            "own_train_first": rng.choice(OWN_TRAIN_FIRST),
            "draw_on_first_turn": rng.random() < 0.7,
            "optional_draw": rng.random() < 0.3,
            "extra_play_optional": rng.random() < 0.3,
            "dead_doubles_free": rng.random() < 0.3,
            "engine_replacement": rng.random() < 0.3,
            "engine_hunt": rng.choice(ENGINE_HUNTS),
            "everyone_first_turn": rng.random() < 0.3,
        }
        settings.update(fixed or {})
        try:
            rules = Rules(**settings)
            rules.hand_size_for(players)
        except RulesError:
            continue
        return rules
    raise RulesError("rules", f"no valid rules for {players} players with {fixed}.")


def parse_rule(text: str) -> tuple[str, Any]:
    """Read one ``name=value`` setting, typed like the setting's default: ``on``/``off``
    for switches, a number for numbers, ``none`` for the settings whose default is None
    (rounds and hand size: "by the table")."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    names = [f.name for f in fields(Rules)]
    if not sep or name not in names:
        raise ValueError(f"{text!r}: expected name=value with a setting among {', '.join(names)}.")
    default = getattr(Rules(), name)
    if isinstance(default, bool):
        switch = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}
        if raw.lower() not in switch:
            raise ValueError(f"{name}: {raw!r} is not on or off.")
        return name, switch[raw.lower()]
    if default is None and raw.lower() in ("none", "default"):
        return name, None
    if default is None or isinstance(default, int):
        try:
            return name, int(raw)
        except ValueError:
            raise ValueError(f"{name}: {raw!r} is not a number.") from None
    return name, raw


def rules_for(preset: str, overrides: dict[str, Any]) -> Rules:
    """The named preset with ``overrides`` applied; refuses unknown names."""
    if preset not in PRESETS:
        raise RulesError("preset", f"{preset!r} is not a preset ({', '.join(PRESETS)}, {RANDOM}).")
    return PRESETS[preset].changed(**overrides)


# -- many matches --------------------------------------------------------------------------


@dataclass
class Summary:
    players: int
    bots: tuple[str, ...]
    matches: int = 0
    rounds: int = 0
    actions: int = 0
    stalled_rounds: int = 0
    violations: list[str] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # per seat, over every round
    wins: list[float] = field(default_factory=list)  # per seat; a shared win is split
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.points = [0] * self.players
        self.wins = [0.0] * self.players

    def add(self, result: MatchResult) -> None:
        self.matches += 1
        self.rounds += len(result.round_scores)
        self.actions += result.actions
        self.stalled_rounds += result.stalled_rounds
        self.violations.extend(result.violations)
        for scores in result.round_scores:
            for seat, points in enumerate(scores):
                self.points[seat] += points
        for seat in result.winners:
            self.wins[seat] += 1 / len(result.winners)

    def as_dict(self) -> dict[str, Any]:
        rounds = max(self.rounds, 1)
        return {
            "matches": self.matches,
            "rounds": self.rounds,
            "actions": self.actions,
            "stalled_rounds": self.stalled_rounds,
            "invariant_violations": len(self.violations),
            "seats": [
                {
                    "seat": seat,
                    "bot": self.bots[seat],
                    "mean_points_per_round": round(self.points[seat] / rounds, 2),
                    "win_share": round(self.wins[seat] / max(self.matches, 1), 4),
                }
                for seat in range(self.players)
            ],
            "actions_per_second": round(self.actions / self.seconds) if self.seconds else 0,
            "seconds": round(self.seconds, 2),
            "first_violations": self.violations[:10],
        }

    def json(self) -> str:
        return json.dumps(self.as_dict(), indent=2)

    def text(self) -> str:
        data = self.as_dict()
        lines = [
            f"matches {data['matches']}, rounds {data['rounds']}, actions {data['actions']}, "
            f"stalled rounds {data['stalled_rounds']}, "
            f"invariant violations {data['invariant_violations']}",
            "seat  bot        points/round  win share",
        ]
        for seat in data["seats"]:
            lines.append(
                f"{seat['seat']:>4}  {seat['bot']:<9}  {seat['mean_points_per_round']:>12.2f}"
                f"  {seat['win_share']:>9.1%}"
            )
        lines.append(f"{data['actions_per_second']:,} actions per second ({data['seconds']} s)")
        lines.extend(f"violation: {v}" for v in data["first_violations"])
        return "\n".join(lines)


def simulate(
    players: int,
    matches: int,
    bots: Sequence[str],
    seed: int = 0,
    rules: Rules | str = "standard",
    overrides: dict[str, Any] | None = None,
    check: bool = True,
    records: Callable[[list[dict[str, Any]]], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play ``matches`` matches, the i-th from seed ``seed + i`` with its first seat
    rotating; ``rules`` is a Rules object, a preset's name or ``"random"`` (every setting
    drawn per match, from the match's seed). ``overrides`` change a preset's settings, or
    fix them in the random mix. ``records`` receives each match's records."""
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(bots)}.")
    summary = Summary(players, tuple(bots))
    started = time.perf_counter()
    for i in range(matches):
        match_seed = seed + i
        if isinstance(rules, Rules):
            match_rules = rules
        elif rules == RANDOM:
            match_rules = random_rules(random.Random(f"rules/{match_seed}"), players, overrides)
        else:
            match_rules = rules_for(rules, overrides or {})
        result = play_match(
            match_rules, bots, match_seed, i % players, check=check, record=records is not None
        )
        summary.add(result)
        if records is not None and result.records is not None:
            records(result.records)
        if progress:
            progress(i + 1, matches)
    summary.seconds = time.perf_counter() - started
    return summary

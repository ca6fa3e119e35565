"""The expert: a search under hidden information, and the coach's yardstick.

A seat does not know the other hands or the boneyard's order, so the expert deals them: it
gives the tiles it has not seen to the other hands (as many as each holds) and the
boneyard, never a tile carrying a number a seat's draw or pass showed it lacked
(:class:`~games.bots.knowledge.Knowledge`), nor, where a deal can, one a seat's first-turn
line suggests it lacked (the end its line stopped on). On
each such deal it plays every action in contention in turn and the round out with the
strategic bot in every seat (its lines remembered: :class:`LineMemo`). Every action is
played on the same deals, so the differences between actions are less noisy than the
estimates.

The coach's estimate of an action is the seat's mean round points over the deals (lower is
better): that is what a player lost. The bot decides on its points less the others' mean, as
a match is won against the others: a play that costs it a point but the others three is a
good one.

Deterministic for a seed and a number of playouts. Under a time budget the clock is read
before each playout and each action of one, so the bot stops within one of the strategic
bot's decisions of its budget, counted from when it is asked. The coach's estimates play
the first deal out for every action whatever the clock, so that each has one: it is not
waited for.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import NamedTuple

from games.engine import Action, Game, Round, SeatView, apply, view_for
from games.engine.actions import PLAY
from games.engine.state import TurnState
from games.engine.tiles import Tile, other_end

from .knowledge import Knowledge
from .planner import best_line, exhaustive_line
from .strategic import StrategicBot

BUDGET = 0.5  # seconds a decision, on one core
DEAL_TRIES = 50  # random deals tried before the numbers a seat lacked are set aside


class Estimate(NamedTuple):
    """An action's expected round points for the seat, over ``playouts`` deals."""

    action: Action
    expected_points: float
    playouts: int


def evaluate(
    view: SeatView,
    *,
    seed: int | str,
    playouts: int | None = None,
    budget: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Estimate]:
    """The estimate of every legal action of ``view`` (the seat on turn), in their order.

    ``playouts`` caps the deals; ``budget`` (seconds) stops the search in time; with
    neither, the default budget applies."""
    assert view.seat is not None
    return [
        Estimate(action, sum(s[view.seat] for s in scores) / len(scores), len(scores))
        for action, scores in search(view, seed, playouts, budget, clock).items()
        if scores
    ]


Scores = dict[Action, list[tuple[int, ...]]]  # each action's round scores, one a deal


def search(
    view: SeatView,
    seed: int | str,
    playouts: int | None = None,
    budget: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    whole_first_deal: bool = True,
    first: Action | None = None,
    drop: Callable[[Action, Scores], bool] | None = None,
) -> Scores:
    """Each legal action's round scores (every seat's), one a deal, the deals in order;
    unless ``whole_first_deal``, an action may have none when the budget runs out.

    ``first`` is played out first on each deal, so it has the most deals when time runs
    out. Before each deal, ``drop`` may leave out an action for good: the deals left then
    go to the actions still in contention, and the search ends when one is left."""
    assert view.seat is not None and view.legal, "only the seat on turn decides"
    if playouts is None and budget is None:
        budget = BUDGET
    rng = random.Random(f"expert/{seed}")
    policy = StrategicBot(lines=LineMemo())
    order = sorted(view.legal, key=lambda a: a != first)
    points: Scores = {action: [] for action in order}
    deadline = clock() + budget if budget is not None else math.inf
    beliefs = _beliefs(view)  # what the seat knows and guesses: the same for every deal
    deals = 0
    while playouts is None or deals < playouts:
        if drop is not None:
            order = [a for a in order if not drop(a, points)]
            if len(order) == 1 < len(points):
                break  # the one action left needs no more deals
        game = deal(view, rng, beliefs)
        timed = deals > 0 or not whole_first_deal
        for action in order:
            if timed and clock() >= deadline:
                break
            scores = playout(game, action, policy, deadline if timed else math.inf, clock)
            if scores is None:
                break
            points[action].append(scores)
        deals += 1
        if clock() >= deadline:
            break
    return points


class ExpertBot:
    """Plays as the strategic bot would, unless the search shows another action to be
    better on the same deals (the mean of the paired differences of its margin, its points
    less the others' mean, more than ``CONFIDENCE`` standard errors below zero): with a few
    deals, a plain least mean picks by the luck of the deal, and plays worse than the policy
    it plays out with.

    An action already ``DROP`` standard errors worse than the strategic choice gets no more
    deals: they go to the actions that may still beat it."""

    CONFIDENCE = 1.0  # one standard error: one-sided, about 84%
    DROP = 1.0  # standard errors worse than the strategic choice: no more deals
    DROP_AFTER = 3  # deals an action gets before it may be dropped

    def __init__(
        self,
        seed: int | str = 0,
        budget: float | None = BUDGET,
        playouts: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.seed, self.budget, self.playouts, self.clock = seed, budget, playouts, clock
        self.decisions = 0
        self.policy = StrategicBot()

    def __call__(self, view: SeatView) -> Action:
        asked = self.clock()
        default = self.policy(view)
        if len(view.legal) == 1:
            return default
        seat = view.seat
        assert seat is not None
        self.decisions += 1
        budget = None if self.budget is None else self.budget - (self.clock() - asked)
        seed = f"{self.seed}/{self.decisions}"

        def drop(action: Action, scores: Scores) -> bool:
            if action == default or len(scores[action]) < self.DROP_AFTER:
                return False
            mean, error = paired(scores[action], scores[default], seat)
            return mean - self.DROP * error > 0

        scores = search(view, seed, self.playouts, budget, self.clock, False, default, drop)
        best, best_gain = default, 0.0
        for action, found in scores.items():
            if action == default or min(len(found), len(scores[default])) < 2:
                continue
            mean, error = paired(found, scores[default], seat)
            if mean + self.CONFIDENCE * error < 0 and mean < best_gain:
                best, best_gain = action, mean
        return best


def paired(
    found: list[tuple[int, ...]], base: list[tuple[int, ...]], seat: int
) -> tuple[float, float]:
    """The mean of ``seat``'s margin on ``found`` less that on ``base``, over the deals
    both have (at least two), and its standard error."""
    n = min(len(found), len(base))
    differences = [margin(found[i], seat) - margin(base[i], seat) for i in range(n)]
    mean = sum(differences) / n
    return mean, math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1) / n)


class LineMemo:
    """The best lines for a search's playouts, remembered with their tails.

    Most of a playout's time went to the planner: a first-turn line is planned again after
    every tile, and a play's score plans the hand left. The rest of a best line is a best
    line of the hand left from the end it leaves (lines add up: a better rest would make a
    better line), so each line found also answers the plans that follow it. Most hands of a
    round's later turns have few lines, and trying them all is quicker than the planner's
    setup (a playout took 1.6 times as long with the planner alone), so it is tried first.
    Either may answer with another line than the planner's own among equally good ones, so
    this is for the playouts only: the strategic bot itself keeps the planner's."""

    TRIES = 1000  # lines tried one by one before the planner's search is the quicker

    def __init__(self) -> None:
        self.found: dict[tuple[frozenset[Tile], int], tuple[Tile, ...]] = {}

    def __call__(self, hand: frozenset[Tile], end: int) -> tuple[Tile, ...]:
        key = (hand, end)
        line = self.found.get(key)
        if line is None:
            tried = exhaustive_line(hand, end, self.TRIES)
            line = tuple(best_line(hand, end) if tried is None else tried)
            for i, tile in enumerate(line):
                self.found[(hand, end)] = line[i:]
                hand, end = hand - {tile}, other_end(tile, end)
            self.found[(hand, end)] = ()
            line = self.found[key]
        return line


def margin(scores: tuple[int, ...], seat: int) -> float:
    """``seat``'s round points less the mean of the others' (lower is better)."""
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def playout(
    game: Game,
    action: Action,
    policy: Callable,
    deadline: float = math.inf,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[int, ...] | None:
    """Every seat's points at the end of the round after ``action``, the rest played by
    ``policy`` in every seat; None if ``deadline`` comes first. A round of two seats with a
    double-15 set can take the strategic bot most of a minute to play out."""
    game = apply(game, action)
    rnd = game.round
    assert rnd is not None
    while rnd.result is None:
        if clock() >= deadline:
            return None
        game = apply(game, policy(view_for(game, rnd.turn)))
        rnd = game.round
        assert rnd is not None
    return tuple(rnd.result.scores)


def _beliefs(view: SeatView) -> list[Knowledge]:
    """From the most to the least assumed: the first turns' guesses with what the seat
    knows, then what it knows alone (the deals fall back in this order)."""
    return [Knowledge.from_view(view, lines=True), Knowledge.from_view(view)]


def deal(view: SeatView, rng: random.Random, beliefs: list[Knowledge] | None = None) -> Game:
    """A whole game the seat could be in: its view, with the unseen tiles dealt, keeping
    to what the seat knows and, where a deal can, to what the first turns suggest."""
    assert view.seat is not None and view.hand is not None
    beliefs = beliefs or _beliefs(view)
    unseen = sorted(beliefs[-1].unseen)
    others = [s for s in range(view.players) if s != view.seat]
    hands = _hands(unseen, others, view, beliefs, rng)
    dealt = {t for hand in hands.values() for t in hand}
    boneyard = [t for t in unseen if t not in dealt]
    rng.shuffle(boneyard)
    all_hands = tuple(view.hand if s == view.seat else tuple(hands[s]) for s in range(view.players))
    rnd = Round(
        number=view.round_number,
        engine=view.engine,
        first_seat=_first_seat(view),
        hands=all_hands,
        boneyard=tuple(boneyard),
        trains=view.trains,
        turn=view.turn,
        engine_placed=view.engine_placed,
        first_turns=view.first_turns,
        turn_state=_turn_state(view),
        log=view.log,
    )
    return Game(rules=view.rules, players=view.players, scores=view.scores, round=rnd)


def _hands(
    unseen: list[Tile],
    others: list[int],
    view: SeatView,
    beliefs: list[Knowledge],
    rng: random.Random,
) -> dict[int, list[Tile]]:
    """The other hands, each of its size, from the unseen tiles: the seats with the fewest
    tiles they may hold are served first. ``beliefs`` go from the most to the least that
    is assumed: when no deal keeps to one in ``DEAL_TRIES`` tries (a guess was wrong, or a
    draw since brought a number back), the next is tried, and at last nothing is kept
    away from anybody."""
    for belief in [*beliefs, None]:
        for _ in range(DEAL_TRIES if belief is not None else 1):
            pool = unseen[:]
            rng.shuffle(pool)
            hands: dict[int, list[Tile]] = {}

            def allowed(seat: int, tile: Tile, belief: Knowledge | None = belief) -> bool:
                if belief is None:
                    return True
                lacking = belief.lacking[seat]
                return tile[0] not in lacking and tile[1] not in lacking

            order = sorted(others, key=lambda s: sum(allowed(s, t) for t in pool))
            for seat in order:
                size = view.hand_sizes[seat]
                mine = [t for t in pool if allowed(seat, t)][:size]
                if len(mine) < size:
                    break
                hands[seat] = mine
                taken = set(mine)
                pool = [t for t in pool if t not in taken]
            else:
                return hands
    raise AssertionError("the unseen tiles cannot fill the other hands")  # pragma: no cover


def _turn_state(view: SeatView) -> TurnState:
    """Where the seat on turn is within its turn, from the log's last events of the turn."""
    mine = []
    for event in reversed(view.log):
        if event.seat != view.turn:
            break
        mine.append(event)
    plays = [e for e in mine if e.kind == PLAY]
    return TurnState(
        played=bool(plays),
        line_open=view.line_open,
        extra_owed=view.extra_owed,
        drawn=view.drawn,
        double_train=plays[0].train if view.extra_owed and plays else None,
    )


def _first_seat(view: SeatView) -> int:
    """Who played first this round: the round's first seats follow on from the match's."""
    return (view.round_number - 1) % view.players if view.round_number else 0

"""The strategic bot: the strategy of docs/rules.md, played from the seat's view alone.

On a first turn it lays the planner's best line. After that it scores every legal play by
what the hand looks like afterwards and picks the best:

* Own train as a reserve. The tiles that chain from its own train's open end (the
  planner's best line from there) are plays nobody can take away while the train carries
  no marker. Every other tile is an *orphan* that needs a public or marked train, so it
  plays orphans while it can and keeps its chain for later: fewer orphans is better.
* A spare. A hand with nothing that matches its own train will have to draw next turn.
* Its own train first when marked, to take the marker off before others play there.
* Doubles only with a cover in hand. Where a double earns another play, a double with its
  cover is two tiles gone in one turn; elsewhere, a double nobody else can cover is a
  gift: the others draw while it waits for the cover.
* The Mexican train opened only when it pays: an open end nobody else can use, or when
  there is little else to play.
* Ends left for the others: an end that the seats still to play are known to lack (they
  drew or passed on it) or that no unseen tile carries blocks them.
* Endgame: pips, not tiles. Once anybody is down to one or two tiles, it dumps the tile
  that would cost most if the round ended now.
* Holding back where a house rule allows it (``optional_draw``, ``extra_play_optional``):
  keeping the hand as it is gets the same score as a play, so it draws or ends the turn
  only when that beats every play. A draw costs a tile and a marker unless the drawn tile
  plays; an owed double left nobody else can cover blocks the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from games.engine import Action, SeatView
from games.engine.actions import DRAW, END_TURN, PLAY
from games.engine.tiles import Tile, other_end

from .knowledge import Knowledge
from .planner import best_line, line_value


@dataclass(frozen=True)
class Weights:
    """How much each concern counts, in points of a play's score."""

    orphan: float = 10.0
    pips: float = 0.2
    no_spare: float = 6.0
    unmark: float = 12.0
    uncovered_double: float = 25.0
    double_again: float = 10.0
    blocking_double: float = 6.0
    open_public: float = 8.0
    end_for_others: float = 2.0
    endgame_pips: float = 3.0
    endgame_hand: int = 2
    tempo: float = 16.0  # a draw instead of a play gives the others a turn's lead


Lines = Callable[[frozenset[Tile], int], tuple[Tile, ...]]  # (hand, open end) -> best line


class StrategicBot:
    """Scores each legal play (see the module's docstring) and picks the best one.

    ``lines`` finds the best line of a hand from an end (the planner, remembered, by
    default): the expert's playouts pass a cheaper one that reuses what it found before."""

    def __init__(self, weights: Weights | None = None, lines: Lines | None = None) -> None:
        self.weights = weights or Weights()
        self.lines = lines or _line

    def __call__(self, view: SeatView) -> Action:
        plays = [a for a in view.legal if a.kind == PLAY]
        if len(view.legal) == 1 or not plays:
            return view.legal[0]
        assert view.seat is not None and view.hand is not None
        own = [a for a in plays if a.train == view.seat]
        if own and _line_turn(view):
            return _best_line_step(view, own, self.lines)
        turn = _Turn(view, self.weights, self.lines)
        best = max(plays, key=turn.score)
        hold = next((a for a in view.legal if a.kind in (DRAW, END_TURN)), None)
        if hold is not None and not view.line_open and turn.hold_score(hold) > turn.score(best):
            return hold
        return best


class _Turn:
    """One decision: what the seat knows, and the chains its hand makes now."""

    def __init__(self, view: SeatView, weights: Weights, lines: Lines) -> None:
        assert view.seat is not None and view.hand is not None
        self.line = lines
        self.view = view
        self.seat = view.seat
        self.hand = view.hand
        self.w = weights
        self.knowledge = Knowledge.from_view(view)
        self.others = [s for s in range(view.players) if s != view.seat]
        self.own_ends = [b.open for b in view.trains[view.seat].branches]
        # The best line from each own end. Taking away a tile that is not in it leaves it
        # the best, which spares most of the planner calls below.
        hand = frozenset(self.hand)
        self.lines = {end: lines(hand, end) for end in set(self.own_ends)}
        self.endgame = min(view.hand_sizes[s] for s in self.others) <= weights.endgame_hand

    def chain_after(self, hand: tuple[Tile, ...], played: Tile, ends: list[int]) -> int:
        """The longest line ``hand`` can lay on its own train from any of ``ends``."""
        longest = 0
        for end in set(ends):
            line = self.lines.get(end)
            if line is None or played in line:
                line = self.line(frozenset(hand), end)
            longest = max(longest, len(line))
        return longest

    def hold_score(self, action: Action) -> float:
        """What keeping the hand scores on the scale of :meth:`score`: ending the turn
        after a double (``extra_play_optional``), or drawing instead of playing
        (``optional_draw``), where the drawn tile is played if it plays (no change to the
        hand) and kept with a marker on the train otherwise."""
        w, view, knowledge = self.w, self.view, self.knowledge
        chain = max(len(line) for line in self.lines.values())
        score = -w.orphan * (len(self.hand) - chain) - w.pips * _cost(self.hand, view)
        if chain == 0:
            score -= w.no_spare
        if action.kind == END_TURN:
            # The double just laid stays owed: a block when nobody else can cover it.
            for _, number in view.owed_doubles:
                if knowledge.unseen_with(number) == 0:
                    score += w.blocking_double
                else:
                    score -= w.end_for_others * sum(
                        1 for s in self.others if knowledge.may_hold(s, number)
                    )
            return score
        numbers = {view.trains[a.train].branches[a.end].open for a in view.legal if a.kind == PLAY}
        unseen = knowledge.unseen
        misses = [t for t in unseen if t[0] not in numbers and t[1] not in numbers]
        miss = len(misses) / len(unseen) if unseen else 1.0
        kept = w.orphan + w.pips * _cost(misses, view) / max(len(misses), 1)
        if not view.trains[self.seat].marked:
            kept += w.unmark
        return score - miss * kept - w.tempo

    def score(self, action: Action) -> float:
        w, view, seat, knowledge = self.w, self.view, self.seat, self.knowledge
        assert action.tile is not None and action.train is not None and action.end is not None
        tile = action.tile
        hand = _without(self.hand, tile)
        if not hand:
            return float("inf")  # going out ends the round: nothing scores better
        train = view.trains[action.train]
        laid_on = train.branches[action.end].open
        new_end = other_end(tile, laid_on)
        ends = self.own_ends
        if action.train == seat:
            ends = [e for e in ends if e != laid_on] + [new_end]
        chain = self.chain_after(hand, tile, ends)

        score = -w.orphan * (len(hand) - chain) - w.pips * _cost(hand, view)
        if chain == 0:
            score -= w.no_spare
        if action.train == seat and train.marked:
            score += w.unmark
        if tile[0] == tile[1] and view.rules.covers_owed:
            if not any(tile[0] in t for t in hand):
                score -= w.uncovered_double
            elif view.rules.double_plays_again:
                score += w.double_again  # it covers at once: two tiles gone in one turn
            elif knowledge.unseen_with(tile[0]) == 0:
                score += w.blocking_double
        takers = sum(1 for s in self.others if knowledge.may_hold(s, new_end))
        if train.owner is None and train.tile_count == 0 and takers:
            score -= w.open_public
        if train.owner != seat or train.marked:
            score -= w.end_for_others * takers
        if self.endgame:
            score += w.endgame_pips * _cost([tile], view)
        return score


@lru_cache(maxsize=4096)
def _line(hand: frozenset[Tile], end: int) -> tuple[Tile, ...]:
    """The planner's best line, remembered: the same hand comes back for every train a
    tile could go on, and again on the next turn."""
    return tuple(best_line(hand, end))


def _line_turn(view: SeatView) -> bool:
    """Whether a play on the seat's own train now starts or continues a first-turn line."""
    assert view.seat is not None
    return view.line_open or (
        view.rules.first_turn == "line" and view.is_first_turn(view.seat) and view.drawn is None
    )


def _best_line_step(view: SeatView, own: list[Action], lines: Lines) -> Action:
    """The first tile of the best line from any open end of its own train.

    In the standard game that lays the planner's best line, tile by tile; in Chicken Foot
    and Cuban, where a double opens more ends, the bot re-plans after every tile."""
    assert view.hand is not None and view.seat is not None
    branches = view.trains[view.seat].branches
    best: tuple[tuple[int, int], Action] | None = None
    for end in sorted({a.end for a in own if a.end is not None}):
        line = lines(frozenset(view.hand), branches[end].open)
        step = next((a for a in own if a.end == end and line[:1] == (a.tile,)), None)
        if step is not None and (best is None or line_value(line) > best[0]):
            best = line_value(line), step
    return best[1] if best is not None else own[0]


def _cost(tiles: list[Tile] | tuple[Tile, ...], view: SeatView) -> int:
    """What ``tiles`` would score against their holder if the round ended now."""
    rules = view.rules
    total = 0
    for a, b in tiles:
        total += a + b
        if a == b:
            total += rules.double_penalty + (rules.double_blank_value if a == 0 else 0)
    return total


def _without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    i = hand.index(tile)
    return hand[:i] + hand[i + 1 :]

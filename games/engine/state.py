"""The game state: immutable values that :func:`~games.engine.moves.apply` turns into new ones.

Every part is a tuple or a frozen value, so a new state shares everything an action did not
touch with the state it came from; nothing is ever changed in place. That keeps the engine
pure (bots, the simulator and replays can hold on to any state) and copying cheap.

A train is a set of *branches*, each one open end. A plain train has one branch; a Cuban
double forks a second, a Chicken Foot double adds two. Covering a double, branching it and
forking it are all "a tile laid on an open end", so no variant needs a special case.
"""

from __future__ import annotations

from typing import NamedTuple

from .rules import Rules
from .scoring import winners
from .tiles import Tile


class Branch(NamedTuple):
    """One open end of a train and the tiles laid along it.

    ``tiles`` are turned so that each reads ``(touching, open)``: the first number touches
    the tile before, the second is left open. ``owed`` is set while this end belongs to a
    double still owed its cover (or one of its Chicken Foot branches).
    """

    tiles: tuple[Tile, ...]
    open: int
    owed: bool = False
    parent: int | None = None  # the branch this one forks from; None: it starts at the hub
    at: int = 0  # position, in the parent branch, of the double it hangs from


class Train(NamedTuple):
    """A personal train (``owner`` is a seat) or a public Mexican train (``owner`` None)."""

    owner: int | None
    branches: tuple[Branch, ...]
    marked: bool = False
    started_by_owner: bool = False

    @property
    def is_public(self) -> bool:
        return self.owner is None

    @property
    def tile_count(self) -> int:
        return sum(len(b.tiles) for b in self.branches)

    @property
    def owes_cover(self) -> bool:
        return any(b.owed for b in self.branches)


class Event(NamedTuple):
    """One entry of a round's public log: what every seat saw happen.

    A draw never names its tile. ``ends`` lists, for a draw or a pass, the numbers the seat
    could have played on at that moment: public knowledge a good player uses.
    """

    seat: int
    kind: str
    tile: Tile | None = None
    train: int | None = None
    end: int | None = None
    ends: tuple[int, ...] = ()


class Deal(NamedTuple):
    """How a round was dealt: everything a replay needs besides the actions."""

    number: int
    engine: int
    first_seat: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]  # in draw order: the first tile is drawn first


class RoundResult(NamedTuple):
    reason: str  # "out" or "stalled"
    out_seat: int | None
    hands: tuple[tuple[Tile, ...], ...]  # what each seat held at the end
    scores: tuple[int, ...]
    # Every seat that went out, the first first (``out_seat``): more than one only under
    # ``everyone_first_turn``; and those whose last tile was a double (``out_on_double``).
    outs: tuple[int, ...] = ()
    out_on_double: tuple[int, ...] = ()


class TurnState(NamedTuple):
    """Where the current player is within their turn."""

    played: bool = False  # a tile has been laid this turn
    line_open: bool = False  # a first-turn line is under way on the player's own train
    extra_owed: bool = False  # a double was laid and earns (demands) another play
    drawn: Tile | None = None  # drawn this turn and playable: only it may be played
    double_train: int | None = None  # where the double owed the extra play was laid


NEW_TURN = TurnState()


class Round(NamedTuple):
    """One round in progress (or just finished, when ``result`` is set).

    Rounds and games are named tuples rather than dataclasses because ``_replace`` on a
    tuple is several times cheaper, and the engine makes a new one for every action."""

    number: int
    engine: int
    first_seat: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    trains: tuple[Train, ...]  # seats' trains by seat number, then the public trains
    turn: int
    engine_placed: bool = True
    first_turns: int = 0  # bit per seat still to take its first turn
    turn_state: TurnState = NEW_TURN
    log: tuple[Event, ...] = ()
    result: RoundResult | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def is_first_turn(self, seat: int) -> bool:
        return bool(self.first_turns >> seat & 1)

    def owed_doubles(self) -> list[tuple[int, int]]:
        """``(train, number)`` for every double still owed a cover or a branch."""
        found: list[tuple[int, int]] = []
        for index, train in enumerate(self.trains):
            numbers = {b.open for b in train.branches if b.owed}
            found.extend((index, number) for number in sorted(numbers))
        return found


class Game(NamedTuple):
    """A whole match: the rules, the seats, the scores of finished rounds, the current round.

    ``seed`` makes every deal reproducible; ``first_seat`` plays first in round 1 and each
    later round starts one seat further on.
    """

    rules: Rules
    players: int
    seed: int = 0
    first_seat: int = 0
    scores: tuple[tuple[int, ...], ...] = ()
    round: Round | None = None
    outs: tuple[tuple[int, ...], ...] = ()  # who went out of each finished round

    def finished(self, rnd: Round) -> Game:
        """The match with ``rnd``, just finished, as its round, and its result kept."""
        assert rnd.result is not None
        return self._replace(
            round=rnd,
            scores=self.scores + (rnd.result.scores,),
            outs=self.outs + (rnd.result.outs,),
        )

    @property
    def rounds_played(self) -> int:
        return len(self.scores)

    @property
    def is_over(self) -> bool:
        return self.rounds_played >= self.rules.round_count

    def totals(self) -> list[int]:
        return [sum(r[seat] for r in self.scores) for seat in range(self.players)]

    def winners(self) -> list[int]:
        """The seats with the lowest total, a tie broken as the rules' ``tie_break`` says."""
        rounds_out = None
        if self.rules.tie_break == "rounds_out":
            rounds_out = [sum(seat in out for out in self.outs) for seat in range(self.players)]
        return winners(self.totals(), rounds_out)

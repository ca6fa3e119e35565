"""The turn: which actions are legal, and what each one does to the state.

``legal_actions(game, seat)`` lists every legal action; ``apply(game, action)`` returns the
new game or raises :class:`IllegalAction` with the rule that forbids the action. Both read
the same helper, :func:`_targets`, which says where the player on turn may lay a tile now,
so the list of legal actions and the referee cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

from .actions import DRAW, END_TURN, PASS, PLACE_ENGINE, PLAY, Action
from .errors import IllegalAction
from .rules import Rules
from .scoring import HandCount, score
from .state import NEW_TURN, Branch, Event, Game, Round, RoundResult, Train, TurnState
from .tiles import Tile, name

Target = tuple[int, int, int]  # (train, end, the number it needs)
# The open ends a seat may use, by the number each needs: a tile is matched against a
# number once, however many ends want it. Ends are listed in train order, as are the plays.
Ends = dict[int, list[tuple[int, int]]]

# Actions and rounds are built with ``tuple.__new__`` on the few lines run for every action:
# a named tuple's own constructor is a Python function around that same call, and costs
# about twice as much, which on the hot path of self-play is a tenth of the engine's time.
_new = tuple.__new__

# The turn state of a first-turn line that may go on: one value, shared by every line.
_LINE_GOES_ON = TurnState(played=True, line_open=True)


# -- where a tile may go ------------------------------------------------------------------


# The last answer of _targets. A round is immutable, so the same round object always has
# the same targets; a bot asks for its legal actions and then applies one of them, and this
# saves working the targets out a second time (a fifth of the engine's time in self-play).
_last_targets: tuple = (None, None, None, {})


def _targets(rules: Rules, rnd: Round, seat: int) -> Ends:
    """The open ends the player on turn may lay a tile on, by the number each needs
    (shared: callers must not change it)."""
    global _last_targets
    last = _last_targets
    if last[0] is rnd and last[1] is rules and last[2] == seat:
        return last[3]
    found = _find_targets(rules, rnd, seat)
    _last_targets = (rnd, rules, seat, found)
    return found


def _find_targets(rules: Rules, rnd: Round, seat: int) -> Ends:
    """The order of the checks is the order of the rules: a double owed a cover under the
    table scope comes first (nothing else is legal, and anybody may cover it, Clarification
    4), then the extra play a double earned, then a first-turn line, then ordinary access.
    """
    trains = rnd.trains
    ts = rnd.turn_state
    covers_owed = rules.covers_owed
    table = covers_owed and rules.double_scope == "table"
    if covers_owed and not table and ts.extra_owed and ts.double_train is not None:
        train = trains[ts.double_train]
        if train.owes_cover:
            return _by_number(
                (ts.double_train, j, b.open) for j, b in enumerate(train.branches) if b.owed
            )
    line_only = ts.line_open and not ts.extra_owed
    own_only = rules.own_train_first != "off" and _held_to_own_train(rules, rnd, seat)
    unstarted_open = rules.unstarted_trains_open
    # One pass gathers both the ends owed a cover, which under the table scope are the only
    # places to play if there are any, and the ends the other rules open to the seat.
    owed: Ends = {}
    found: Ends = {}
    for i, (owner, branches, marked, started_by_owner) in enumerate(trains):
        usable = (
            i == seat
            if line_only
            # the ordinary access rules, as _may_use words them
            else (
                owner is None
                or owner == seat
                or marked
                or (unstarted_open and not started_by_owner)
            )
        )
        if len(branches) == 1:  # owed or not, a lone end is the one place to play
            branch = branches[0]
            number = branch.open
            if branch.owed:
                if table:
                    owed.setdefault(number, []).append((i, 0))
                if usable:
                    found.setdefault(number, []).append((i, 0))
            elif usable and (not own_only or i == seat):
                found.setdefault(number, []).append((i, 0))
            continue
        if table:
            for j, b in enumerate(branches):
                if b.owed:
                    owed.setdefault(b.open, []).append((i, j))
        if not usable:
            continue
        if own_only and i != seat:  # own_train_first: elsewhere only a cover owed there
            for j, b in enumerate(branches):
                if b.owed:
                    found.setdefault(b.open, []).append((i, j))
            continue
        # Under the own_train scope a double owed its branches closes the rest of the train.
        closed = covers_owed and any(b.owed for b in branches)
        for j, b in enumerate(branches):
            if b.owed or not closed:
                found.setdefault(b.open, []).append((i, j))
    return owed or found


def _by_number(targets: Iterable[Target]) -> Ends:
    """The rare lists of open ends (a double's own ends) in the form _find_targets gives."""
    ends: Ends = {}
    for i, j, number in targets:
        ends.setdefault(number, []).append((i, j))
    return ends


def _held_to_own_train(rules: Rules, rnd: Round, seat: int) -> bool:
    """Whether ``own_train_first`` keeps ``seat``'s tiles on its own train now: in its first
    turn (``first_turn``), or while its train holds no tile at all (``until_started``)."""
    if rules.own_train_first == "first_turn":
        return rnd.is_first_turn(seat)
    if rules.own_train_first == "until_started":
        return not any(b.tiles for b in rnd.trains[seat].branches)
    return False


def _may_use(rules: Rules, train: Train, seat: int) -> bool:
    """Whether ``seat`` may lay a tile on ``train`` by the ordinary access rules."""
    return (
        train.owner is None
        or train.owner == seat
        or train.marked
        or (rules.unstarted_trains_open and not train.started_by_owner)
    )


def _plays(seat: int, by_number: Ends, tiles: Iterable[Tile]) -> list[Action]:
    """Every play of ``tiles`` on the open ends that matches, in hand order."""
    found: list[Action] = []
    add = found.append
    for t in tiles:
        a, b = t
        if a in by_number:
            for i, j in by_number[a]:
                add(_new(Action, (PLAY, seat, t, i, j)))
        if a != b and b in by_number:
            for i, j in by_number[b]:
                add(_new(Action, (PLAY, seat, t, i, j)))
    return found


def _playable(ends: Ends, tiles: Iterable[Tile]) -> bool:
    return any(a in ends or b in ends for a, b in tiles)


def _line_in_progress(rnd: Round) -> bool:
    """A line is under way and the player may simply stop (no extra play is owed)."""
    ts = rnd.turn_state
    return ts.line_open and not ts.extra_owed


# -- legal actions ------------------------------------------------------------------------


# The actions last offered to a seat on turn, and the round and rules they were for. The same
# round object always has the same legal actions, so a second view of it reuses them; and
# ``apply`` trusts an action that is one of these very objects (``is``, not ``==``: an equal
# action built elsewhere, say from JSON, is checked in full): a bot answers with one of the
# actions its view offered, and checking it again was a fifth of what a play cost.
_last_offered: tuple = (None, None, ())


def legal_actions(game: Game, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; empty when it is not their turn."""
    return list(offered_actions(game, seat))


def offered_actions(game: Game, seat: int) -> tuple[Action, ...]:
    """:func:`legal_actions` as a tuple, the one a view holds: shared, never copied."""
    global _last_offered
    rnd = game.round
    if rnd is None or rnd.result is not None or rnd.turn != seat:
        return ()
    rules = game.rules
    last = _last_offered
    if last[0] is rnd and last[1] is rules:
        return last[2]
    hand = rnd.hands[seat]
    if not rnd.engine_placed:
        kind = PLACE_ENGINE if (rnd.engine, rnd.engine) in hand else DRAW
        actions = [Action(kind, seat)]
    else:
        ts = rnd.turn_state
        drawn = ts.drawn
        actions = _plays(seat, _targets(rules, rnd, seat), hand if drawn is None else (drawn,))
        extra_owed = ts.extra_owed
        # A line under way may stop (_line_in_progress); so may an optional extra play.
        if (ts.line_open and not extra_owed) or (extra_owed and rules.extra_play_optional):
            actions.append(_new(Action, (END_TURN, seat, None, None, None)))
        elif not actions:
            kind = DRAW if _may_draw(rules, rnd) else PASS
            actions.append(_new(Action, (kind, seat, None, None, None)))
        elif rules.optional_draw and _may_draw_instead(rules, rnd):
            actions.append(_new(Action, (DRAW, seat, None, None, None)))
    offered = tuple(actions)
    _last_offered = (rnd, rules, offered)
    return offered


def _may_draw(rules: Rules, rnd: Round) -> bool:
    return (
        rules.draw_before_passing
        and bool(rnd.boneyard)
        and rnd.turn_state.drawn is None
        and (rules.draw_on_first_turn or not rnd.is_first_turn(rnd.turn))
    )


def _may_draw_instead(rules: Rules, rnd: Round) -> bool:
    """``optional_draw``: at the start of a turn a player who could play may draw instead
    (never in the middle of a line or for a double's extra play)."""
    return rules.optional_draw and rnd.turn_state == NEW_TURN and _may_draw(rules, rnd)


def _extra_play_skippable(rules: Rules, rnd: Round) -> bool:
    """``extra_play_optional``: after a double the player may end the turn instead."""
    return rules.extra_play_optional and rnd.turn_state.extra_owed


# -- applying an action -------------------------------------------------------------------


def apply(game: Game, action: Action) -> Game:
    """The game after ``action``; raises :class:`IllegalAction` naming the rule that forbids
    it, and then nothing has changed (states are never modified in place)."""
    rules, players, seed, first_seat, scores, rnd, outs = game
    offered_in, offered_rules, offered = _last_offered
    trusted = False  # one of the very actions offered in this state (``is``, not ``==``)
    if offered_in is rnd and offered_rules is rules:
        for one in offered:
            if one is action:
                trusted = True
                break
    if trusted:
        kind, seat, tile, train, end = action
        if kind == PLAY:
            new_round = _lay(rules, rnd, seat, tile, train, end)
        elif kind == DRAW and rnd.engine_placed:
            new_round = _take(rules, rnd, seat, _targets(rules, rnd, seat))
        elif kind == PASS:
            new_round = _passed(rules, rnd, seat, _targets(rules, rnd, seat))
        elif kind == END_TURN:
            new_round = _next_turn(rules, rnd, seat)
        else:  # the engine placed, or drawn for: checked anyway, which costs little
            new_round = _HANDLERS[kind](rules, rnd, action)
    else:
        if rnd is None:
            raise IllegalAction("No round has been dealt yet.")
        if rnd.result is not None:
            raise IllegalAction(f"Round {rnd.number} is over: nothing more can be played in it.")
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if seat != rnd.turn:
            raise IllegalAction(f"It is not seat {seat}'s turn: seat {rnd.turn} is to play.")
        handler = _HANDLERS.get(action.kind)
        if handler is None:
            raise IllegalAction(f"{action.kind!r} is not an action of this game.")
        new_round = handler(rules, rnd, action)
    if new_round.result is None:
        return _new(Game, (rules, players, seed, first_seat, scores, new_round, outs))
    return game.finished(new_round)


def _place_engine(rules: Rules, rnd: Round, action: Action) -> Round:
    engine = (rnd.engine, rnd.engine)
    if rnd.engine_placed:
        raise IllegalAction(f"The engine {name(engine)} is already in the hub.")
    seat = action.seat
    hand = rnd.hands[seat]
    if engine not in hand:
        raise IllegalAction(
            f"You do not hold the engine {name(engine)}: draw from the boneyard to find it "
            "(whoever holds the double starts)."
        )
    hand, boneyard = _without(hand, engine), rnd.boneyard
    log = rnd.log + (Event(seat, PLACE_ENGINE, engine),)
    hunted = any(e.kind == DRAW for e in rnd.log)  # found in the hunt: drawn, not dealt
    if rules.engine_replacement and not hunted and boneyard:
        hand, boneyard = hand + boneyard[:1], boneyard[1:]
        log += (Event(seat, DRAW),)
    placed = rnd._replace(
        hands=_replace_at(rnd.hands, seat, hand),
        boneyard=boneyard,
        engine_placed=True,
        turn=(seat + 1) % rnd.players,
        log=log,
    )
    return settle(rules, placed)


def _play(rules: Rules, rnd: Round, action: Action) -> Round:
    seat, tile, train_index, end = action.seat, action.tile, action.train, action.end
    if not rnd.engine_placed:
        raise IllegalAction(
            f"The engine {name((rnd.engine, rnd.engine))} must be placed in the hub first."
        )
    hand = rnd.hands[seat]
    if not _is_tile(tile) or tile not in hand:
        raise IllegalAction(f"You do not hold {_tile_name(tile)}.")
    ts = rnd.turn_state
    if ts.drawn is not None and tile != ts.drawn:
        raise IllegalAction(
            f"After a draw only the drawn tile may be played: you drew {name(ts.drawn)}."
        )
    if not isinstance(train_index, int) or not 0 <= train_index < len(rnd.trains):
        raise IllegalAction(f"There is no train {train_index!r} on the table.")
    train = rnd.trains[train_index]
    if not isinstance(end, int) or not 0 <= end < len(train.branches):
        raise IllegalAction(f"{_train_name(train)} has no open end {end!r}.")
    number = train.branches[end].open
    if (train_index, end) not in _targets(rules, rnd, seat).get(number, ()):
        raise IllegalAction(_why_closed(rules, rnd, seat, train_index, end))
    if number not in tile:
        raise IllegalAction(
            f"{name(tile)} does not match the open end {number} of {_train_name(train)}."
        )
    return _lay(rules, rnd, seat, tile, train_index, end)


def _lay(rules: Rules, rnd: Round, seat: int, tile: Tile, train_index: int, end: int) -> Round:
    number, engine, first_seat, hands, boneyard, trains, turn, placed, first_turns, ts, log, _ = rnd
    owner, branches, marked, started_by_owner = trains[train_index]
    branch = branches[end]
    touching = branch.open
    open_number = tile[1] if tile[0] == touching else tile[0]
    laid = (touching, open_number)
    double = tile[0] == tile[1]
    covered = double and rules.covers_owed  # a double laid is owed its cover
    grown = _new(Branch, (branch.tiles + (laid,), open_number, covered, branch.parent, branch.at))
    new_branches = branches[:end] + (grown,) + branches[end + 1 :]
    if double:
        at = len(branch.tiles)
        extra = {"chicken_foot": 2, "cuban": 1}.get(rules.variant, 0)
        new_branches += tuple(Branch((), tile[0], rules.covers_owed, end, at) for _ in range(extra))
    own = owner == seat
    new_train = _new(Train, (owner, new_branches, marked and not own, started_by_owner or own))
    # A list changed in place and turned back into a tuple is the cheapest way to replace
    # one item of a short tuple (half the cost of slicing it), and these are per action.
    held = list(hands[seat])
    held.remove(tile)
    hand = tuple(held)
    new_hands = list(hands)
    new_hands[seat] = hand
    new_trains = list(trains)
    new_trains[train_index] = new_train
    event = _new(Event, (seat, PLAY, tile, train_index, end, ()))
    played = _new(
        Round,
        (
            number,
            engine,
            first_seat,
            tuple(new_hands),
            boneyard,
            tuple(new_trains),
            turn,
            placed,
            first_turns,
            ts,
            log + (event,),
            None,
        ),
    )
    if not hand:
        if rules.everyone_first_turn and played.first_turns & ~(1 << seat):
            return _next_turn(rules, played, seat)  # out, and the first turns go on
        return _finish(rules, played, "out")
    line = (
        own
        and rules.first_turn == "line"
        and rnd.is_first_turn(seat)
        and ts.drawn is None
        and (ts.line_open or not ts.played)
    )
    if double and rules.double_plays_again:
        after = TurnState(played=True, line_open=line, extra_owed=True, double_train=train_index)
        return settle(rules, played._replace(turn_state=after))
    if line:
        # ``played`` with its turn state (field 9) replaced, without _replace's keywords.
        continuing = _new(Round, (*played[:9], _LINE_GOES_ON, *played[10:]))
        if _playable(_targets(rules, continuing, seat), hand):
            return settle(rules, continuing)
    return _next_turn(rules, played, seat)


def _draw(rules: Rules, rnd: Round, action: Action) -> Round:
    seat = action.seat
    if not rnd.engine_placed:
        return _hunt(rules, rnd, seat)
    ts = rnd.turn_state
    if ts.drawn is not None:
        raise IllegalAction(
            f"You have already drawn this turn and {name(ts.drawn)} plays: play it."
        )
    if _line_in_progress(rnd):
        raise IllegalAction("Your first-turn line is under way: lay another tile or end your turn.")
    if _extra_play_skippable(rules, rnd):
        raise IllegalAction(
            "The extra play after a double is never drawn for here: play it or end your turn."
        )
    targets = _targets(rules, rnd, seat)
    hand = rnd.hands[seat]
    if _playable(targets, hand) and not _may_draw_instead(rules, rnd):
        raise IllegalAction(
            "You have a legal play, so you may not draw: a player who can play must play."
        )
    if not rules.draw_before_passing:
        raise IllegalAction("Draw before passing is off at this table: pass instead.")
    if not rnd.boneyard:
        raise IllegalAction("The boneyard is empty: pass instead.")
    if not _may_draw(rules, rnd):
        raise IllegalAction("Nobody draws in their first turn at this table: pass instead.")
    return _take(rules, rnd, seat, targets)


def _take(rules: Rules, rnd: Round, seat: int, targets: Ends) -> Round:
    """A legal draw: the drawn tile is played or kept, and kept, it marks the train and
    ends the turn."""
    number, engine, first_seat, hands, boneyard, trains, turn, placed, first_turns, ts, log, _ = rnd
    drawn = boneyard[0]
    # Under optional_draw a draw says nothing of what the drawer lacked: it may be a choice.
    lacked = () if rules.optional_draw and _may_draw_instead(rules, rnd) else _numbers(targets)
    event = _new(Event, (seat, DRAW, None, None, None, lacked))
    plays = drawn[0] in targets or drawn[1] in targets
    new_hands = list(hands)  # as in _lay
    new_hands[seat] += (drawn,)
    if plays:  # only the drawn tile may be played now
        ts = _new(TurnState, (ts.played, ts.line_open, ts.extra_owed, drawn, ts.double_train))
    elif not trains[seat].marked:  # kept: the marker goes on (as _mark puts it)
        trains = _replace_at(trains, seat, trains[seat]._replace(marked=True))
    after = _new(
        Round,
        (
            number,
            engine,
            first_seat,
            tuple(new_hands),
            boneyard[1:],
            trains,
            turn,
            placed,
            first_turns,
            ts,
            log + (event,),
            None,
        ),
    )
    if not plays:
        return _next_turn(rules, after, seat)
    # The tile drawn changes no open end: the seat's targets stay as they were.
    global _last_targets
    _last_targets = (after, rules, seat, targets)
    return settle(rules, after)


def _hunt(rules: Rules, rnd: Round, seat: int) -> Round:
    """Drawing for the engine when nobody was dealt it (Clarification 11). Seats draw in
    turn and whoever draws it places it; with ``engine_hunt: together`` the pass of draws
    round the table is finished first (while the boneyard lasts), so hands stay even."""
    engine = (rnd.engine, rnd.engine)
    if engine in rnd.hands[seat]:
        raise IllegalAction(f"You hold the engine {name(engine)}: place it in the hub.")
    hands = _replace_at(rnd.hands, seat, rnd.hands[seat] + rnd.boneyard[:1])
    boneyard = rnd.boneyard[1:]
    turn = (seat + 1) % rnd.players
    holder = next((s for s, hand in enumerate(hands) if engine in hand), None)
    if holder is not None:
        pass_over = turn == rnd.first_seat or not boneyard
        if rules.engine_hunt == "in_turn" or pass_over:
            turn = holder
    return rnd._replace(
        hands=hands, boneyard=boneyard, turn=turn, log=rnd.log + (Event(seat, DRAW),)
    )


def _pass(rules: Rules, rnd: Round, action: Action) -> Round:
    seat = action.seat
    if not rnd.engine_placed:
        raise IllegalAction("Nobody may pass before the engine is in the hub: draw to find it.")
    if _line_in_progress(rnd):
        raise IllegalAction("Your first-turn line is under way: lay another tile or end your turn.")
    if _extra_play_skippable(rules, rnd):
        raise IllegalAction("End your turn instead: skipping the extra play marks nothing.")
    targets = _targets(rules, rnd, seat)
    tiles = (rnd.turn_state.drawn,) if rnd.turn_state.drawn is not None else rnd.hands[seat]
    if _playable(targets, tiles):
        raise IllegalAction(
            "You have a legal play, so you may not pass: a player who can play must play."
        )
    if _may_draw(rules, rnd):
        raise IllegalAction(
            "Draw a tile first: you pass only when the boneyard is empty (draw before passing)."
        )
    return _passed(rules, rnd, seat, targets)


def _passed(rules: Rules, rnd: Round, seat: int, targets: Ends) -> Round:
    """A legal pass: it marks the train and ends the turn."""
    event = Event(seat, PASS, None, None, None, _numbers(targets))
    return _next_turn(rules, _mark(rnd._replace(log=rnd.log + (event,)), seat), seat)


def _end_turn(rules: Rules, rnd: Round, action: Action) -> Round:
    ts = rnd.turn_state
    if ts.extra_owed and not rules.extra_play_optional:
        raise IllegalAction("You laid a double and must play again (a double earns another play).")
    if ts.extra_owed:  # the extra play skipped: the turn ends, nothing is marked
        return _next_turn(rules, rnd, action.seat)
    if not ts.line_open:
        raise IllegalAction(
            "Only a first-turn line can be ended at will: otherwise play a tile, draw or pass."
        )
    return _next_turn(rules, rnd, action.seat)


_HANDLERS = {
    PLACE_ENGINE: _place_engine,
    PLAY: _play,
    DRAW: _draw,
    PASS: _pass,
    END_TURN: _end_turn,
}


# -- turn and round bookkeeping -----------------------------------------------------------


def _next_turn(rules: Rules, rnd: Round, seat: int) -> Round:
    """End ``seat``'s turn: their first turn is spent whatever happened in it. Under
    ``everyone_first_turn`` a seat that went out takes no further turn, and the round ends
    once every seat has had its first turn, if somebody went out."""
    number, engine, first_seat, hands, boneyard, trains, _, placed, first_turns, _, log, result = (
        rnd
    )
    players = len(hands)
    turn = (seat + 1) % players
    while not hands[turn] and turn != seat and went_out(rnd, turn):
        turn = (turn + 1) % players
    first_turns &= ~(1 << seat)
    after = _new(
        Round,
        (
            number,
            engine,
            first_seat,
            hands,
            boneyard,
            trains,
            turn,
            placed,
            first_turns,
            NEW_TURN,
            log,
            result,
        ),
    )
    if (
        rules.everyone_first_turn
        and not after.first_turns
        and any(went_out(after, s) for s in range(after.players))
    ):
        return _finish(rules, after, "out")
    return settle(rules, after)


def went_out(rnd: Round, seat: int) -> bool:
    """Whether ``seat`` went out: it laid its last tile (a hand emptied by placing the
    engine, with one tile dealt, did not)."""
    if rnd.hands[seat]:
        return False
    return next((e.kind == PLAY for e in reversed(rnd.log) if e.seat == seat), False)


def _mark(rnd: Round, seat: int) -> Round:
    """Passing always puts the marker on the passer's own train (Clarification 9)."""
    train = rnd.trains[seat]
    if train.marked:
        return rnd
    return rnd._replace(trains=_replace_at(rnd.trains, seat, train._replace(marked=True)))


def settle(rules: Rules, rnd: Round) -> Round:
    """End the round as stalled if nobody could lay a tile even with every train open.

    Only checked when no more tiles can come from the boneyard: until then somebody can
    always draw, and any pass round the table would only put markers on (docs/rules.md)."""
    if rules.dead_doubles_free and rules.covers_owed:
        rnd = _free_dead_doubles(rnd)
    if not rnd.engine_placed or (rules.draw_before_passing and rnd.boneyard):
        return rnd
    open_ends = _open_to_anyone(rules, rnd)
    if rules.own_train_first != "until_started":  # every seat may use every one of them
        if open_ends.keys().isdisjoint(chain.from_iterable(chain.from_iterable(rnd.hands))):
            return _finish(rules, rnd, "stalled")
        return rnd
    for seat, hand in enumerate(rnd.hands):
        usable = open_ends.keys()
        if _held_to_own_train(rules, rnd, seat):
            usable = {
                n
                for n, ends in open_ends.items()
                for i, j in ends
                if i == seat or rnd.trains[i].branches[j].owed
            }
        for a, b in hand:
            if a in usable or b in usable:
                return rnd
    return _finish(rules, rnd, "stalled")


def _free_dead_doubles(rnd: Round) -> Round:
    """``dead_doubles_free``: a double (or a Chicken Foot branch) owed a cover that no
    unplayed tile, in a hand or the boneyard, could give is treated as covered."""
    owed = {b.open for train in rnd.trains for b in train.branches if b.owed}
    if not owed:
        return rnd
    unplayed = {n for hand in (*rnd.hands, rnd.boneyard) for t in hand for n in t}
    dead = owed - unplayed
    if not dead:
        return rnd
    trains = tuple(
        train._replace(
            branches=tuple(
                b._replace(owed=False) if b.owed and b.open in dead else b for b in train.branches
            )
        )
        if any(b.owed and b.open in dead for b in train.branches)
        else train
        for train in rnd.trains
    )
    return rnd._replace(trains=trains)


def _open_to_anyone(rules: Rules, rnd: Round) -> Ends:
    """The open ends anybody could use if every personal train were marked: checked after
    every action once the boneyard is empty, so in one pass, as _find_targets does."""
    table = rules.covers_owed and rules.double_scope == "table"
    owed: Ends = {}
    found: Ends = {}
    for i, train in enumerate(rnd.trains):
        branches = train.branches
        if len(branches) == 1:  # a lone end is open, owed a cover or not
            branch = branches[0]
            if table and branch.owed:
                owed.setdefault(branch.open, []).append((i, 0))
            found.setdefault(branch.open, []).append((i, 0))
            continue
        closed = rules.covers_owed and any(b.owed for b in branches)
        for j, b in enumerate(branches):
            if table and b.owed:
                owed.setdefault(b.open, []).append((i, j))
            if b.owed or not closed:
                found.setdefault(b.open, []).append((i, j))
    return owed or found


def _finish(rules: Rules, rnd: Round, reason: str) -> Round:
    """End the round: every seat with no tile left went out (in the order of their last
    tiles), and a seat whose last tile was a double went out on a double."""
    log = rnd.log
    # Where each seat out laid its last tile: its last event (went_out), found from the end.
    last = {
        seat: next(i for i in range(len(log) - 1, -1, -1) if log[i].seat == seat)
        for seat in range(rnd.players)
        if went_out(rnd, seat)
    }
    outs = tuple(sorted(last, key=last.__getitem__))
    on_double = tuple(s for s in outs if log[last[s]].tile[0] == log[last[s]].tile[1])
    scores = tuple(
        score(None if seat in outs else HandCount.of(hand), rules, on_double=seat in on_double)
        for seat, hand in enumerate(rnd.hands)
    )
    result = RoundResult(
        reason=reason,
        out_seat=outs[0] if outs else None,
        hands=rnd.hands,
        scores=scores,
        outs=outs,
        out_on_double=on_double,
    )
    return rnd._replace(result=result, turn_state=NEW_TURN)


# -- messages -----------------------------------------------------------------------------


def _why_closed(rules: Rules, rnd: Round, seat: int, train_index: int, end: int) -> str:
    """The rule that keeps ``seat`` from laying a tile on this open end now."""
    trains = rnd.trains
    train = trains[train_index]
    ts = rnd.turn_state
    if rules.covers_owed and rules.double_scope == "table":
        owed = rnd.owed_doubles()
        if owed:
            where, number = owed[0]
            return (
                f"The double {number}-{number} on {_train_name(trains[where])} must be "
                "covered first: doubles must be covered, and no other play is legal until then."
            )
    if (
        rules.covers_owed
        and ts.extra_owed
        and ts.double_train is not None
        and trains[ts.double_train].owes_cover
    ):
        return "Your extra play must cover the double you just laid."
    if _held_to_own_train(rules, rnd, seat) and train_index != seat:
        when = (
            "in your first turn"
            if rules.own_train_first == "first_turn"
            else "until your own train has a tile"
        )
        return f"Your tiles go on your own train {when} at this table (own train first)."
    if ts.line_open and not ts.extra_owed and train_index != seat:
        return (
            "Your first-turn line goes on your own train only: "
            "lay the next tile there or end your turn."
        )
    if not _may_use(rules, train, seat):
        return (
            f"{_train_name(train)} is closed to you: only its owner may play there "
            "until it carries a marker."
        )
    number = train.branches[end].open
    return (
        f"{_train_name(train)} is closed by the uncovered double {number}-{number} until it is "
        "covered (an uncovered double closes its own train)."
    )


def _train_name(train: Train) -> str:
    return "the Mexican train" if train.owner is None else f"seat {train.owner}'s train"


def _numbers(ends: Ends) -> tuple[int, ...]:
    return tuple(sorted(ends))


def _is_tile(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(type(v) is int for v in value)
        and value[0] <= value[1]
    )


def _tile_name(value: object) -> str:
    return name(value) if _is_tile(value) else repr(value)  # type: ignore[arg-type]


def _without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    i = hand.index(tile)
    return hand[:i] + hand[i + 1 :]


def _replace_at(items: tuple, index: int, value: object) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]

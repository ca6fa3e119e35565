"""Everything that changes or reads a score sheet, as plain functions.

Views and the websocket consumer only parse, authorize and call these. Each change runs in
one transaction with the match row locked, records who changed what (old -> new) in the
match's history, and announces itself to every open sheet after commit. Scores are never
stored: ``compute_sheet`` derives every cell, running total, leader and winner through the
engine's ``score``, ``totals`` and ``winners``.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from common import names as people
from games.engine.rules import LABELS, MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError
from games.engine.scoring import score, totals, winners
from games.engine.tiles import Tile, name

from . import live, signals
from .entries import BLANK, OUT, EntryValue, Refused, check_plausible
from .models import NAME_LENGTH, Change, Entry, Match, Player, Round, Seat

# The house rules a sheet asks about and can change mid-match: those that change a score
# (what ``score``, ``totals`` and ``winners`` read, which rounds count and with which double,
# and whether several players can go out in a round). Rules of play alone (covering doubles,
# drawing) are not asked: the tiles are played by hand, so the sheet could not use them; a
# preset's values for them are kept with the match. The set itself is the box on the table,
# chosen once when the match is created.
HOUSE_RULES = (
    "rounds",
    "round_engines",
    "double_blank_value",
    "blank_value",
    "double_penalty",
    "out_score",
    "out_on_double",
    "tie_break",
    "everyone_first_turn",
)

APPLIED = "applied"
DUPLICATE = "duplicate"
STALE = "stale"


@dataclass(frozen=True)
class EntryOutcome:
    """What became of an edit: applied, a retry of one already applied, or stale (based on
    an older version of the cell, so not applied; ``entry`` holds what the cell is now)."""

    status: str
    entry: Entry
    attempted: EntryValue


# -- creating a match ------------------------------------------------------------------


def create_match(
    names: Sequence[str],
    rules: Rules,
    *,
    by: str = "",
    kind: str = Match.Kind.SHEET,
    known: Iterable[Player] = (),
    bots: Sequence[str] = (),
) -> Match:
    """A match with one seat per name, in order. A name matching one of ``known`` (players
    this device has played with, or a crew's members) reuses that player, so their matches
    stay together. ``bots`` gives each seat's bot level at an online table ("" a person);
    a bot is never one of the known players.

    Names are compared as a reader sees them (``common.names.key``): "Ana", "ANA",
    "A\u200bna" and "Аna" (a Cyrillic А) are one name, so they can be neither two players of
    a match nor two remembered players."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise Refused(f"A match has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}.")
    try:
        names = [people.clean(n, NAME_LENGTH) for n in names]
    except people.BadName as error:
        raise Refused(str(error)) from None
    keys = [people.key(n) for n in names]
    repeated = next((n for n, k in zip(names, keys, strict=True) if keys.count(k) > 1), None)
    if repeated:
        raise Refused(f"{repeated} is named twice; give each player their own name.")
    try:
        rules.hand_size_for(len(names))
    except RulesError as error:
        raise Refused(_reason(error)) from None
    remembered = {people.key(p.name): p for p in known}
    with transaction.atomic():
        match = Match.objects.create(kind=kind, rules=rules.to_dict(), created_by=by)
        for position, player_name in enumerate(names):
            bot = bots[position] if bots else ""
            player = (None if bot else remembered.get(people.key(player_name))) or (
                Player.objects.create(name=player_name)
            )
            Seat.objects.create(match=match, player=player, position=position, bot=bot)
    return match


# -- entries -----------------------------------------------------------------------------


def record_entry(
    match: Match,
    round_number: int,
    seat_position: int,
    value: EntryValue,
    *,
    base_version: int,
    client_id: uuid.UUID | None,
    by: str,
) -> EntryOutcome:
    """Record what ``by`` entered in one cell, if the cell is still at ``base_version``.

    A retried edit (same ``client_id`` at this match) is applied once: the retry reports
    ``duplicate``. Ids are the phones' own, so they are looked up in this match alone.
    An implausible entry is refused with a :class:`Refused` sentence and changes nothing."""
    with transaction.atomic():
        match = _locked(match)
        if client_id is not None:
            earlier = match.changes.filter(client_id=client_id).select_related("entry").first()
            if earlier is not None:
                return EntryOutcome(DUPLICATE, earlier.entry, value)
        rules = match.get_rules()
        seat = _seat(match, seat_position)
        _check_round_number(rules, round_number)
        check_plausible(value, rules, round_number)
        round_ = Round.objects.filter(match=match, number=round_number).first()
        entry = (
            Entry.objects.filter(round=round_, seat=seat).first() if round_ is not None else None
        )
        if (entry.version if entry else 0) != base_version:
            return EntryOutcome(STALE, entry or Entry(seat=seat), value)
        if round_ is None:
            round_ = Round.objects.create(match=match, number=round_number)
        if entry is None:
            entry = Entry(round=round_, seat=seat)
        _check_round(round_, {seat: value}, rules)
        if _apply(match, entry, value, by=by, client_id=client_id):
            _changed(match, (live.SHEET,))
        return EntryOutcome(APPLIED, entry, value)


def record_round(
    match: Match,
    number: int,
    hands: Mapping[int, Sequence[Tile] | None],
    *,
    by: str,
    on_double: Collection[int] = (),
) -> Sheet:
    """Record a whole round from an online table: every seat's tiles left in hand, or
    ``None`` for a player who went out (on a double if their seat is in ``on_double``).
    Known tiles let every house rule apply. Returns the match's sheet with the round in it,
    which the table shows next."""
    with transaction.atomic():
        match = _locked(match)
        rules = match.get_rules()
        seats = {seat.position: seat for seat in match.seats.select_related("player")}
        if set(hands) != set(seats):
            raise Refused("A round from a table needs an entry for every seat.")
        _check_round_number(rules, number)
        values = {}
        for position, tiles in hands.items():
            if tiles is not None and not tiles:
                raise Refused("A player with no tiles left went out: record None for them.")
            out = EntryValue.out(position in on_double)
            value = out if tiles is None else EntryValue.held(tiles)
            check_plausible(value, rules, number)
            values[seats[position]] = value
        round_, _ = Round.objects.get_or_create(match=match, number=number)
        _check_round(round_, values, rules)
        current = {e.seat_id: e for e in round_.entries.all()}
        cells = [(current.get(s.pk) or Entry(round=round_, seat=s), v) for s, v in values.items()]
        _apply_round(match, cells, by=by)
        return _changed(match, (live.SHEET,))


def _apply_round(match: Match, cells: list[tuple[Entry, EntryValue]], *, by: str) -> None:
    """:func:`_apply` for every cell of a round at once: a table records its rounds in one
    block that holds up every table of its process, and writing the new cells and their
    history lines together takes two statements where one at a time took two a cell."""
    changes = [
        c for entry, value in cells if (c := _new_value(match, entry, value, by)) is not None
    ]
    for change in changes:
        if change.entry.pk is not None:  # a cell entered before: rare, so saved on its own
            change.entry.save()
    Entry.objects.bulk_create([change.entry for change in changes if change.entry.pk is None])
    Change.objects.bulk_create(changes)


def _apply(
    match: Match,
    entry: Entry,
    value: EntryValue,
    *,
    by: str,
    client_id: uuid.UUID | None,
    undoes: Change | None = None,
) -> Change | None:
    """Write a new value into a cell with its history line; nothing when it is unchanged."""
    change = _new_value(match, entry, value, by, client_id=client_id, undoes=undoes)
    if change is not None:
        entry.save()
        change.save()
    return change


def _new_value(
    match: Match,
    entry: Entry,
    value: EntryValue,
    by: str,
    *,
    client_id: uuid.UUID | None = None,
    undoes: Change | None = None,
) -> Change | None:
    """Put a new value in a cell and return its history line, neither saved yet; None when
    the value is the one the cell holds."""
    old = entry.value
    if old == value:
        return None
    entry.value = value
    entry.version += 1
    entry.entered_by = by
    return Change(
        match=match,
        kind=Change.Kind.ENTRY,
        entry=entry,
        old=old.to_json(),
        new=value.to_json(),
        by=by,
        client_id=client_id,
        undoes=undoes,
    )


def _check_round(round_: Round, changes: Mapping[Seat, EntryValue], rules: Rules) -> None:
    """Refuse a round that could not happen: two players out (but under
    ``everyone_first_turn``), or one tile in two hands. The seats being changed come last,
    so a message names who was there first."""
    values = {
        e.seat: e.value
        for e in round_.entries.select_related("seat__player")
        if e.seat not in changes
    }
    values.update(changes)
    out = [seat for seat, value in values.items() if value.kind == OUT]
    if len(out) > 1 and not rules.everyone_first_turn:
        raise Refused(
            f"{out[0].player.name} already went out in round {round_.number}: "
            "only one player goes out in a round."
        )
    holder: dict[Tile, Seat] = {}
    for seat, value in values.items():
        for t in value.tiles or ():
            if t in holder:
                raise Refused(f"{holder[t].player.name} already holds the {name(t)} in this round.")
            holder[t] = seat


# -- settings ----------------------------------------------------------------------------


def change_setting(match: Match, setting: str, value: Any, *, was: Any, by: str) -> Change | None:
    """Change one house rule (recomputing the whole match), if it still has the value ``was``
    that the phone showed: two people changing different rules at once both win, but a
    change to a rule somebody else just changed is refused. Returns the history line, or
    None when nothing changed."""
    if setting not in HOUSE_RULES:
        raise Refused("Only the house rules can be changed once a match has started.")
    with transaction.atomic():
        match = _locked(match)
        if setting_shown(match.get_rules(), setting) != was:
            latest = match.changes.filter(kind=Change.Kind.SETTING, setting=setting).last()
            who = f"{latest.by} set “{latest.describe()}”" if latest else "It changed"
            raise Refused(f"{who} while you were choosing, so your change was not applied.")
        change = _set_rule(match, setting, value, by=by)
        if change:
            _changed(match, live.ALL_PARTS)
        return change


def _set_rule(
    match: Match, setting: str, value: Any, *, by: str, undoes: Change | None = None
) -> Change | None:
    """Write one rule with its history line; nothing when it is unchanged."""
    rules = match.get_rules()
    if setting == "rounds" and value == rules.highest_double + 1:
        value = None  # "one round per double", as the engine's presets say it
    try:
        changed = rules.changed(**{setting: value})
    except RulesError as error:
        raise Refused(f"{LABELS[setting]}: {_reason(error)}") from None
    if changed == rules:
        return None
    if setting == "everyone_first_turn" and not value:
        crowded = (
            Entry.objects.filter(round__match=match, kind=OUT)
            .values("round__number")
            .annotate(outs=Count("pk"))
            .filter(outs__gt=1)
            .order_by("round__number")
            .first()
        )
        if crowded:
            raise Refused(
                f"Round {crowded['round__number']} has more than one player out: "
                "change those entries first."
            )
    match.rules = changed.to_dict()
    match.save(update_fields=["rules", "updated_at"])
    return Change.objects.create(
        match=match,
        kind=Change.Kind.SETTING,
        setting=setting,
        old=setting_shown(rules, setting),
        new=setting_shown(changed, setting),
        by=by,
        undoes=undoes,
    )


def setting_shown(rules: Rules, setting: str) -> Any:
    """A setting's value as people read it (and the history keeps it): the rounds to play as
    a number, where the rules say "one per double"."""
    return rules.round_count if setting == "rounds" else getattr(rules, setting)


# -- undo --------------------------------------------------------------------------------


class AskFirst(Refused):
    """An undo of somebody else's change, not yet confirmed: the message is the question
    to ask ("Take back Carl's count of 23 pips in round 1?"), ``change`` what it would undo."""

    def __init__(self, change: Change) -> None:
        super().__init__(take_back_question(change))
        self.change = change


def _in_force() -> QuerySet[Change]:
    """Changes that still stand: neither an undo nor undone, and the latest such change of
    their cell or setting. Undo pops a cell's (or a setting's) own stack, so what such a
    change put there is what the cell holds now."""
    standing = Change.objects.filter(undoes__isnull=True, undone_by__isnull=True)
    later = standing.filter(match=OuterRef("match"), kind=OuterRef("kind"), pk__gt=OuterRef("pk"))
    same_target = Q(entry=OuterRef("entry")) | Q(
        kind=Change.Kind.SETTING, setting=OuterRef("setting")
    )
    return standing.exclude(Exists(later.filter(same_target)))


def last_undoable(match: Match, *, by: str | None = None) -> Change | None:
    """The latest change that still stands: ``by`` this person (their Undo button, one
    tap), or anybody's when ``by`` is None (taking it back asks first if it is not theirs).
    Repeated undos walk back."""
    found = _in_force().filter(match=match)
    if by is not None:
        found = found.filter(by=by)
    return found.select_related("entry__round", "entry__seat__player").order_by("-pk").first()


def undo(match: Match, change_id: int, *, by: str, confirmed: bool = False) -> Change:
    """Reverse one change, as a new change in the history (nothing is deleted).

    ``change_id`` is the change the person saw on their button, so nothing else is ever
    undone; it must still stand (nobody changed its cell or setting since). A change made
    by somebody else is taken back only ``confirmed``: without it, :class:`AskFirst`
    carries the question, naming whose count it is, and nothing changes. Changes this
    person made are theirs, whoever's column they are in: a keeper entering every count
    undoes them in one tap."""
    with transaction.atomic():
        match = _locked(match)
        target = (
            match.changes.select_related("entry__round", "entry__seat__player", "undone_by")
            .filter(pk=change_id)
            .first()
        )
        if target is None or target.undoes_id is not None:
            raise Refused("There is nothing to undo.")
        if not _in_force().filter(pk=target.pk).exists():
            raise Refused(_superseded(match, target))
        if target.by != by and not confirmed:
            raise AskFirst(target)
        if target.kind == Change.Kind.SETTING:
            change = _set_rule(match, target.setting, target.old, by=by, undoes=target)
            _changed(match, live.ALL_PARTS)
        else:
            entry = target.entry
            old = EntryValue.from_json(target.old)
            _check_round(entry.round, {entry.seat: old}, match.get_rules())
            change = _apply(match, entry, old, by=by, client_id=None, undoes=target)
            _changed(match, (live.SHEET,))
        assert change is not None, "a change that still stands always changed something"
        return change


def take_back_question(change: Change) -> str:
    """What taking back somebody else's change asks, naming whose count it is."""
    if change.kind == Change.Kind.SETTING:
        return f"Take back {change.by}'s change “{change.describe()}”?"
    whose = change.entry.seat.player.name
    number = change.entry.round.number
    new = EntryValue.from_json(change.new)
    if new.is_blank:
        was = EntryValue.from_json(change.old)
        what = f"the clearing of {whose}'s count in round {number} (it was {was})"
    elif new.kind == OUT:
        what = f"{whose}'s “{new}” in round {number}"
    else:
        what = f"{whose}'s count of {new} in round {number}"
    entered = "" if change.by == whose else f" {change.by} entered it."
    return f"Take back {what}?{entered}"


def _superseded(match: Match, target: Change) -> str:
    """Why a change no longer stands: undone, or its cell or setting changed since."""
    if hasattr(target, "undone_by"):
        return f"“{target.describe()}” was undone already by {target.undone_by.by}."
    if target.kind == Change.Kind.SETTING:
        latest = match.changes.filter(setting=target.setting).last()
    else:
        latest = target.entry.history.last()
    return (
        f"{latest.by} changed it since (“{latest.describe()}”), so “{target.describe()}” "
        "was not undone."
    )


# -- reading the sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One player's round as the sheet shows it; ``score`` is None while blank and in
    rounds beyond the rounds to play (kept, but not counted)."""

    round: int
    seat: int
    name: str
    value: EntryValue
    version: int
    entered_by: str
    score: int | None
    running: int | None


@dataclass(frozen=True)
class Row:
    number: int
    double: int | None  # None for a kept round beyond the rounds to play
    cells: tuple[Cell, ...]

    @property
    def counted(self) -> bool:
        return self.double is not None

    @property
    def complete(self) -> bool:
        return all(not c.value.is_blank for c in self.cells)


@dataclass(frozen=True)
class Sheet:
    match: Match
    rules: Rules
    seats: tuple[Seat, ...]
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    leaders: tuple[int, ...]  # seats with the lowest total so far; none before any score
    finished: bool

    @property
    def winners(self) -> tuple[int, ...]:
        return self.leaders if self.finished else ()

    @property
    def rounds_scored(self) -> int:
        """Counted rounds with every cell entered."""
        return sum(1 for row in self.rows if row.counted and row.complete)


def _tie_break(rules: Rules, rounds_out: list[int]) -> list[int] | None:
    return rounds_out if rules.tie_break == "rounds_out" else None


def compute_sheet(match: Match) -> Sheet:
    """Every cell, running total, leader and winner, derived from what was entered."""
    return sheet_from(
        match,
        match.seats.select_related("player"),
        Entry.objects.filter(round__match=match).select_related("round", "seat"),
    )


def sheet_from(match: Match, seats: Iterable[Seat], entries: Iterable[Entry]) -> Sheet:
    """The sheet of :func:`compute_sheet`, from seats and entries the caller has loaded
    already (each entry with its round and seat): the admin's match list and the player
    statistics load them for many matches in a few queries, then derive each sheet here."""
    rules = match.get_rules()
    seats = tuple(seats)
    entries = {(e.round.number, e.seat.position): e for e in entries}
    rounds_out = [0] * len(seats)  # counted rounds each seat went out in: a tie-break
    last = max([rules.round_count] + [n for (n, _), e in entries.items() if e.kind != BLANK])
    rows, scored = [], []
    for number in range(1, last + 1):
        counted = number <= rules.round_count
        found = [entries.get((number, seat.position)) for seat in seats]
        values = [e.value if e else EntryValue() for e in found]
        scores = [
            score(v.hand(), rules, on_double=v.on_double) if counted and not v.is_blank else None
            for v in values
        ]
        if counted:
            scored.append([s or 0 for s in scores])
            for seat, value in zip(seats, values, strict=True):
                rounds_out[seat.position] += value.kind == OUT
        running = totals(scored, len(seats))
        cells = tuple(
            Cell(
                round=number,
                seat=seat.position,
                name=seat.player.name,
                value=value,
                version=entry.version if entry else 0,
                entered_by=entry.entered_by if entry else "",
                score=points,
                running=running[seat.position] if points is not None else None,
            )
            for seat, entry, value, points in zip(seats, found, values, scores, strict=True)
        )
        rows.append(Row(number, rules.round_double(number) if counted else None, cells))
    match_totals = tuple(totals(scored, len(seats)))
    anything = any(c.score is not None for row in rows for c in row.cells)
    finished = all(row.complete for row in rows if row.counted)
    return Sheet(
        match=match,
        rules=rules,
        seats=seats,
        rows=tuple(rows),
        totals=match_totals,
        leaders=tuple(winners(match_totals, _tie_break(rules, rounds_out))) if anything else (),
        finished=finished,
    )


def cell_history(match: Match, round_number: int, seat_position: int) -> list[Change]:
    """Every change to one cell, newest first."""
    return list(
        Change.objects.filter(
            match=match,
            entry__round__number=round_number,
            entry__seat__position=seat_position,
        )
        .select_related("entry__round", "entry__seat__player", "undoes")
        .order_by("-pk")
    )


def recent_changes(match: Match, limit: int = 6) -> list[Change]:
    return list(
        match.changes.select_related("entry__round", "entry__seat__player", "undoes").order_by(
            "-pk"
        )[:limit]
    )


# -- helpers -----------------------------------------------------------------------------


def _locked(match: Match) -> Match:
    """Reload the match with its row locked until commit: one writer per match at a time
    (PostgreSQL; SQLite serialises writers anyway). Reloading in place means the caller's
    object sees the change too (its rules and status)."""
    match.refresh_from_db(from_queryset=Match.objects.select_for_update())
    return match


def _seat(match: Match, position: int) -> Seat:
    seat = match.seats.select_related("player").filter(position=position).first()
    if seat is None:
        raise Refused("That seat is not at this match.")
    return seat


def _check_round_number(rules: Rules, number: int) -> None:
    if not 1 <= number <= rules.round_count:
        raise Refused(
            f"This match plays {rules.round_count} rounds, so there is no round {number} to "
            "enter (change Rounds to play to count more)."
        )


def _changed(match: Match, parts: Sequence[str]) -> Sheet:
    """Keep the status filterable (finished once every counted cell is entered) and tell
    every open sheet, once the change is committed. Returns the sheet it worked out."""
    sheet = compute_sheet(match)
    status = Match.Status.FINISHED if sheet.finished else Match.Status.IN_PROGRESS
    status_changed = match.status != status
    if status_changed:
        match.status = status
        match.save(update_fields=["status", "updated_at"])
    live.announce(match.pk, parts)
    transaction.on_commit(
        lambda: signals.match_changed.send(Match, match=match, status_changed=status_changed)
    )
    return sheet


def _reason(error: RulesError) -> str:
    """The engine's sentence without its ``setting:`` prefix."""
    return str(error).removeprefix(f"{error.setting}: ")

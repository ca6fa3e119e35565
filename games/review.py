"""Online matches' review for staff, as plain functions the admin calls: a match's game
record out and in, its story in words, the frames of a round's replay, and player statistics
(bots by level, from the tables' seats). What any match has, a sheet kept at a real table
too (its rules in words, its score sheet), is ``scoring.review``.

Everything about a played game comes from its game record (the table's ``Move`` rows, the
format of docs/records.md) replayed through ``games.engine.records``, never from a table's
live state: what staff review is exactly what a bug report's record would show. Scores are
never stored: they come from the score sheet (``scoring.review.sheet_of``), which derives
them through the engine's one scoring function.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from games.engine import Game, RecordError, Replayer, Rules, replay_steps
from games.engine.records import dumps, loads
from games.engine.tiles import hand_pips, name
from scoring import services as sheets
from scoring.entries import Refused
from scoring.models import Match
from scoring.review import SHEET_PREFETCH, rules_summary, sheet_of

from .models import Move, Table, TableSeat

# The most a record file may weigh: a 13-round match of ten players is well under 1 MB.
MAX_RECORD_BYTES = 5_000_000


# -- the game record -----------------------------------------------------------------------


def table_of(match: Match) -> Table | None:
    """The online table that played ``match``; None for a score sheet kept at a real table."""
    try:
        return match.table
    except Table.DoesNotExist:
        return None


def records_of(match: Match) -> list[dict[str, Any]]:
    """The match's game record, line by line: its table's move log. A score sheet has none."""
    table = table_of(match)
    if table is None:
        return []
    return list(
        Move.objects.filter(table=table).order_by("number").values_list("record", flat=True)
    )


def export_record(match: Match) -> str:
    """The match's game record as a JSON Lines file."""
    return dumps(records_of(match))


def names_in(records: list[dict[str, Any]]) -> list[str]:
    """The players' names a record gives, or ``Seat 1``, ``Seat 2``... when it gives none."""
    first = records[0]
    return first.get("names") or [f"Seat {seat + 1}" for seat in range(first["players"])]


def import_record(text: str, *, by: str) -> Match:
    """Open a game record as a read-only online match: a finished table that nobody can
    play, its move log the record line for line, its score sheet the rounds the record
    ended. A record that does not replay is refused with a :class:`RecordError` naming the
    line of the file and the rule it breaks, and nothing is created."""
    records = loads(text)
    # RecordError counts records; people count the lines of the file, blank ones included.
    lines = [number for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not records:
        raise RecordError(1, "the file holds no record.")
    ended = []  # (line, round) for every round the record ends
    replayer = Replayer()
    for line, record in zip(lines, records, strict=True):
        try:
            replayer.feed(record)
        except RecordError as error:
            raise RecordError(line, error.reason) from None
        if record.get("type") == "round_end":
            ended.append((line, replayer.game.round))
    game = replayer.game
    if game.round is None:
        raise RecordError(lines[-1], "no round was dealt, so there is nothing to review.")
    names = names_in(records)  # the replay checked them: a text a seat
    with transaction.atomic():
        try:
            match = sheets.create_match(names, game.rules, by=by, kind=Match.Kind.ONLINE)
        except Refused as refused:
            raise RecordError(lines[0], str(refused)) from None
        table = Table.objects.create(
            rules=game.rules.to_dict(),
            seat_count=game.players,
            status=Table.Status.FINISHED,
            seed=game.seed,
            first_seat=game.first_seat,
            version=len(records),
            move_count=len(records),
            match=match,
            imported=True,
            deal_secret="",  # dealt elsewhere: its record alone says how
        )
        TableSeat.objects.bulk_create(
            TableSeat(table=table, position=seat, name=player) for seat, player in enumerate(names)
        )
        Move.objects.bulk_create(
            Move(table=table, number=number, version=number, record=record)
            for number, record in enumerate(records, 1)
        )
        for line, rnd in ended:
            outs = rnd.result.outs
            hands = {
                seat: None if seat in outs else held for seat, held in enumerate(rnd.result.hands)
            }
            try:
                sheets.record_round(
                    match, rnd.number, hands, by="the record", on_double=rnd.result.out_on_double
                )
            except Refused as refused:
                raise RecordError(line, str(refused)) from None
    return match


# -- the story in words --------------------------------------------------------------------


@dataclass(frozen=True)
class Teller:
    """Tells a record's lines in words, with the players' names: "Ana played 12-5 on the
    Mexican train"."""

    names: list[str]
    public_trains: int

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> Teller:
        rules = Rules.from_dict(records[0]["rules"])
        return cls(names_in(records), rules.public_trains)

    def title(self, train: int) -> str:
        """A train's name: ``Ana's train``, ``Mexican train`` (numbered when there are more)."""
        players = len(self.names)
        if train < players:
            return f"{self.names[train]}'s train"
        if self.public_trains > 1:
            return f"Mexican train {train - players + 1}"
        return "Mexican train"

    def where(self, train: int, seat: int) -> str:
        """Where ``seat`` laid a tile, as the sentence goes on: ``on the Mexican train``."""
        if train == seat:
            return "their own train"
        return self.title(train) if train < len(self.names) else f"the {self.title(train)}"

    def scores(self, points: list[int]) -> str:
        return ", ".join(f"{n} {p}" for n, p in zip(self.names, points, strict=True))

    def tell(self, record: dict[str, Any]) -> str:
        kind = record["type"]
        if kind == "match":
            rules = Rules.from_dict(record["rules"])
            return (
                f"A match of {record['players']} players, {rules_summary(rules)}; "
                f"{self.names[record.get('first_seat', 0)]} plays first."
            )
        if kind == "deal":
            engine = record["engine"]
            return (
                f"Round {record['round']} is dealt: the engine is {engine}-{engine}, "
                f"{self.names[record['first_seat']]} plays first, "
                f"{len(record['boneyard'])} tiles in the boneyard."
            )
        if kind == "round_end":
            outs = record.get("outs") or [
                s for s in [record["out_seat"]] if s is not None
            ]  # several only under everyone_first_turn
            gone = " and ".join(self.names[s] for s in outs)
            how = (
                f"{gone} went out"
                if record["reason"] == "out"
                else f"stalled, nobody could play{f' ({gone} went out)' if gone else ''}"
            )
            return f"Round {record['round']} is over: {how}. {self.scores(record['scores'])}."
        if kind == "match_end":
            won = " and ".join(self.names[seat] for seat in record["winners"])
            return f"The match is over: {won} won. Totals: {self.scores(record['totals'])}."
        return self.action(record)

    def action(self, record: dict[str, Any]) -> str:
        who, kind = self.names[record["seat"]], record["kind"]
        if kind == "play":
            tile = name(tuple(record["tile"]))
            where = self.where(record["train"], record["seat"])
            branch = f" (open end {record['end'] + 1})" if record["end"] else ""
            return f"{who} played {tile} on {where}{branch}."
        if kind == "draw":
            drew = name(tuple(record["tile"])) if "tile" in record else "a tile"
            return f"{who} drew {drew}."
        if kind == "pass":
            return f"{who} passed."
        if kind == "place_engine":
            return f"{who} placed the engine in the hub."
        return f"{who} ended their turn."


@dataclass
class Chapter:
    """A round of the move log (``number`` None for the match line before any deal)."""

    number: int | None
    lines: list[str] = field(default_factory=list)


def move_log(records: list[dict[str, Any]]) -> list[Chapter]:
    """The whole record in words, a chapter a round (the match's end closes the last)."""
    teller = Teller.of(records)
    chapters = [Chapter(None)]
    for record in records:
        if record["type"] == "deal":
            chapters.append(Chapter(record["round"]))
        chapters[-1].lines.append(teller.tell(record))
    return chapters


# -- the replay of a round -----------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One step of a round: the deal (step 0) or an action, and the state it led to."""

    step: int
    record: dict[str, Any]
    game: Game


def rounds_in(records: list[dict[str, Any]]) -> list[int]:
    """The rounds a record deals, in order."""
    return [r["round"] for r in records if r["type"] == "deal"]


def round_frames(records: list[dict[str, Any]], number: int) -> list[Frame]:
    """Every state of round ``number``, replayed from the record: after its deal, then
    after each of its actions. Empty when the record never deals that round."""
    frames: list[Frame] = []
    for record, game in replay_steps(records):
        if game.round.number > number:
            break
        if game.round.number == number:
            frames.append(Frame(len(frames), record, game))
    return frames


def picture(game: Game, names: list[str], public_trains: int) -> dict[str, Any]:
    """What the replay draws of a state: the engine, every train, every hand (all of them:
    staff see what no player saw), the boneyard in draw order, and the result once over."""
    rnd = game.round
    teller = Teller(names, public_trains)
    players = len(names)
    trains = [
        {
            "title": teller.title(index),
            "marked": t.marked,
            "owes_cover": t.owes_cover,
            "branches": [
                {"tiles": b.tiles, "open": b.open, "owed": b.owed, "fork": b.parent is not None}
                for b in t.branches
            ],
        }
        for index, t in enumerate(rnd.trains)
    ]
    playing = rnd.result is None
    hands = [
        {
            "seat": seat,
            "name": names[seat],
            "tiles": rnd.hands[seat],
            "pips": hand_pips(rnd.hands[seat]),
            "turn": playing and seat == rnd.turn,
            "drawn": rnd.turn_state.drawn if playing and seat == rnd.turn else None,
        }
        for seat in range(players)
    ]
    result = None
    if rnd.result is not None:
        gone = " and ".join(names[s] for s in rnd.result.outs)
        result = {
            "how": f"{gone} went out"
            if rnd.result.reason == "out"
            else "Stalled: nobody could play",
            "scores": list(zip(names, rnd.result.scores, strict=True)),
        }
    return {
        "engine": rnd.engine,
        "engine_placed": rnd.engine_placed,
        "trains": trains,
        "hands": hands,
        "boneyard": rnd.boneyard,
        "result": result,
    }


# -- statistics ----------------------------------------------------------------------------


@dataclass
class Tally:
    """One player's (or one bot level's) finished matches: a tie shares the win, so two
    winners get half a win each. Points are per round, lower is better."""

    label: str
    matches: int = 0
    wins: float = 0.0
    points: list[int] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None

    @property
    def best(self) -> int | None:
        return min(self.points, default=None)

    @property
    def worst(self) -> int | None:
        return max(self.points, default=None)


def reviewed_matches() -> QuerySet[Match]:
    """The matches statistics count: finished ones played here (an imported record is a
    copy of a match, which would count twice), with what :func:`statistics` reads."""
    return (
        Match.objects.filter(status=Match.Status.FINISHED)
        .exclude(table__imported=True)
        .select_related("table")
        .prefetch_related(*SHEET_PREFETCH, "table__seats")
    )


def statistics(matches: Iterable[Match]) -> tuple[list[Tally], list[Tally]]:
    """Tallies of the people (by Player) and of the bots (by level, from the online table's
    seats), each from the match's score sheet. A person's seat played for a while by a
    stand-in bot still counts as the person's."""
    people, bots = tallies(matches)
    ranked = sorted(people.values(), key=lambda t: (-t.matches, t.label.casefold()))
    return ranked, sorted(bots.values(), key=lambda t: t.label)


def tallies(matches: Iterable[Match]) -> tuple[dict[int, Tally], dict[str, Tally]]:
    """The tallies of :func:`statistics` by whom they count: people by their Player's id
    (two people may share a name), bots by level. A person's page reads their own."""
    people: dict[int, Tally] = {}
    bots: dict[str, Tally] = {}
    for match in matches:
        sheet = sheet_of(match)
        table = table_of(match)
        levels = {s.position: s.bot_level for s in table.seats.all() if s.is_bot} if table else {}
        for seat in sheet.seats:
            level = levels.get(seat.position)
            if level:
                tally = bots.setdefault(level, Tally(f"{level.title()} bot"))
            else:
                tally = people.setdefault(seat.player_id, Tally(seat.player.name))
            tally.matches += 1
            if seat.position in sheet.winners:
                tally.wins += 1 / len(sheet.winners)
            tally.points += [
                cell.score
                for row in sheet.rows
                for cell in row.cells
                if cell.seat == seat.position and cell.score is not None
            ]
    return people, bots

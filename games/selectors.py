"""The reads of an online table that take no lock and change nothing.

What a table waits for (a bot's turn, the next round's countdown), what the bot on turn
sees, a seat's hint, a seat for the host to show its private link, and a person's tables
("Your tables": each one's turn, round and totals). The services read
through these too; nothing here writes, so a selector may run in any thread, and what it
read may be stale by the time it is used: a service that acts on it checks the table's
version under the lock.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from crews.models import Member
from games.bots import best_line, decide
from games.engine import Game, SeatView, view_for
from games.engine.actions import Action
from games.engine.tiles import Tile

from .models import Pace, Table, TableSeat, seated
from .refusals import NO_TABLE, Refused, require_host, seat_of


@dataclass(frozen=True)
class Outcome:
    """What a committed change left due: a bot's turn (due at once), a person's turn with a
    clock, or the next round's deal; ``due_in`` is the seconds until the first of them."""

    version: int
    bot_next: bool = False
    due_in: float | None = None  # None: nothing is due until somebody acts


def outcome_of(table: Table, *, game: Game | None, seats: Iterable[TableSeat]) -> Outcome:
    """What the table at this version leaves due."""
    bot_next = bot_on_turn(game, seats=seats)
    times = [t for t in (table.turn_due_at, table.next_round_at) if t is not None]
    if bot_next and table.turn_due_at is None:  # armed before the clock was: due now
        times.append(timezone.now())
    due = min(times, default=None)
    return Outcome(
        version=table.version,
        bot_next=bot_next,
        due_in=None if due is None else (due - timezone.now()).total_seconds(),
    )


def bot_on_turn(game: Game | None, *, seats: Iterable[TableSeat]) -> bool:
    if game is None or game.round is None or game.round.result is not None:
        return False
    return any(s.position == game.round.turn and s.played_by_bot for s in seats)


def due(code: str) -> Outcome | None:
    """What the table waits for now: for an announcement that does not say (a shell's,
    the admin's plain ``table.changed``)."""
    found = seated(code)
    if found is None or found[0].status != Table.Status.PLAYING:
        return None
    table, seats = found
    return outcome_of(table, game=table.game(), seats=seats)


@dataclass(frozen=True)
class BotTurn:
    """What the bot on turn decides from, read without the table's lock: the expert
    searches for up to half a second, and no table waits for that. Its move is made only if
    the table is still at ``version``."""

    version: int
    level: str
    seed: str
    view: SeatView
    budget: float  # the expert's seconds a decision

    def decide(self) -> Action:
        return decide(self.level, self.view, self.seed, self.budget)


def bot_turn(code: str) -> BotTurn | None:
    """The bot on turn's view, if it is a bot's turn and a person is there to watch; None
    when there is nothing for a bot to do."""
    found = seated(code)
    if found is None:
        return None
    table, seats = found
    game = table.game()
    if table.status != Table.Status.PLAYING or not bot_on_turn(game, seats=seats):
        return None
    if not any(s.connected for s in seats if not s.is_bot):
        return None
    seat = next(s for s in seats if s.position == game.round.turn)
    return BotTurn(
        version=table.version,
        level=seat.played_by_bot,
        seed=f"{table.seed}/{table.version}",
        view=view_for(game, seat.position),
        budget=settings.EXPERT_BUDGET,
    )


def hint(code: str, *, token: str) -> list[Tile]:
    """The planner's best line for a seat from the open end of its own train: the hint a
    player asks for on the first turn. Only the seat's own hand goes into it."""
    found = seated(code)
    if found is None:
        raise Refused(NO_TABLE)
    table, seats = found
    seat = seat_of(seats, token)
    game = table.game()
    if game is None or game.round is None or game.round.result is not None:
        raise Refused("There is no round being played, so there is nothing to hint.")
    start = game.round.trains[seat.position].branches[0].open
    return best_line(game.round.hands[seat.position], start)


def seat_for_host(code: str, *, host_token: str, position: int) -> TableSeat:
    """A person's seat, for the host to show its private link (a QR code) to its player on
    a new phone: only the host may see another seat's token."""
    found = seated(code)
    if found is None:
        raise Refused(NO_TABLE)
    table, seats = found
    require_host(table, host_token)
    seat = next((s for s in seats if s.position == position and not s.is_bot), None)
    if seat is None:
        raise Refused(f"Seat {position + 1} is not a person's: it has no private link.")
    return seat


def turn_ran_long(table: Table, *, seat: TableSeat) -> bool:
    """The seat is on turn in a round being played, and has been since TURN_RUNS_LONG."""
    runs_long_at = table.turn_runs_long_at
    if runs_long_at is None or table.status != Table.Status.PLAYING:
        return False
    game = table.game()
    rnd = game.round if game else None
    if rnd is None or rnd.result is not None or rnd.turn != seat.position:
        return False
    return timezone.now() >= runs_long_at


def due_tables(*, now: datetime, limit: int = 100) -> list[str]:
    """The codes of the tables with something due by ``now`` that may be played now: a
    live table with nobody at it waits for a person (``services.clock.claim``)."""
    someone_here = TableSeat.objects.filter(kind=TableSeat.Kind.HUMAN).exclude(channel_name="")
    due = Table.objects.filter(status=Table.Status.PLAYING).filter(
        Q(turn_due_at__lte=now) | Q(next_round_at__lte=now)
    )
    playable = due.filter(Q(pace=Pace.OWN) | Q(pk__in=someone_here.values("table_id")))
    return list(playable.order_by("turn_due_at").values_list("code", flat=True)[:limit])


# -- "Your tables" --------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    """One table of "Your tables", as its row shows it. ``seat`` is the seat held: this
    browser's, or (``elsewhere``) the one a crew knows this device's person by, taken from
    another device; the table's page asks for that one back (the rejoin request), so the
    list only leads there."""

    table: Table
    seat: TableSeat
    elsewhere: bool
    names: list[str]  # by seat
    round_number: int | None  # the round being played or just over; None in the lobby
    rounds: int  # the rounds the match plays
    turn: str  # whose turn, or what the table waits for, in words
    due_at: datetime | None  # when the turn on now runs out, if it has a clock
    totals: list[tuple[str, int]]  # (name, total) by seat, once a round is scored
    winners: list[str]  # at the match's end

    @property
    def finished(self) -> bool:
        return self.table.status == Table.Status.FINISHED


def your_tables(tokens: Mapping[str, str], *, device: str = "") -> list[TableRow]:
    """The tables where one of ``tokens`` (code -> seat token, a browser's session) holds a
    seat, and those where a person a crew knows ``device`` as sits in a person's seat:
    newest first. A table without the token's seat any more (the host freed it) is left
    out."""
    held = Table.objects.filter(code__in=list(tokens)).prefetch_related("seats")
    rows = [row for table in held if (row := _row(table, token=tokens[table.code]))]
    players = _people_of(device)
    if players:
        theirs = (
            Table.objects.filter(match__seats__player__in=players, match__seats__bot="")
            .exclude(code__in=list(tokens))
            .prefetch_related("seats", "match__seats")
            .distinct()
        )
        rows += [row for table in theirs if (row := _row(table, players=players))]
    return sorted(rows, key=lambda row: (row.table.created_at, row.table.pk), reverse=True)


def your_table(code: str, *, token: str | None, device: str = "") -> TableRow | None:
    """One table's row, as ``your_tables`` lists it for a browser holding ``token`` there
    (None: no longer one of its tables)."""
    table = Table.objects.filter(code=code).prefetch_related("seats", "match__seats").first()
    if table is None:
        return None
    return _row(table, token=token) if token else _row(table, players=_people_of(device))


def _people_of(device: str) -> set[int]:
    """The players a crew knows ``device`` as: the device's member in each of its crews."""
    if not device:
        return set()
    found = Member.objects.filter(device=device, left_at=None).values_list("player_id", flat=True)
    return set(found)


def _row(
    table: Table, *, token: str | None = None, players: Collection[int] = ()
) -> TableRow | None:
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    if token:
        seat = next((s for s in seats if s.token == token), None)
    elif table.match is None:
        return None
    else:
        at = {s.position for s in table.match.seats.all() if s.player_id in players and not s.bot}
        seat = next((s for s in seats if s.position in at and not s.is_bot), None)
    if seat is None:
        return None
    names = [s.name for s in seats]
    game = table.game()
    rnd = game.round if game is not None else None
    scored = game is not None and game.rounds_played > 0
    return TableRow(
        table=table,
        seat=seat,
        elsewhere=not token,
        names=names,
        round_number=rnd.number if rnd is not None else None,
        rounds=table.get_rules().round_count,
        turn=_turn_in_words(table, seats=seats, seat=seat, game=game),
        due_at=_person_due(table, game=game, seats=seats),
        totals=list(zip(names, game.totals(), strict=True)) if scored else [],
        winners=[names[s] for s in game.winners()] if game is not None and game.is_over else [],
    )


def _person_due(table: Table, *, game: Game | None, seats: list[TableSeat]) -> datetime | None:
    """When a person's time for the turn on now (or for Ready) runs out; a bot's turn is
    due at once, which is no time left to show."""
    if table.status != Table.Status.PLAYING or bot_on_turn(game, seats=seats):
        return None
    return table.turn_due_at


def _turn_in_words(
    table: Table, *, seats: list[TableSeat], seat: TableSeat, game: Game | None
) -> str:
    """What the table waits for, said to the person at ``seat``."""
    if table.status == Table.Status.LOBBY:
        return "Waiting for players to take their seats and the host to start."
    if game is None or game.round is None or game.is_over:
        return "The match is over."
    rnd = game.round
    if rnd.result is not None:
        if seat.ready_for <= game.rounds_played:
            return f"Round {rnd.number} is over: press Ready for the next."
        return f"Round {rnd.number} is over: waiting for the others to be ready."
    if rnd.turn == seat.position:
        return "Your turn."
    return f"{next(s.name for s in seats if s.position == rnd.turn)} to play."

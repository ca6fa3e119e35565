"""The lobby: a table opened, people and bots sitting down or freed, and the match dealt."""

from __future__ import annotations

from django.db import transaction

from common import names as people
from crews import services as crew_services
from crews.models import Crew
from games.bots import LEVELS
from games.engine import Rules, RulesError
from games.engine.deal_seed import is_value
from games.engine.records import deal_record, match_record
from games.engine.setup import new_game
from games.models import TURN_LIMITS, Pace, Table, TableSeat
from games.refusals import Refused, clean_name, free_position, require_host, require_lobby
from games.selectors import Outcome, outcome_of
from scoring import services as sheet
from scoring.models import Match

from .commit import announce, commit, locked
from .rematch import host_awaited


def create_table(
    *,
    rules: Rules,
    seat_count: int,
    host_name: str,
    crew: Crew | None = None,
    fill_level: str = "",
    pace: str = Pace.LIVE,
    turn_limit: int | None = None,
    contribution: str = "",
) -> tuple[Table, TableSeat]:
    """A table in its lobby, with the host in the first seat; for ``crew``, its match
    counts for the crew and a member's name at it seats that member. With ``fill_level``,
    bots of that level take the seats still free at the start: not now, so that friends
    following the link still find them free."""
    try:
        rules.hand_size_for(seat_count)
    except RulesError as error:
        raise Refused(str(error)) from None
    if turn_limit not in TURN_LIMITS.get(pace, ()):
        raise Refused("Choose the pace and the turn clock from those offered.")
    if fill_level and fill_level not in LEVELS:
        raise Refused(f"There is no {fill_level!r} bot: choose {', '.join(LEVELS)}.")
    name = clean_name(host_name)
    shares = _contribution(contribution)
    with transaction.atomic():
        table = Table.objects.create(
            rules=rules.to_dict(),
            seat_count=seat_count,
            crew=crew,
            fill_level=fill_level,
            pace=pace,
            turn_limit=turn_limit,
        )
        seat = TableSeat.objects.create(table=table, position=0, name=name, **shares)
    return table, seat


def join(code: str, *, name: str, position: int | None = None, contribution: str = "") -> TableSeat:
    """Seat a person at a table in its lobby: at ``position`` if free, else the next one;
    ``contribution`` is their browser's share in every deal (none: the server makes one)."""
    name = clean_name(name)
    shares = _contribution(contribution)
    with transaction.atomic():
        table, seats = locked(code)
        require_lobby(table)
        if any(people.key(s.name) == people.key(name) for s in seats):
            raise Refused(f"Somebody at this table is already called {name}: pick another name.")
        if len(seats) + 1 >= table.seat_count and host_awaited(table, seats):
            raise Refused(
                "The last free seat is kept for the host, who starts the next match: watch "
                "for now, and ask the host for a seat once they are back."
            )
        seat = TableSeat.objects.create(
            table=table, position=free_position(table, seats, position), name=name, **shares
        )
        announce(table)
    return seat


def _contribution(contribution: str) -> dict[str, object]:
    """The seat's fields for a contribution its browser sent (none: the model's default, a
    server-made one); one of another shape is refused, as nothing the page sends has it."""
    if not contribution:
        return {}
    if not is_value(contribution):
        raise Refused(
            "The deal's contribution from this page is not 64 hex digits: reload the page "
            "and try again."
        )
    return {"contribution": contribution, "contribution_by_server": False}


def add_bot(code: str, *, host_token: str, level: str, position: int | None = None) -> TableSeat:
    if level not in LEVELS:
        raise Refused(f"There is no {level!r} bot: choose {', '.join(LEVELS)}.")
    with transaction.atomic():
        table, seats = locked(code)
        require_host(table, host_token)
        require_lobby(table)
        seat = _seat_bot(table, seats, level, free_position(table, seats, position))
        announce(table)
    return seat


def _seat_bot(table: Table, seats: list[TableSeat], level: str, position: int) -> TableSeat:
    """A bot of ``level`` in the free seat ``position``, named apart from the others."""
    taken = {s.name for s in seats}
    name = next(n for n in (f"{level.title()} bot {i}" for i in range(1, 12)) if n not in taken)
    return TableSeat.objects.create(
        table=table, position=position, name=name, kind=TableSeat.Kind.BOT, bot_level=level
    )


def remove_seat(code: str, *, host_token: str, position: int) -> None:
    """The host frees a seat before the start (a bot, or a person who joined by mistake)."""
    with transaction.atomic():
        table, _ = locked(code)
        require_host(table, host_token)
        require_lobby(table)
        if position == 0:
            raise Refused("The host keeps the first seat.")
        deleted, _ = table.seats.filter(position=position).delete()
        if not deleted:
            raise Refused(f"Seat {position + 1} is already free.")
        announce(table)


def start(code: str, *, host_token: str) -> Outcome:
    """Deal round 1: bots take the free seats if the host chose so when opening the table,
    else the seats close up in order; the match's score sheet is opened."""
    with transaction.atomic():
        table, seats = locked(code)
        require_host(table, host_token)
        require_lobby(table)
        if table.fill_level:  # the host chose bots for the seats nobody took
            for position in sorted(set(range(table.seat_count)) - {s.position for s in seats}):
                seats.append(_seat_bot(table, seats, table.fill_level, position))
            seats.sort(key=lambda seat: seat.position)
        if len(seats) < 2:
            raise Refused("A match needs at least two players: invite a friend or add a bot.")
        rules = table.get_rules()
        for position, seat in enumerate(seats):
            if seat.position != position:
                seat.position = position
                seat.save(update_fields=["position"])
        table.match = sheet.create_match(
            [s.name for s in seats],
            rules,
            by=seats[0].name,
            kind=Match.Kind.ONLINE,
            known=crew_services.people_of(table.crew) if table.crew else (),
            bots=[s.bot_level if s.is_bot else "" for s in seats],
        )
        if table.crew:
            crew_services.count_for(table.crew, table.match, by=seats[0].name)
        table.status = Table.Status.PLAYING
        table.first_seat = 0
        table.save(update_fields=["match", "status", "first_seat", "updated_at"])
        order = table.deal_order(seats)
        game = new_game(
            rules, len(seats), seed=table.seed, first_seat=table.first_seat, order=order
        )
        assert game.round is not None
        match = match_record(game, [s.name for s in seats])
        if order is not None:
            match |= order.match_fields([s.contribution_by_server for s in seats])
        lines = [match, deal_record(game.round)]
        commit(table, seats, lines, game)
    return outcome_of(table, game=game, seats=seats)

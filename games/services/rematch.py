"""Playing a finished match again: a new table linked to the finished one by
``Table.rematch_of``, so each match keeps its own move log and score sheet."""

from __future__ import annotations

from hmac import compare_digest

from django.db import transaction

from common import names as people
from games.models import Table, TableSeat
from games.refusals import Refused, free_position

from .commit import announce, locked, tell_group


def play_again(code: str, *, token: str | None) -> tuple[Table, TableSeat]:
    """A player of the finished match at ``code`` takes their seat for the next one.

    The first to ask opens the rematch: a new table in its lobby (a new deal, the same rules
    and seats, the same host), linked to the finished one, whose move log and score sheet
    stay as they were; the bots sit down again at once, the people as each one asks. The
    finished table's row is locked first, so two players asking at once open one rematch
    (and ``rematch_of`` is unique besides); its sockets are told where the next match is.
    Returns the rematch and the player's seat at it, for their session."""
    with transaction.atomic():
        table, seats = locked(code)
        seat = next((s for s in seats if token and compare_digest(s.token, token)), None)
        if seat is None:
            raise Refused("Only the players of this match can play again: you were watching.")
        if table.imported:
            raise Refused("This match was opened from a game record to review, not to play.")
        if table.status != Table.Status.FINISHED:
            raise Refused("The match at this table is not over: play again once it has ended.")
        rematch = Table.objects.select_for_update().filter(rematch_of=table).first()
        if rematch is None:
            rematch = _open_rematch(table, seats, opened_by=seat.name)
        if rematch.status != Table.Status.LOBBY:
            raise Refused("The next match has started without you: you can watch it.")
        taken = list(rematch.seats.all())
        if any(people.key(s.name) == people.key(seat.name) for s in taken):
            raise Refused(f"{seat.name} already has a seat at the next match.")
        holder = next((s for s in taken if s.position == seat.position), None)
        position = seat.position
        if holder is not None and seat.position == 0:  # somebody joined in the host's seat
            holder.position = free_position(rematch, taken, None)  # the host keeps the first seat
            holder.save(update_fields=["position"])
        elif holder is not None:
            position = free_position(rematch, taken, None)
        again = TableSeat.objects.create(table=rematch, position=position, name=seat.name)
        announce(rematch)
    return rematch, again


def host_awaited(table: Table, seats: list[TableSeat]) -> bool:
    """Whether this is a rematch's lobby the host has not come back to yet: only the host
    can start it, or make room at a full table, so the last seat waits for them."""
    if table.rematch_of_id is None:
        return False
    host = TableSeat.objects.filter(table_id=table.rematch_of_id, position=0).first()
    return host is not None and all(people.key(s.name) != people.key(host.name) for s in seats)


def _open_rematch(finished: Table, seats: list[TableSeat], *, opened_by: str) -> Table:
    """The next match's table, in its lobby with the finished match's bots seated again,
    and the finished table's sockets told, once it is committed, where it is and who
    opened it (their pages offer the way there)."""
    rematch = Table.objects.create(
        rules=finished.rules,
        seat_count=finished.seat_count,
        host_token=finished.host_token,
        rematch_of=finished,
        fill_level=finished.fill_level,
        pace=finished.pace,
        turn_limit=finished.turn_limit,
    )
    TableSeat.objects.bulk_create(
        TableSeat(
            table=rematch,
            position=s.position,
            name=s.name,
            kind=TableSeat.Kind.BOT,
            bot_level=s.bot_level,
        )
        for s in seats
        if s.is_bot
    )
    moved = {"type": "table.moved", "code": rematch.code, "by": opened_by}
    tell_group(finished.group_name, moved)
    return rematch

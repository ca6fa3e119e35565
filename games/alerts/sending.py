"""The alerts' entry points: what the services call after a change, the page's word that
it is in sight, and the nudge.

``after_change`` is called once a change to a table has committed. It reads the table as
committed and each seat's ``SeatAlerts`` row, and claims each alert due with one
conditional UPDATE (the key of the event, where the row holds another): so a turn alerts
once, whichever process heard of which change, across restarts. A person whose page is open
and in sight is not alerted; the alert counts as given all the same (they saw it).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Pace, Table, TableSeat, seated

from . import background, events, mail, push
from .models import SeatAlerts, TableNudge

NUDGE_EVERY = timedelta(hours=1)


class NotSent(ValueError):
    """A nudge the table cannot take; the message says why, for the person who asked."""


def after_change(*, code: str) -> None:
    """Send what the table of ``code`` now calls for: call it from ``transaction.on_commit``
    after every commit that changes a table."""
    reachable = TableSeat.objects.filter(table__code=code).filter(
        Q(push_devices__isnull=False) | Q(alerts__email__gt="")
    )
    if not reachable.exists():  # nobody at the table asked for alerts: no more reads
        return
    found = seated(code)
    if found is None:
        return
    table, seats = found
    records = _records([s for s in seats if not s.is_bot])
    now = timezone.now()
    for seat, alert in events.due(table, seats, table.game()):
        record = records[seat.pk]
        claimed = (
            SeatAlerts.objects.filter(pk=record.pk)
            .exclude(**{alert.field: alert.key})
            .update(**{alert.field: alert.key})
        )
        if claimed and not in_sight(seat, record):
            deliver(seat, alert, now=now)


def deliver(seat: TableSeat, alert: events.Alert, *, now: datetime) -> None:
    """Tell the person of ``seat`` by each way they asked for (push, mail): what goes
    where is settled here, the posting is left to the alerts' threads."""
    devices = push.devices(seat)
    due_mail = mail.queue(seat, alert, now=now)
    if devices:
        background.later(lambda: push.post(devices, alert))
    if due_mail is not None:
        background.later(due_mail.send)


def in_sight(seat: TableSeat, record: SeatAlerts) -> bool:
    """The person has the table open, on the socket that holds the seat, and in sight."""
    return bool(seat.channel_name) and record.shown_on == seat.channel_name


def seen(*, code: str, channel: str, visible: bool) -> None:
    """The page on socket ``channel`` says it is in sight, or no longer."""
    seat = TableSeat.objects.filter(table__code=code, channel_name=channel).first()
    if seat is None:
        return
    if visible:
        SeatAlerts.objects.update_or_create(seat=seat, defaults={"shown_on": channel})
    else:
        SeatAlerts.objects.filter(seat=seat, shown_on=channel).update(shown_on="")


def left(*, channel: str) -> None:
    """A seat's socket closed: its page is no longer in sight, even before the seat is
    told away."""
    SeatAlerts.objects.filter(shown_on=channel).update(shown_on="")


def nudge(*, code: str, token: str, now: datetime) -> TableSeat:
    """Somebody seated at an own-pace table reminds the person on turn, at most once an
    hour a table; returns the seat nudged."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(code=code).first()
        if table is None:
            raise NotSent("There is no table with that link: it may have been mistyped.")
        seats = list(table.seats.all())
        me = next((s for s in seats if token and s.token == token), None)
        if me is None:
            raise NotSent("Only a person seated at the table can nudge.")
        if table.pace != Pace.OWN:
            raise NotSent("A nudge is for tables played at your own pace: here everybody is live.")
        game = table.game()
        rnd = game.round if game is not None else None
        if table.status != Table.Status.PLAYING or rnd is None or rnd.result is not None:
            raise NotSent("Nobody is on turn now, so there is nobody to nudge.")
        on_turn = next(s for s in seats if s.position == rnd.turn)
        if on_turn == me:
            raise NotSent("It is your own turn: nobody else to nudge.")
        if on_turn.played_by_bot:
            raise NotSent(f"{on_turn.name} is a bot for now: it plays without a nudge.")
        record = _records([on_turn])[on_turn.pk]
        if in_sight(on_turn, record):
            raise NotSent(f"{on_turn.name} has the table open now: they can see it is their turn.")
        last = TableNudge.objects.filter(table=table).first()
        if last is not None and now < last.at + NUDGE_EVERY:
            minutes = max(1, int((last.at + NUDGE_EVERY - now).total_seconds() // 60))
            raise NotSent(
                f"{last.by} nudged at this table less than an hour ago: the next nudge can go "
                f"in {minutes} minutes."
            )
        TableNudge.objects.update_or_create(table=table, defaults={"at": now, "by": me.name})
        for seat in seats:
            seat.table = table
        alert = events.nudge(me, on_turn, game)
    deliver(on_turn, alert, now=now)
    return on_turn


def _records(people: list[TableSeat]) -> dict[int, SeatAlerts]:
    """Each seat's ``SeatAlerts`` row, made where it is missing."""
    records = {r.seat_id: r for r in SeatAlerts.objects.filter(seat__in=people)}
    missing = [SeatAlerts(seat=s) for s in people if s.pk not in records]
    if missing:
        SeatAlerts.objects.bulk_create(missing, ignore_conflicts=True)
        records = {r.seat_id: r for r in SeatAlerts.objects.filter(seat__in=people)}
    return records

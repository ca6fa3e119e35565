"""Seats during a match: a socket taking its seat and leaving it, a bot standing in for a
person, and a seat asked back from another screen (a lost phone) and answered."""

from __future__ import annotations

from datetime import timedelta
from hmac import compare_digest

from django.db import transaction
from django.utils import timezone

from games.bots import LEVELS
from games.models import (
    CLAIM_WAITS,
    TURN_RUNS_LONG,
    Table,
    TableSeat,
    answerers,
    new_seat_token,
    seated,
)
from games.refusals import Refused, require_host, seat_of
from games.screens import Viewer
from games.selectors import Outcome, outcome_of, turn_ran_long

from .commit import announce, locked, tell
from .deadline import rearm_if_on_turn


def hand_to_bot(code: str, *, host_token: str, position: int, level: str = "greedy") -> None:
    """The host lets a bot play for a person who has gone away, until they come back; or
    for one still connected whose turn has run long (TURN_RUNS_LONG), never sooner; or for
    themselves."""
    if level not in LEVELS:
        raise Refused(f"There is no {level!r} bot: choose {', '.join(LEVELS)}.")
    with transaction.atomic():
        table, seats = locked(code)
        require_host(table, host_token)
        seat = next((s for s in seats if s.position == position), None)
        if seat is None or seat.is_bot:
            raise Refused("Only a person's seat can be handed to a bot.")
        # The host's own seat (the first) is theirs to hand over; another's only if away.
        if seat.connected and seat.position != 0 and not turn_ran_long(table, seat=seat):
            minutes = TURN_RUNS_LONG // 60
            raise Refused(
                f"{seat.name} is here: a bot can play for them once they are away, or when "
                f"their turn has run {minutes} minutes."
            )
        seat.stand_in = level
        seat.save(update_fields=["stand_in"])
        rearm_if_on_turn(table, seats, seat)
        announce(table, seats)


def connect(
    code: str, *, token: str | None, host_token: str, channel: str
) -> tuple[Viewer, str, Outcome | None]:
    """A socket opens: bind it to the seat of ``token`` (None for a spectator). Returns who
    the socket's screens are for, the channel of the socket it replaces, which must be
    closed (one socket a seat), and what the table waits for (a bot's turn, the next round:
    a restarted server picks them up here). A person coming back takes their seat back
    from a stand-in bot."""
    with transaction.atomic():
        table, seats = locked(code)
        is_host = bool(host_token) and host_token == table.host_token
        viewer, replaced = Viewer(None, is_host, channel), ""
        if token is not None:
            seat = seat_of(seats, token)
            viewer = Viewer(seat.pk, is_host, channel)
            replaced = seat.channel_name if seat.channel_name != channel else ""
            shown_before = (seat.connected, seat.stand_in, seat.timeouts)
            stood_in = bool(seat.stand_in)
            seat.channel_name = channel
            seat.stand_in = ""
            seat.timeouts = 0  # back: their turns are theirs again, and the count starts anew
            seat.save(update_fields=["channel_name", "stand_in", "timeouts"])
            if stood_in:
                rearm_if_on_turn(table, seats, seat)
            if (seat.connected, seat.stand_in, seat.timeouts) != shown_before:  # a new screen
                announce(table, seats)  # already here changes nobody's view
    playing = table.status == Table.Status.PLAYING
    return viewer, replaced, outcome_of(table, game=table.game(), seats=seats) if playing else None


def disconnect(code: str, *, channel: str) -> None:
    """A socket closed: its seat, if it still holds one, is away, and a request for a seat
    it made is withdrawn (it can no longer be told the answer)."""
    with transaction.atomic():
        found = seated(code, lock=True)
        if found is None:
            return
        table, seats = found
        seat = next((s for s in seats if s.channel_name == channel), None)
        if seat is not None:
            seat.channel_name = ""
            seat.save(update_fields=["channel_name"])
        asked = next((s for s in seats if s.claimed_by == channel), None)
        if asked is not None:
            _drop_claim(asked)
        if seat is not None or asked is not None:
            announce(table, seats)


def ask_for_seat(code: str, *, token: str | None, channel: str, position: int) -> None:
    """Somebody watching on the socket ``channel`` says a seat is theirs: their phone was
    lost or closed, and with it the rejoin link. Nothing changes hands here: the request
    waits for a person at the table to answer it (answer_seat_request). One request waits
    for a seat (a second is refused, unless the first has waited CLAIM_WAITS), and one
    for a screen."""
    with transaction.atomic():
        table, seats = locked(code)
        if token and any(compare_digest(s.token, token) for s in seats):
            raise Refused("You have a seat at this table already.")
        if table.status != Table.Status.PLAYING:
            raise Refused("A seat can be asked back only while the match is being played.")
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:
            raise Refused(
                f"This table has seats 1 to {len(seats)}: there is no seat {position + 1}."
            )
        if seat.is_bot:
            raise Refused(f"{seat.name} is a bot: only a person's seat can be asked back.")
        if seat.connected:
            raise Refused(
                f"{seat.name} is at the table on their screen now: only the seat of somebody "
                "who has left can be asked back."
            )
        asked = next((s for s in seats if s.claimed_by == channel), None)
        if asked == seat:
            raise Refused(f"You have already asked for {seat.name}'s seat: wait for the answer.")
        if asked is not None:
            raise Refused(f"You have asked for {asked.name}'s seat: cancel that request first.")
        now = timezone.now()
        if seat.claimed_by and seat.claimed_at > now - timedelta(seconds=CLAIM_WAITS):
            raise Refused(
                f"Somebody else has asked for {seat.name}'s seat: it waits for an answer."
            )
        seat.claimed_by, seat.claimed_at = channel, now
        seat.save(update_fields=["claimed_by", "claimed_at"])
        announce(table, seats)


def cancel_seat_request(code: str, *, channel: str) -> None:
    """The screen that asked for a seat takes its request back."""
    with transaction.atomic():
        table, seats = locked(code)
        seat = next((s for s in seats if channel and s.claimed_by == channel), None)
        if seat is None:
            raise Refused("You have no request for a seat waiting.")
        _drop_claim(seat)
        announce(table, seats)


def answer_seat_request(code: str, *, token: str, position: int, approve: bool) -> None:
    """A person at the table (the host, or while the host is away anybody connected)
    answers a request for a seat. Approved, the seat gets a new token and the asking screen
    alone is sent it: the old rejoin link and the old device's session no longer hold the
    seat, and a screen still open on it is told it was replaced. The first seat's new
    holder is the host, so the host's token is renewed as well. Refused, the asker is told."""
    with transaction.atomic():
        table, seats = locked(code)
        me = seat_of(seats, token)
        seat = next((s for s in seats if s.position == position), None)
        if seat is None or not seat.claimed_by:
            raise Refused("Nobody is asking for that seat now: it was answered or withdrawn.")
        allowed = answerers(seats)
        if me not in allowed:
            host = next((s for s in allowed if s.position == 0), None)
            raise Refused(
                f"{host.name}, the host, answers requests for seats."
                if host
                else "Only a person connected at the table can answer a request for a seat."
            )
        asker = seat.claimed_by
        _drop_claim(seat)
        fields = None
        if approve:
            replaced = seat.channel_name
            seat.token, seat.channel_name = new_seat_token(), ""
            seat.save(update_fields=["token", "channel_name"])
            if seat.position == 0:
                table.host_token = new_seat_token()
                fields = ["host_token", "revision", "updated_at"]
            if replaced:
                tell(replaced, {"type": "seat.replaced"})
            tell(asker, {"type": "seat.granted", "token": seat.token})
        else:
            message = f"{me.name} refused your request for {seat.name}'s seat."
            tell(asker, {"type": "seat.refused", "message": message})
        announce(table, seats, fields)


def _drop_claim(seat: TableSeat) -> None:
    seat.claimed_by, seat.claimed_at = "", None
    seat.save(update_fields=["claimed_by", "claimed_at"])

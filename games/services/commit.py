"""The frame of every change to a table: its row read and locked, the change written to the
move log (with what the end of a round or of the match settles on the score sheet), and
the table's sockets told once the transaction commits."""

from __future__ import annotations

from dataclasses import asdict
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import coach
from games.alerts import sending as alerts
from games.engine import Game
from games.models import Move, Pace, Table, TableSeat, keep_game, seated
from games.refusals import NO_TABLE, Refused
from games.screens import snapshot
from games.selectors import outcome_of
from scoring import services as sheet
from scoring.models import Match

from .deadline import arm

# The columns a committed move can change: a move saves these alone.
MOVED = [
    "version",
    "move_count",
    "revision",
    "status",
    "next_round_at",
    "turn_due_at",
    "moved_at",
    "updated_at",
]


def locked(code: str) -> tuple[Table, list[TableSeat]]:
    """The table and its seats, the table's row locked until the transaction ends."""
    found = seated(code, lock=True)
    if found is None:
        raise Refused(NO_TABLE)
    return found


def commit(table: Table, seats: list[TableSeat], lines: list[dict], game: Game) -> None:
    """Append the lines to the move log under the table's next version, settle what the end
    of a round or of the match changes, and announce the new revision after the commit."""
    rnd = game.round
    ended = any(line["type"] == "round_end" for line in lines)
    if rnd is not None and rnd.result is not None and ended:
        outs = rnd.result.outs
        hands = {seat: None if seat in outs else held for seat, held in enumerate(rnd.result.hands)}
        sheet.record_round(
            table.match, rnd.number, hands, by="the table", on_double=rnd.result.out_on_double
        )
        coach.queue_round(table, rnd.number)
        if game.is_over:
            for line in lines:
                if line["type"] == "match_end" and table.deal_secret:
                    line["secret"] = table.deal_secret  # revealed: nothing is dealt any more
            table.status = Table.Status.FINISHED
            table.next_round_at = None
            Match.objects.filter(pk=table.match_id).update(status=Match.Status.FINISHED)
        else:
            table.next_round_at = timezone.now() + timedelta(seconds=_next_round_wait(table))
    elif any(line["type"] == "deal" for line in lines):
        table.next_round_at = None
    acted = {line["seat"] for line in lines if line["type"] == "action"}
    arm(table, seats, game, keep=rnd is not None and acted == {rnd.turn} and not ended)
    table.version += 1
    table.moved_at = timezone.now()
    Move.objects.bulk_create(
        Move(table=table, number=table.move_count + i, version=table.version, record=record)
        for i, record in enumerate(lines, 1)
    )
    table.move_count += len(lines)
    code, version = table.code, table.version
    transaction.on_commit(lambda: keep_game(code, version, game))
    announce(table, seats, MOVED, game=game)


def _next_round_wait(table: Table) -> float:
    """Seconds from a round's end to the next deal if not everybody has pressed Ready: the
    countdown of a live table, the turn's time at one played at its own pace."""
    if table.pace == Pace.OWN and table.turn_limit:
        return table.turn_limit
    return settings.NEXT_ROUND_COUNTDOWN


def announce(
    table: Table,
    seats: list[TableSeat] | None = None,
    fields: list[str] | None = None,
    *,
    game: Game | None = None,
) -> None:
    """Save the table's new revision (with ``fields``) and, once the transaction commits,
    tell every socket of the table: each then sends its own seat the view. With the
    ``seats`` as committed, the message carries what the screens show of the table
    (``screens.snapshot``): a busy table's sockets then draw each move without a read.
    It also says what the change leaves due (a bot's turn, the next round's countdown),
    so that whoever made the change (a socket, a page, the admin, a shell) and on
    whichever process, the sockets that hear it start that work (``consumers.after``),
    and tells the table's people what calls for them with the page closed (games.alerts)."""
    table.revision += 1
    table.save(update_fields=fields or ["revision", "updated_at"])
    message: dict = {"type": "table.changed", "revision": table.revision}
    if seats is not None:
        message["table"] = snapshot(table, seats)
        if table.status == Table.Status.PLAYING:
            message["due"] = asdict(outcome_of(table, game=game or table.game(), seats=seats))
    tell_group(table.group_name, message)
    code = table.code  # its people told of what calls for them (their turn, a round's end)
    transaction.on_commit(lambda: alerts.after_change(code=code), robust=True)


def tell(channel: str, message: dict) -> None:
    """Send one socket a message once the transaction has committed."""
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().send)(channel, message))


def tell_group(group: str, message: dict) -> None:
    """Send every socket of a table's group a message once the transaction has committed."""
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().group_send)(group, message))

"""Everything that changes an online table, as plain functions.

Views and the consumer parse, authorize and call these. Every change runs in one
transaction that first locks the table's row (``select_for_update``) and reads the table
and its seats from the database; a move then checks the version the player's screen was
based on, applies the action through the engine, appends its record lines to the move log
and saves the table's new version. Once the transaction commits, the table's group is told
(``table.changed``, with the new revision and nothing else) and every socket sends its
own seat the view. A refused action changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import timedelta
from hmac import compare_digest

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common import names as people
from crews import services as crew_services
from crews.models import Crew
from games.bots import LEVELS, best_line, decide
from games.engine import Game, IllegalAction, Rules, RulesError, SeatView, view_for
from games.engine.actions import END_TURN, Action
from games.engine.records import deal_record, deal_step, match_record, step
from games.engine.setup import new_game
from games.engine.tiles import Tile
from scoring import services as sheet
from scoring.models import Match

from . import coach
from .forms import Intent
from .models import (
    CLAIM_WAITS,
    NAME_LENGTH,
    TURN_RUNS_LONG,
    Move,
    Table,
    TableSeat,
    answerers,
    keep_game,
    new_seat_token,
    seated,
)
from .screens import Viewer, snapshot


class Refused(ValueError):
    """A request the table cannot take; the message says why, for the person who asked."""


class Stale(Refused):
    """An action based on a view the table has moved on from."""


@dataclass(frozen=True)
class Outcome:
    """What a committed change left due: a bot's turn, or a countdown to the next round."""

    version: int
    bot_next: bool = False
    next_round_in: float | None = None  # seconds until the next round is dealt anyway


def _outcome(table: Table, game: Game | None, seats: Iterable[TableSeat]) -> Outcome:
    due = table.next_round_at
    return Outcome(
        version=table.version,
        bot_next=_bot_on_turn(game, seats),
        next_round_in=None if due is None else (due - timezone.now()).total_seconds(),
    )


def due(code: str) -> Outcome | None:
    """What the table waits for now, read without the lock: for an announcement that does
    not say (a shell's, the admin's plain ``table.changed``)."""
    found = seated(code)
    if found is None or found[0].status != Table.Status.PLAYING:
        return None
    table, seats = found
    return _outcome(table, table.game(), seats)


# -- the lobby ----------------------------------------------------------------------------


def create_table(
    rules: Rules,
    seat_count: int,
    host_name: str,
    crew: Crew | None = None,
    *,
    fill_level: str = "",
) -> tuple[Table, TableSeat]:
    """A table in its lobby, with the host in the first seat; for ``crew``, its match
    counts for the crew and a member's name at it seats that member. With ``fill_level``,
    bots of that level take the seats still free at the start: not now, so that friends
    following the link still find them free."""
    try:
        rules.hand_size_for(seat_count)
    except RulesError as error:
        raise Refused(str(error)) from None
    if fill_level and fill_level not in LEVELS:
        raise Refused(f"There is no {fill_level!r} bot: choose {', '.join(LEVELS)}.")
    name = _clean_name(host_name)
    with transaction.atomic():
        table = Table.objects.create(
            rules=rules.to_dict(), seat_count=seat_count, crew=crew, fill_level=fill_level
        )
        seat = TableSeat.objects.create(table=table, position=0, name=name)
    return table, seat


def join(code: str, name: str, position: int | None = None) -> TableSeat:
    """Seat a person at a table in its lobby: at ``position`` if free, else the next one."""
    name = _clean_name(name)
    with transaction.atomic():
        table, seats = _locked(code)
        _in_lobby(table)
        if any(people.key(s.name) == people.key(name) for s in seats):
            raise Refused(f"Somebody at this table is already called {name}: pick another name.")
        if len(seats) + 1 >= table.seat_count and _host_awaited(table, seats):
            raise Refused(
                "The last free seat is kept for the host, who starts the next match: watch "
                "for now, and ask the host for a seat once they are back."
            )
        seat = TableSeat.objects.create(
            table=table, position=_free(table, seats, position), name=name
        )
        _announce(table)
    return seat


def add_bot(code: str, host_token: str, level: str, position: int | None = None) -> TableSeat:
    if level not in LEVELS:
        raise Refused(f"There is no {level!r} bot: choose {', '.join(LEVELS)}.")
    with transaction.atomic():
        table, seats = _locked(code)
        _host(table, host_token)
        _in_lobby(table)
        seat = _seat_bot(table, seats, level, _free(table, seats, position))
        _announce(table)
    return seat


def _seat_bot(table: Table, seats: list[TableSeat], level: str, position: int) -> TableSeat:
    """A bot of ``level`` in the free seat ``position``, named apart from the others."""
    taken = {s.name for s in seats}
    name = next(n for n in (f"{level.title()} bot {i}" for i in range(1, 12)) if n not in taken)
    return TableSeat.objects.create(
        table=table, position=position, name=name, kind=TableSeat.Kind.BOT, bot_level=level
    )


def remove_seat(code: str, host_token: str, position: int) -> None:
    """The host frees a seat before the start (a bot, or a person who joined by mistake)."""
    with transaction.atomic():
        table, _ = _locked(code)
        _host(table, host_token)
        _in_lobby(table)
        if position == 0:
            raise Refused("The host keeps the first seat.")
        deleted, _ = table.seats.filter(position=position).delete()
        if not deleted:
            raise Refused(f"Seat {position + 1} is already free.")
        _announce(table)


def start(code: str, host_token: str) -> Outcome:
    """Deal round 1: bots take the free seats if the host chose so when opening the table,
    else the seats close up in order; the match's score sheet is opened."""
    with transaction.atomic():
        table, seats = _locked(code)
        _host(table, host_token)
        _in_lobby(table)
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
        game = new_game(rules, len(seats), seed=table.seed, first_seat=table.first_seat)
        assert game.round is not None
        lines = [match_record(game, [s.name for s in seats]), deal_record(game.round)]
        _commit(table, seats, lines, game)
    return _outcome(table, game, seats)


# -- playing ------------------------------------------------------------------------------


def act(code: str, token: str, intent: Intent) -> Outcome:
    """Apply a seat's intent (a play, a line, a draw...) if the rules allow it."""
    with transaction.atomic():
        table, seats = _locked(code)
        seat = _seat_of(seats, token)
        if table.status != Table.Status.PLAYING:
            raise Refused("The match is not being played: nothing can be moved now.")
        if intent.version != table.version:
            raise Stale(
                "The table has moved on since your screen was drawn; it has been brought up "
                "to date, so try again."
            )
        if seat.stand_in:  # the player is back: the bot that stood in gives the seat back
            seat.stand_in = ""
            seat.save(update_fields=["stand_in"])
        game = table.game()
        assert game is not None
        names = {s.position: s.name for s in seats}
        if game.round is None or game.round.result is not None:
            raise Refused("The round is over: press Ready for the next one.")
        if game.round.turn != seat.position:
            raise Refused(f"It is not your turn: {names[game.round.turn]} is to play.")
        lines = []
        try:
            for action in intent.actions(seat.position):
                game, written = step(game, action)
                lines += written
            if intent.type == "line" and game.round.result is None:
                ts = game.round.turn_state
                if game.round.turn == seat.position and ts.line_open and not ts.extra_owed:
                    game, written = step(game, Action(END_TURN, seat.position))
                    lines += written
        except IllegalAction as refused:
            raise Refused(_with_names(str(refused), names)) from None
        _commit(table, seats, lines, game)
    return _outcome(table, game, seats)


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
    if table.status != Table.Status.PLAYING or not _bot_on_turn(game, seats):
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


def make_bot_move(code: str, turn: BotTurn, action: Action) -> Outcome:
    """Make the move the bot decided on ``turn``, unless the table has moved on meanwhile
    (a move, a person taking the seat back from a stand-in): then nothing is made, and
    the outcome says whether a bot is still due, to be read again."""
    with transaction.atomic():
        table, seats = _locked(code)
        game = table.game()
        seat = next(s for s in seats if s.position == turn.view.seat)
        if table.version != turn.version or seat.played_by_bot != turn.level:
            return Outcome(version=table.version, bot_next=_bot_on_turn(game, seats))
        game, lines = step(game, action)
        _commit(table, seats, lines, game)
    return _outcome(table, game, seats)


def play_bot_turn(code: str) -> Outcome | None:
    """Read the bot's turn, decide and make the move, in this thread (the consumer takes
    the same three steps, deciding in a thread of its own)."""
    turn = bot_turn(code)
    return None if turn is None else make_bot_move(code, turn, turn.decide())


def ready(code: str, token: str) -> Outcome | None:
    """A person is ready for the next round; the round is dealt once every person is."""
    with transaction.atomic():
        table, seats = _locked(code)
        seat = _seat_of(seats, token)
        game = table.game()
        if game is None or game.is_over or game.round.result is None:
            raise Refused("There is no next round to get ready for.")
        upcoming = game.rounds_played + 1
        if seat.ready_for != upcoming:
            seat.ready_for = upcoming
            seat.save(update_fields=["ready_for"])
        if any(_waited_for(s, upcoming) for s in seats):
            _announce(table, seats)
            return None
        return _deal_next(table, seats, game)


def start_next_round_if_due(code: str) -> Outcome | None:
    """Deal the next round when its countdown has run out, whoever is still not ready."""
    with transaction.atomic():
        table, seats = _locked(code)
        game = table.game()
        if game is None or game.is_over or game.round.result is None:
            return None
        if table.next_round_at is None or table.next_round_at > timezone.now():
            return _outcome(table, game, seats)  # not yet (a countdown woke early): wait again
        return _deal_next(table, seats, game)


def _deal_next(table: Table, seats: list[TableSeat], game: Game) -> Outcome:
    game, lines = deal_step(game)
    _commit(table, seats, lines, game)
    return _outcome(table, game, seats)


def hint(code: str, token: str) -> list[Tile]:
    """The planner's best line for a seat from the open end of its own train: the hint a
    player asks for on the first turn. Only the seat's own hand goes into it."""
    found = seated(code)
    if found is None:
        raise Refused("There is no table with that link: it may have been mistyped.")
    table, seats = found
    seat = _seat_of(seats, token)
    game = table.game()
    if game is None or game.round is None or game.round.result is not None:
        raise Refused("There is no round being played, so there is nothing to hint.")
    start = game.round.trains[seat.position].branches[0].open
    return best_line(game.round.hands[seat.position], start)


# -- seats during a match -----------------------------------------------------------------


def hand_to_bot(code: str, host_token: str, position: int, level: str = "greedy") -> None:
    """The host lets a bot play for a person who has gone away, until they come back; or
    for one still connected whose turn has run long (TURN_RUNS_LONG), never sooner; or for
    themselves."""
    if level not in LEVELS:
        raise Refused(f"There is no {level!r} bot: choose {', '.join(LEVELS)}.")
    with transaction.atomic():
        table, seats = _locked(code)
        _host(table, host_token)
        seat = next((s for s in seats if s.position == position), None)
        if seat is None or seat.is_bot:
            raise Refused("Only a person's seat can be handed to a bot.")
        # The host's own seat (the first) is theirs to hand over; another's only if away.
        if seat.connected and seat.position != 0 and not turn_ran_long(table, seat):
            minutes = TURN_RUNS_LONG // 60
            raise Refused(
                f"{seat.name} is here: a bot can play for them once they are away, or when "
                f"their turn has run {minutes} minutes."
            )
        seat.stand_in = level
        seat.save(update_fields=["stand_in"])
        _announce(table, seats)


def connect(
    code: str, token: str | None, host_token: str, channel: str
) -> tuple[Viewer, str, Outcome | None]:
    """A socket opens: bind it to the seat of ``token`` (None for a spectator). Returns who
    the socket's screens are for, the channel of the socket it replaces, which must be
    closed (one socket a seat), and what the table waits for (a bot's turn, the next round:
    a restarted server picks them up here). A person coming back takes their seat back
    from a stand-in bot."""
    with transaction.atomic():
        table, seats = _locked(code)
        is_host = bool(host_token) and host_token == table.host_token
        viewer, replaced = Viewer(None, is_host, channel), ""
        if token is not None:
            seat = _seat_of(seats, token)
            viewer = Viewer(seat.pk, is_host, channel)
            replaced = seat.channel_name if seat.channel_name != channel else ""
            shown_before = (seat.connected, seat.stand_in)
            seat.channel_name = channel
            seat.stand_in = ""
            seat.save(update_fields=["channel_name", "stand_in"])
            if (seat.connected, seat.stand_in) != shown_before:  # a new screen for a seat
                _announce(table, seats)  # already here changes nobody's view
    playing = table.status == Table.Status.PLAYING
    return viewer, replaced, _outcome(table, table.game(), seats) if playing else None


def disconnect(code: str, channel: str) -> None:
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
            _announce(table, seats)


# -- a seat asked back from another screen (a lost phone) ----------------------------------


def ask_for_seat(code: str, token: str | None, channel: str, position: int) -> None:
    """Somebody watching on the socket ``channel`` says a seat is theirs: their phone was
    lost or closed, and with it the rejoin link. Nothing changes hands here: the request
    waits for a person at the table to answer it (answer_seat_request). One request waits
    for a seat (a second is refused, unless the first has waited CLAIM_WAITS), and one
    for a screen."""
    with transaction.atomic():
        table, seats = _locked(code)
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
        _announce(table, seats)


def cancel_seat_request(code: str, channel: str) -> None:
    """The screen that asked for a seat takes its request back."""
    with transaction.atomic():
        table, seats = _locked(code)
        seat = next((s for s in seats if channel and s.claimed_by == channel), None)
        if seat is None:
            raise Refused("You have no request for a seat waiting.")
        _drop_claim(seat)
        _announce(table, seats)


def answer_seat_request(code: str, token: str, position: int, approve: bool) -> None:
    """A person at the table (the host, or while the host is away anybody connected)
    answers a request for a seat. Approved, the seat gets a new token and the asking screen
    alone is sent it: the old rejoin link and the old device's session no longer hold the
    seat, and a screen still open on it is told it was replaced. The first seat's new
    holder is the host, so the host's token is renewed as well. Refused, the asker is told."""
    with transaction.atomic():
        table, seats = _locked(code)
        me = _seat_of(seats, token)
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
                _tell(replaced, {"type": "seat.replaced"})
            _tell(asker, {"type": "seat.granted", "token": seat.token})
        else:
            message = f"{me.name} refused your request for {seat.name}'s seat."
            _tell(asker, {"type": "seat.refused", "message": message})
        _announce(table, seats, fields)


def seat_for_host(code: str, host_token: str, position: int) -> TableSeat:
    """A person's seat, for the host to show its private link (a QR code) to its player on
    a new phone: only the host may see another seat's token."""
    found = seated(code)
    if found is None:
        raise Refused("There is no table with that link: it may have been mistyped.")
    table, seats = found
    _host(table, host_token)
    seat = next((s for s in seats if s.position == position and not s.is_bot), None)
    if seat is None:
        raise Refused(f"Seat {position + 1} is not a person's: it has no private link.")
    return seat


def _drop_claim(seat: TableSeat) -> None:
    seat.claimed_by, seat.claimed_at = "", None
    seat.save(update_fields=["claimed_by", "claimed_at"])


def _tell(channel: str, message: dict) -> None:
    """Send one socket a message once the transaction has committed."""
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().send)(channel, message))


def turn_ran_long(table: Table, seat: TableSeat) -> bool:
    """The seat is on turn in a round being played, and has been since TURN_RUNS_LONG."""
    runs_long_at = table.turn_runs_long_at
    if runs_long_at is None or table.status != Table.Status.PLAYING:
        return False
    game = table.game()
    rnd = game.round if game else None
    if rnd is None or rnd.result is not None or rnd.turn != seat.position:
        return False
    return timezone.now() >= runs_long_at


# -- playing again ------------------------------------------------------------------------


def play_again(code: str, token: str | None) -> tuple[Table, TableSeat]:
    """A player of the finished match at ``code`` takes their seat for the next one.

    The first to ask opens the rematch: a new table in its lobby (a new deal, the same rules
    and seats, the same host), linked to the finished one, whose move log and score sheet
    stay as they were; the bots sit down again at once, the people as each one asks. The
    finished table's row is locked first, so two players asking at once open one rematch
    (and ``rematch_of`` is unique besides); its sockets are told where the next match is.
    Returns the rematch and the player's seat at it, for their session."""
    with transaction.atomic():
        table, seats = _locked(code)
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
            holder.position = _free(rematch, taken, None)  # the host keeps the first seat
            holder.save(update_fields=["position"])
        elif holder is not None:
            position = _free(rematch, taken, None)
        again = TableSeat.objects.create(table=rematch, position=position, name=seat.name)
        _announce(rematch)
    return rematch, again


def _host_awaited(table: Table, seats: list[TableSeat]) -> bool:
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
    _tell_group(finished.group_name, moved)
    return rematch


# -- helpers ------------------------------------------------------------------------------

# The columns a committed move can change: a move saves these alone.
MOVED = ["version", "move_count", "revision", "status", "next_round_at", "moved_at", "updated_at"]


def _commit(table: Table, seats: list[TableSeat], lines: list[dict], game: Game) -> None:
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
            table.status = Table.Status.FINISHED
            table.next_round_at = None
            Match.objects.filter(pk=table.match_id).update(status=Match.Status.FINISHED)
        else:
            table.next_round_at = timezone.now() + timedelta(seconds=settings.NEXT_ROUND_COUNTDOWN)
    elif any(line["type"] == "deal" for line in lines):
        table.next_round_at = None
    table.version += 1
    table.moved_at = timezone.now()
    Move.objects.bulk_create(
        Move(table=table, number=table.move_count + i, version=table.version, record=record)
        for i, record in enumerate(lines, 1)
    )
    table.move_count += len(lines)
    code, version = table.code, table.version
    transaction.on_commit(lambda: keep_game(code, version, game))
    _announce(table, seats, MOVED, game=game)


def _announce(
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
    whichever process, the sockets that hear it start that work (``consumers.after``)."""
    table.revision += 1
    table.save(update_fields=fields or ["revision", "updated_at"])
    message: dict = {"type": "table.changed", "revision": table.revision}
    if seats is not None:
        message["table"] = snapshot(table, seats)
        if table.status == Table.Status.PLAYING:
            message["due"] = asdict(_outcome(table, game or table.game(), seats))
    _tell_group(table.group_name, message)


def _tell_group(group: str, message: dict) -> None:
    """Send every socket of a table's group a message once the transaction has committed."""
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().group_send)(group, message))


def _bot_on_turn(game: Game | None, seats: Iterable[TableSeat]) -> bool:
    if game is None or game.round is None or game.round.result is not None:
        return False
    return any(s.position == game.round.turn and s.played_by_bot for s in seats)


def _waited_for(seat: TableSeat, upcoming: int) -> bool:
    return not seat.played_by_bot and seat.ready_for < upcoming


def _locked(code: str) -> tuple[Table, list[TableSeat]]:
    """The table and its seats, the table's row locked until the transaction ends."""
    found = seated(code, lock=True)
    if found is None:
        raise Refused("There is no table with that link: it may have been mistyped.")
    return found


def _seat_of(seats: Iterable[TableSeat], token: str) -> TableSeat:
    seat = next((s for s in seats if token and compare_digest(s.token, token)), None)
    if seat is None:
        raise Refused("You do not have a seat at this table: you can watch it as a spectator.")
    return seat


def _host(table: Table, host_token: str) -> None:
    if not host_token or host_token != table.host_token:
        raise Refused("Only the host can do that.")


def _in_lobby(table: Table) -> None:
    if table.status != Table.Status.LOBBY:
        raise Refused("The match has started: seats can no longer change.")


def _free(table: Table, seats: Iterable[TableSeat], position: int | None) -> int:
    taken = {s.position for s in seats}
    if position is None:
        free = [p for p in range(table.seat_count) if p not in taken]
        if not free:
            raise Refused(f"The table is full: all {table.seat_count} seats are taken.")
        return free[0]
    if not 0 <= position < table.seat_count:
        raise Refused(f"This table has seats 1 to {table.seat_count}.")
    if position in taken:
        raise Refused(f"Seat {position + 1} is taken: pick a free one.")
    return position


def _clean_name(name: str) -> str:
    try:
        return people.clean(name, NAME_LENGTH)
    except people.BadName as bad:
        raise Refused(str(bad)) from None


def _with_names(message: str, names: dict[int, str]) -> str:
    """The engine speaks of seat numbers; people speak of names."""
    return re.sub(r"\bseat (\d+)\b", lambda m: names.get(int(m[1]), m[0]), message)

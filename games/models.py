"""Online tables: the table, its seats, and the move log that is the game.

The move log is the game's one source of truth: each row is one line of the game record
(docs/records.md), so the state of any table is what replaying its log gives, after a server
restart as much as in a running process. ``Table.version`` counts the commits that changed
the game; every view sent to a browser carries it, and an action based on an older view is
refused as stale.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.bots import LEVELS
from games.engine import Game, Replayer
from games.engine.deal_seed import Committed, digest, new_value
from games.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from scoring.models import default_rules, validate_rules  # one stored rules field, two apps

T = TypeVar("T")

NAME_LENGTH = 40
# A turn at a table of friends takes seconds; two minutes on turn is someone who has walked
# away from a phone that is still connected: the host may then let a bot play for them.
TURN_RUNS_LONG = 120  # seconds
# A request for a seat lives as long as the screen that asked is open; one left behind by a
# process that died with its sockets gives way to a new request after this long.
CLAIM_WAITS = 600  # seconds


def new_table_code() -> str:
    """The invite code in a table's link: short enough to read out, too many to guess."""
    return secrets.token_urlsafe(6)


def new_seat_token() -> str:
    """The secret that binds a seat to its player (192 bits: never guessable)."""
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Pace(models.TextChoices):
    LIVE = "live", "Live"
    OWN = "own", "At your own pace"


# The clocks a host may choose, in seconds a turn, by pace (None: no clock).
TURN_LIMITS: dict[str, tuple[int | None, ...]] = {
    Pace.LIVE: (None, 30, 60, 120),
    Pace.OWN: (3600, 8 * 3600, 24 * 3600, 3 * 24 * 3600),
}


def duration_in_words(seconds: float) -> str:
    """A length of time in the largest whole unit, as people say it: ``30 seconds``,
    ``2 minutes``, a day or so in hours (``24 hours``, ``36 hours``), ``3 days``."""
    whole = int(seconds)
    for unit, size, fewest in (("day", 86400, 2), ("hour", 3600, 1), ("minute", 60, 1)):
        count, rest = divmod(whole, size)
        if rest == 0 and count >= fewest:
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


def abandoned_after(pace: str) -> timedelta:
    """The time a table at ``pace`` may go without a move (a lobby, without a change) before
    it is closed as abandoned."""
    seconds = settings.ABANDON_OWN_PACE_AFTER if pace == Pace.OWN else settings.ABANDON_LIVE_AFTER
    return timedelta(seconds=seconds)


class Table(models.Model):
    """A table for friends to play one match at, from the lobby to the final totals."""

    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    code = models.CharField(max_length=16, unique=True, default=new_table_code)
    host_token = models.CharField(
        max_length=64, default=new_seat_token, help_text="Kept in the host's session."
    )
    rules = models.JSONField(default=default_rules, validators=[validate_rules])
    seat_count = models.PositiveSmallIntegerField(default=4)
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.LOBBY,
        db_index=True,  # the clock looks for the tables still open, among all ever played
    )
    seed = models.BigIntegerField(
        default=new_seed,
        help_text="The bots' choices follow from it, and the deals of a table without a secret.",
    )
    deal_secret = models.CharField(
        max_length=64,
        blank=True,
        default=new_value,
        help_text="Every deal follows from it and the seats' contributions (docs/engine.md); "
        "nobody sees it until the match ends. Blank: a table dealt from its seed.",
    )
    deal_commitment = models.CharField(
        max_length=64,
        blank=True,
        help_text="The SHA-256 of the deal's secret, shown from the moment the table opens.",
    )
    first_seat = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(
        default=0, help_text="Commits that changed the game; views carry it."
    )
    move_count = models.PositiveIntegerField(
        default=0, help_text="Lines in the move log: the number of the last one."
    )
    revision = models.PositiveIntegerField(
        default=0,
        help_text="Changes anybody can see (the game, the seats, who is here); a socket "
        "sends a view for each newer one.",
    )
    next_round_at = models.DateTimeField(
        null=True, blank=True, help_text="When the next round starts if not everybody is ready."
    )
    moved_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the last move (or deal) was committed: the turn on since then began.",
    )
    pace = models.CharField(
        max_length=4,
        choices=Pace.choices,
        default=Pace.LIVE,
        help_text="Chosen when the table opens: played in one sitting, or over days.",
    )
    turn_limit = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Seconds a person has for a turn (and, at their own pace, to press Ready); "
        "when they run out, a bot plays that one turn. Blank: no clock.",
    )
    turn_due_at = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text="When the turn on now is due to be played for its seat: a bot's turn at "
        "once, a person's when their time runs out. Any process that finds it past plays it.",
    )
    match = models.OneToOneField(
        "scoring.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="table",
        help_text="The score sheet the table's rounds are entered on.",
    )
    crew = models.ForeignKey(
        "crews.Crew",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables",
        help_text="The crew the match counts for: its members' seats are theirs.",
    )
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rematch",
        help_text="The finished match this one plays again, with the same people and rules: "
        "its link leads here, and its move log and score sheet stay as they were.",
    )
    fill_level = models.CharField(
        max_length=10,
        blank=True,
        choices=[(b, b.title()) for b in LEVELS],
        help_text="The bots that take the seats still free when the host starts (blank: the "
        "free seats are closed up). Chosen when the table opens; until the start, friends can "
        "still take those seats.",
    )
    imported = models.BooleanField(
        default=False,
        help_text="Ticked for a table opened from a game record (a bug report, an export) "
        "for review: such a table was never played here and cannot be played.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=MIN_PLAYERS, seat_count__lte=MAX_PLAYERS),
                name="table_seat_count_in_range",
            ),
            models.CheckConstraint(
                condition=Q(pace="live") | Q(pace="own", turn_limit__isnull=False),
                name="table_own_pace_has_a_clock",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["lobby", "playing", "finished", "abandoned"]),
                name="table_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.code} ({self.get_status_display().lower()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """The commitment is the secret's SHA-256, kept beside it from the first save."""
        if self.deal_secret and not self.deal_commitment:
            self.deal_commitment = digest(self.deal_secret)
        super().save(*args, **kwargs)

    def get_rules(self) -> Rules:
        return Rules.from_dict(self.rules)

    def deal_order(self, seats: Iterable[TableSeat]) -> Committed | None:
        """How the rounds are dealt: from the secret and the seats' contributions in seat
        order (None: from the seed, for a table opened before deals were committed to)."""
        if not self.deal_secret:
            return None
        ordered = sorted(seats, key=lambda seat: seat.position)
        return Committed(self.deal_secret, tuple(seat.contribution for seat in ordered))

    @property
    def revealed_secret(self) -> str:
        """The deal's secret once the match is over ('' until then, and for a table dealt
        from its seed): the one way a page reads it."""
        return self.deal_secret if self.status == self.Status.FINISHED else ""

    def pace_in_words(self) -> str:
        """The pace and the clock, as the lobby and the table say them."""
        clock = f"{duration_in_words(self.turn_limit)} a turn" if self.turn_limit else ""
        if self.pace == Pace.OWN:
            return f"At your own pace: {clock}"
        return f"Live: {clock}" if clock else "Live: no turn clock"

    @property
    def group_name(self) -> str:
        return group_name(self.code)

    @property
    def turn_runs_long_at(self) -> datetime | None:
        """When the turn on since the last move has run long (TURN_RUNS_LONG)."""
        if self.moved_at is None:
            return None
        return self.moved_at + timedelta(seconds=TURN_RUNS_LONG)

    @property
    def abandoned_after(self) -> timedelta:
        """How long the table may go unplayed before it is closed as abandoned: a live
        table is played in one sitting, one at its own pace over days (both settings)."""
        return abandoned_after(self.pace)

    def newest(self) -> Table:
        """The latest match played again from this one (itself if none): where the table's
        link leads once a finished match has been played again."""
        newest = self
        while (following := Table.objects.filter(rematch_of=newest).first()) is not None:
            newest = following
        return newest

    def game(self) -> Game | None:
        """The game at this row's version, as the move log gives it; None before the start."""
        return _versions.at(self).game

    def drawn(self, key: tuple, draw: Callable[[], T]) -> T:
        """A region drawn from the game at this row's version (or what regions are drawn
        from), once per process: ``key`` holds everything else the drawing shows (the
        names, the seats as read)."""
        return _once(_versions.at(self).drawn, key, draw)

    def drawn_whole(self, key: tuple, draw: Callable[[], str]) -> str:
        """A piece drawn from ``key`` alone, which holds everything it shows, so that a
        piece unchanged by a move is not drawn again at the next version: a move changes one
        or two of a board's trains, and drawing the others again was a tenth of a move's
        server time (benchmarks/move_cost.py)."""
        version = _versions.at(self)
        if key not in version.whole:
            found = version.before.get(key)
            version.whole[key] = draw() if found is None else found
        return version.whole[key]


class TableSeat(models.Model):
    """A place at a table, held by a person (bound by ``token``) or a bot."""

    class Kind(models.TextChoices):
        HUMAN = "human", "Person"
        BOT = "bot", "Bot"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0 is the first seat.")
    name = models.CharField(max_length=NAME_LENGTH)
    kind = models.CharField(max_length=6, choices=Kind.choices, default=Kind.HUMAN)
    bot_level = models.CharField(
        max_length=10, blank=True, choices=[(b, b.title()) for b in LEVELS]
    )
    token = models.CharField(max_length=64, unique=True, default=new_seat_token)
    stand_in = models.CharField(
        max_length=10,
        blank=True,
        choices=[(b, b.title()) for b in LEVELS],
        help_text="A bot the host put in while the player is away; gone when they return.",
    )
    ready_for = models.PositiveSmallIntegerField(
        default=0, help_text="The round this seat is ready to start."
    )
    channel_name = models.CharField(
        max_length=200, blank=True, help_text="The socket that holds the seat now, if any."
    )
    claimed_by = models.CharField(
        max_length=200,
        blank=True,
        help_text="The socket of somebody watching who asked for this seat back (a lost "
        "phone), until a person at the table answers.",
    )
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="When it was asked.")
    timeouts = models.PositiveSmallIntegerField(
        default=0,
        help_text="The person's turns in a row that ran out of time (a bot played them); "
        "at two, a bot stands in until they are back.",
    )
    contribution = models.CharField(
        max_length=64,
        default=new_value,
        help_text="This seat's share in every deal: sent by the browser that took the seat, or "
        "made by the server (a bot, a page without JavaScript). Revealed with the secret.",
    )
    contribution_by_server = models.BooleanField(
        default=True, help_text="Made by the server, not by the seat's browser."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # By the table's id, not "table": that would join every seats query to the tables
        # to order by the table's own ordering, for rows that are always of one table.
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="table_seat_unique"),
            models.CheckConstraint(
                condition=Q(position__lt=MAX_PLAYERS), name="table_seat_in_range"
            ),
            models.CheckConstraint(
                condition=Q(kind="human", bot_level="")
                | Q(kind="bot", stand_in="") & ~Q(bot_level=""),
                name="table_seat_bot_has_a_level",
            ),
            models.CheckConstraint(
                condition=Q(claimed_by="", claimed_at__isnull=True)
                | Q(kind="human", claimed_at__isnull=False) & ~Q(claimed_by=""),
                name="table_seat_claimed_for_a_person",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.position + 1} at {self.table.code})"

    @property
    def contribution_hash(self) -> str:
        """The contribution's SHA-256, shown beside the name while the match is played."""
        return digest(self.contribution)

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    @property
    def played_by_bot(self) -> str:
        """The bot level that takes this seat's turns now ('' for a person at the seat)."""
        return self.bot_level if self.is_bot else self.stand_in

    @property
    def connected(self) -> bool:
        return bool(self.channel_name)

    @property
    def is_away(self) -> bool:
        """A person who has lost the connection, with no bot standing in: the host may let
        one play for them."""
        return not self.is_bot and not self.connected and not self.stand_in


def answerers(seats: Iterable[TableSeat]) -> list[TableSeat]:
    """Who may give a seat to a screen that asks for it: the host (the first seat) when
    connected, else every person seated and connected. Somebody at the table must
    vouch for the asker, since whoever gets the seat plays its hand."""
    people = [s for s in seats if not s.is_bot and s.connected]
    host = [s for s in people if s.position == 0]
    return host or people


class Move(models.Model):
    """One line of the table's game record, in order: a deal, an action, a round's end."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField(help_text="1 is the match record.")
    version = models.PositiveIntegerField(help_text="The table version that wrote this line.")
    record = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="move_number_unique"),
        ]

    def __str__(self) -> str:
        record = self.record
        what = record.get("kind") or record.get("type")
        return f"{self.table.code} #{self.number}: {what}"


class RoundReview(models.Model):
    """The coach's look at one finished round of a table: queued when the round ends,
    worked through in the background (games.coach), its decisions kept once done. The row
    is the queue: whatever wakes the worker, a restart loses nothing still queued."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reviews")
    round_number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    decisions_total = models.PositiveSmallIntegerField(default=0)
    decisions_done = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "round_number"], name="review_once_a_round"),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]),
                name="review_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} round {self.round_number}: {self.get_status_display()}"


class Decision(models.Model):
    """One choice a person made in a reviewed round, weighed by the expert's search: the
    round points it expected after the choice made and after the best one."""

    review = models.ForeignKey(RoundReview, on_delete=models.CASCADE, related_name="decisions")
    step = models.PositiveSmallIntegerField(help_text="The action's place in its round, from 1.")
    seat = models.PositiveSmallIntegerField()
    chosen = models.JSONField(help_text="The action taken, as in the game record.")
    best = models.JSONField(help_text="The action the expert expected to score least.")
    expected_chosen = models.FloatField()
    expected_best = models.FloatField()
    marked = models.BooleanField(default=False, help_text="It cost at least the coach's mark.")
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["review", "step"]
        constraints = [
            models.UniqueConstraint(fields=["review", "step"], name="decision_once_a_step"),
        ]

    def __str__(self) -> str:
        return f"{self.review} step {self.step}: costs {self.cost:.1f}"

    @property
    def cost(self) -> float:
        return self.expected_chosen - self.expected_best


def group_name(code: str) -> str:
    """The channel-layer group every socket open on the table of ``code`` listens to."""
    return f"table-{code}"


def seated(
    code: str, *, lock: bool = False, skip_locked: bool = False
) -> tuple[Table, list[TableSeat]] | None:
    """The table of ``code`` and its seats, in one query (a table always has its host's
    seat); None for no such table. With ``lock``, the table's row stays locked until the
    transaction ends (``select_for_update``; SQLite locks the whole database on the write);
    with ``skip_locked`` too, a row another transaction holds is None, at once, instead of
    waited for (PostgreSQL: SQLite has one writer anyway)."""
    rows = TableSeat.objects.select_related("table").filter(table__code=code)
    if lock:
        rows = rows.select_for_update(of=("table",), skip_locked=skip_locked)
    seats = list(rows)
    if not seats:
        return None
    table = seats[0].table
    for seat in seats:
        seat.table = table  # one table object for all its seats
    return table, seats


@dataclass
class Version:
    """What a table's move log gives at one version: the game, and the regions drawn from
    it, each under a key that holds everything else the drawing shows."""

    number: int
    game: Game | None
    drawn: dict[tuple, Any] = field(default_factory=dict)
    # Pieces drawn from their key alone (Table.drawn_whole): this version's, and the
    # version's before, whose pieces a view of this one may take again.
    whole: dict[tuple, str] = field(default_factory=dict)
    before: dict[tuple, str] = field(default_factory=dict)


class _Versions:
    """The one in-process cache: each table's latest version read here (games.models.Version).

    Every socket of a table draws the game after each move: replaying a match from its
    first line costs tens of milliseconds by the last round, and drawing the board, the
    same for every seat, several milliseconds more. So the game of the latest version is
    kept, and only the log's lines since are read; and a region drawn from it is kept under
    a key of everything else it shows (the names, the seats as read), so that it is reused
    only for exactly what it showed. An entry comes from committed move rows (or from a
    service, once its transaction has committed), so it never disagrees with the database.
    Keyed by the table's code, which no other table is ever given (a primary key can come
    round again after a rolled-back transaction).
    """

    TABLES = 4096  # the tables a process keeps, the least recently used dropped

    def __init__(self) -> None:
        self._lock = threading.Lock()  # sockets' and services' threads share it
        self._latest: OrderedDict[str, Version] = OrderedDict()

    def at(self, table: Table) -> Version:
        with self._lock:
            kept = self._latest.get(table.code, BEFORE_THE_START)
        if kept.number == table.version:
            return kept
        if kept.number > table.version:  # a row read before a commit this process has seen
            kept = BEFORE_THE_START
        replayer = Replayer(kept.game)
        moves = Move.objects.filter(table=table, version__gt=kept.number)
        moves = moves.filter(version__lte=table.version).order_by("number")
        for record in moves.values_list("record", flat=True):
            replayer.feed(record)
        return self.keep(table.code, table.version, replayer.game)

    def held(self, code: str) -> Version | None:
        with self._lock:
            return self._latest.get(code)

    def keep(self, code: str, number: int, game: Game | None) -> Version:
        version = Version(number, game)
        with self._lock:
            kept = self._latest.get(code)
            if kept is None or kept.number < number:
                if kept is not None:
                    version.before = kept.whole
                self._latest[code] = version
            self._latest.move_to_end(code)
            while len(self._latest) > self.TABLES:
                self._latest.popitem(last=False)
        return version


BEFORE_THE_START = Version(0, None)  # a table's version 0: a lobby, with no move yet
_versions = _Versions()


def kept_game(code: str, version: int) -> Game | None:
    """The game of a table at ``version`` if this process holds it (no read needed), else
    None."""
    kept = _versions.held(code)
    return kept.game if kept is not None and kept.number == version else None


def kept(code: str, version: int, key: tuple, build: Callable[[], T]) -> T:
    """What ``build`` gives (under a ``key`` of all it depends on) for the table at
    ``version``, built once while this process holds that version: the rows an announcement
    carries, which every socket of the table draws from. Building them for each socket was
    a twentieth of a busy process's time (benchmarks/load.py --profile)."""
    held = _versions.held(code)
    if held is None or held.number != version:
        return build()
    return _once(held.drawn, key, build)


def _once(drawn: dict[tuple, Any], key: tuple, build: Callable[[], T]) -> T:
    """``drawn[key]``, built the first time it is asked for."""
    if key not in drawn:
        if len(drawn) >= 64:  # people coming and going at one version: start afresh
            drawn.clear()
        drawn[key] = build()
    return drawn[key]


def keep_game(code: str, version: int, game: Game | None) -> None:
    """Keep the game a service has just written at a table's version: call it once the
    transaction has committed, never before (a rolled-back state must never be served)."""
    _versions.keep(code, version, game)


# The alerts' rows (a seat's alerts, push subscriptions, a table's nudge), registered here
# with the rest of the app's models.
from games.alerts.models import PushSubscription, SeatAlerts, TableNudge  # noqa: E402, F401

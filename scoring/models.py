"""Score sheets: players, matches and their seats, rounds, entries and the history of changes.

An entry stores what was entered (went out, the tiles held, or pips and doubles), never a
score: scores and totals are derived through games.engine.scoring every time, so changing a
house rule recomputes the whole match. Every change to an entry or a setting is kept in
``Change``, so nothing entered is ever lost. The same Match serves an online table, which
records each round's hands through the services module.
"""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from games.engine.rules import MAX_PLAYERS, Rules, RulesError, describe

from .entries import BLANK, COUNT, OUT, TILES, EntryValue

NAME_LENGTH = 40


def new_code() -> str:
    """A link secret: whoever has it can reach the match, so it is unguessable."""
    return secrets.token_urlsafe(9)


def default_rules() -> dict:
    return Rules().to_dict()


def validate_rules(value: object) -> None:
    """Stored settings must load as the engine's Rules: one rules object, never a near-copy."""
    try:
        Rules.from_dict(value)  # type: ignore[arg-type]
    except (RulesError, TypeError) as error:
        raise ValidationError(f"Invalid rules: {error}") from error


class Player(models.Model):
    """Somebody who sits at matches; remembered by the devices that played with them."""

    name = models.CharField(max_length=NAME_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = "player"
        verbose_name_plural = "players"

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    """One match: a score sheet kept at a real table, or an online table's record."""

    class Kind(models.TextChoices):
        SHEET = "sheet", "Score sheet"
        ONLINE = "online", "Online table"

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SHEET)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    code = models.CharField(
        "join code",
        max_length=16,
        unique=True,
        default=new_code,
        help_text="Secret of the join link.",
    )
    viewer_code = models.CharField(
        max_length=16, unique=True, default=new_code, help_text="Secret of the read-only link."
    )
    rules = models.JSONField(default=default_rules, validators=[validate_rules])
    created_by = models.CharField(max_length=NAME_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    players = models.ManyToManyField(Player, through="Seat", related_name="matches")

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "match"
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["sheet", "online"]), name="match_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["in_progress", "finished"]), name="match_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.code} ({self.created_at:%Y-%m-%d})"

    def get_rules(self) -> Rules:
        return Rules.from_dict(self.rules)


class Seat(models.Model):
    """A player's place at a match; columns of the sheet run in seat order."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0 is the first seat.")
    bot = models.CharField(
        max_length=10, blank=True, help_text="The bot's level at an online table; blank: a person."
    )

    class Meta:
        ordering = ["match", "position"]
        verbose_name = "seat"
        verbose_name_plural = "seats"
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
            models.CheckConstraint(
                condition=Q(position__lt=MAX_PLAYERS), name="seat_position_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} (seat {self.position + 1})"


class Round(models.Model):
    """A round of a match, created when its first entry arrives. Its double is not stored:
    it follows from the rules (changing the rounds to play re-labels every round)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(help_text="1 is the first round.")

    class Meta:
        ordering = ["match", "number"]
        verbose_name = "round"
        verbose_name_plural = "rounds"
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.match.code}"


class Entry(models.Model):
    """What was entered for one seat in one round; a blank entry is a cleared cell."""

    class Kind(models.TextChoices):
        BLANK = BLANK, "Blank"
        OUT = OUT, "Went out"
        COUNT = COUNT, "Pips counted"
        TILES = TILES, "Tiles picked"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="entries")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.BLANK)
    pips = models.PositiveIntegerField(null=True, blank=True)
    doubles = models.PositiveSmallIntegerField(default=0)
    double_blank = models.BooleanField("double-blank held", default=False)
    blanks = models.PositiveSmallIntegerField(
        "blank halves", default=0, help_text="On tiles other than the double-blank."
    )
    on_double = models.BooleanField("went out on a double", default=False)
    tiles = models.JSONField(null=True, blank=True, help_text="[[low, high], ...]")
    version = models.PositiveIntegerField(
        default=0, help_text="Goes up with every change; an edit based on an older one is stale."
    )
    entered_by = models.CharField(max_length=NAME_LENGTH, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "seat__position"]
        verbose_name = "entry"
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="entry_one_per_seat_and_round"),
            models.CheckConstraint(condition=Q(pips__gte=0), name="entry_pips_not_negative"),
            models.CheckConstraint(
                condition=Q(kind=COUNT, pips__isnull=False, tiles__isnull=True)
                | Q(kind=TILES, pips__isnull=True, tiles__isnull=False, doubles=0)
                | Q(kind__in=[BLANK, OUT], pips__isnull=True, tiles__isnull=True, doubles=0),
                name="entry_fields_match_kind",
            ),
            models.CheckConstraint(
                condition=Q(double_blank=False) | Q(kind=COUNT, doubles__gte=1),
                name="entry_double_blank_is_a_double",
            ),
            models.CheckConstraint(
                condition=Q(blanks=0) | Q(kind=COUNT), name="entry_blanks_only_counted"
            ),
            models.CheckConstraint(
                condition=Q(on_double=False) | Q(kind=OUT), name="entry_on_double_only_out"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat.player.name}, round {self.round.number}: {self.value}"

    @property
    def value(self) -> EntryValue:
        return EntryValue(
            kind=self.kind,
            pips=self.pips,
            doubles=self.doubles,
            double_blank=self.double_blank,
            tiles=tuple(tuple(t) for t in self.tiles) if self.tiles is not None else None,
            blanks=self.blanks,
            on_double=self.on_double,
        )

    @value.setter
    def value(self, value: EntryValue) -> None:
        self.kind = value.kind
        self.pips = value.pips
        self.doubles = value.doubles
        self.double_blank = value.double_blank
        self.blanks = value.blanks
        self.on_double = value.on_double
        self.tiles = [list(t) for t in value.tiles] if value.tiles is not None else None


class Change(models.Model):
    """One change to an entry or a setting: who, when, old -> new. Never edited or deleted;
    an undo is a new change that points at the one it reverses."""

    class Kind(models.TextChoices):
        ENTRY = "entry", "Entry"
        SETTING = "setting", "Setting"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="history"
    )
    setting = models.CharField(max_length=40, blank=True, help_text="A field of the Rules.")
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    by = models.CharField(max_length=NAME_LENGTH)
    at = models.DateTimeField(auto_now_add=True)
    client_id = models.UUIDField(
        null=True, blank=True, help_text="Sent with an edit, so a retry applies once."
    )
    undoes = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="undone_by"
    )

    class Meta:
        ordering = ["match", "pk"]
        verbose_name = "change"
        verbose_name_plural = "history of changes"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="entry", entry__isnull=False, setting="")
                | Q(kind="setting", entry__isnull=True) & ~Q(setting=""),
                name="change_names_what_changed",
            ),
            # A phone's id marks a retry within its match; the same id at another match is
            # that match's own edit, never a reason to drop it.
            models.UniqueConstraint(
                fields=["match", "client_id"], name="change_client_id_unique_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.by} at {self.at:%Y-%m-%d %H:%M}: {self.describe()}"

    def describe(self) -> str:
        """One line a person reads: ``Double-blank is worth 50`` or
        ``Round 2, Alice: blank -> 13 pips``."""
        if self.kind == self.Kind.SETTING:
            return describe(self.setting, self.new)
        old, new = EntryValue.from_json(self.old), EntryValue.from_json(self.new)
        where = f"Round {self.entry.round.number}, {self.entry.seat.player.name}"
        return f"{where}: {old} → {new}"

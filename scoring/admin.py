"""Staff review of past matches, as far as their score sheets go: any match has one,
whether kept at a real table or by an online table.

The match list shows who played what and who won; a match's page shows its seats, rules,
score sheet and history of changes. Everything here reads: a sheet changes on the sheet,
which records who changed what. What only an online match has (its table, move log, replay
and game record, and bots in the statistics) is added by ``games.admin``, which registers
its subclasses of these classes in their place. The work itself is in ``scoring.review``;
these classes only ask and lay out.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string

from games.engine.rules import PRESETS, VARIANTS, describe
from games.engine.tiles import SUPPORTED_SETS

from . import review
from .models import Change, Entry, Match, Player, Seat

# -- the match list's filters -------------------------------------------------------------


class SetFilter(admin.SimpleListFilter):
    title = "set"
    parameter_name = "set"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return [(str(top), f"double-{top}") for top in SUPPORTED_SETS]

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value():
            return queryset.filter(rules__highest_double=int(self.value()))
        return queryset


def _is_preset(name: str) -> Q:
    """Matches whose rules are the preset ``name`` on any set (as ``review.preset_of``)."""
    settings = PRESETS[name].to_dict()
    del settings["highest_double"]
    return Q(**{f"rules__{setting}": value for setting, value in settings.items()})


class PresetFilter(admin.SimpleListFilter):
    title = "preset"
    parameter_name = "preset"
    HOUSE = "house"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return [(name, name) for name in PRESETS] + [(self.HOUSE, "none (house rules)")]

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == self.HOUSE:
            for name in PRESETS:
                queryset = queryset.exclude(_is_preset(name))
            return queryset
        if self.value() in PRESETS:
            return queryset.filter(_is_preset(self.value()))
        return queryset


class VariantFilter(admin.SimpleListFilter):
    title = "variant"
    parameter_name = "variant"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return [(v, describe("variant", v).removeprefix("Variant ")) for v in VARIANTS]

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value():
            return queryset.filter(rules__variant=self.value())
        return queryset


class PersonFilter(admin.SimpleListFilter):
    """The matches one person sat at, by their Player's id (``?person=12``): two people may
    share a name, and there are far too many people to list them all beside the matches.
    A person's page links here; the filter names the person while it is on."""

    title = "person"
    parameter_name = "person"

    def person(self) -> int | None:
        value = self.value()
        return int(value) if value and value.isdigit() else None

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        chosen = Player.objects.filter(pk=self.person()).first() if self.person() else None
        return [(str(chosen.pk), f"{chosen.name} (#{chosen.pk})")] if chosen else []

    def has_output(self) -> bool:
        """Shown, and so applied, whenever the address names somebody: the changelist
        drops a filter it does not show, and would list every match for a person gone."""
        return bool(self.value())

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value():
            return queryset.filter(seats__player_id=self.person() or 0)
        return queryset


# -- a match's page ------------------------------------------------------------------------


class ReadOnlyInline(admin.TabularInline):
    """Rows shown as they are: what people did is never edited here."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["position", "player"]
    readonly_fields = fields


class ChangeInline(ReadOnlyInline):
    """Every change, oldest first, in words: who, when, what."""

    model = Change
    fields = ["at", "by", "what", "reverses"]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Change]:
        return (
            super()
            .get_queryset(request)
            .select_related(
                "entry__round",
                "entry__seat__player",
                "undoes__entry__round",
                "undoes__entry__seat__player",
            )
        )

    @admin.display(description="change")
    def what(self, change: Change) -> str:
        return change.describe()

    @admin.display(description="undoes")
    def reverses(self, change: Change) -> str:
        return change.undoes.describe() if change.undoes else ""


class MatchChangeInline(ChangeInline):
    fk_name = "match"
    verbose_name_plural = "history of entries and settings"


class EntryChangeInline(ChangeInline):
    fk_name = "entry"
    verbose_name_plural = "history of this entry"


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "date",
        "player_names",
        "rules_summary",
        "status",
        "winner_names",
        "rounds_played",
    ]
    list_filter = ["status", SetFilter, PresetFilter, VariantFilter, PersonFilter, "created_at"]
    search_fields = ["seats__player__name", "code", "viewer_code", "created_by"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, MatchChangeInline]
    readonly_fields = ["links", "rules_in_full", "score_sheet"]
    fieldsets = [
        (None, {"fields": ["status", "created_by", "created_at", "updated_at"]}),
        ("Review", {"fields": ["links"]}),
        ("Rules", {"fields": ["rules_in_full"]}),
        ("Score sheet", {"fields": ["score_sheet"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        """One query for the rows and a few for what every row derives its sheet from,
        however many rows there are."""
        return super().get_queryset(request).prefetch_related(*review.SHEET_PREFETCH)

    # Matches are made by the sheet and the tables (or by importing a game record), and
    # change only there, where each change is recorded.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False

    # -- columns ----------------------------------------------------------------------------

    @admin.display(description="date", ordering="created_at")
    def date(self, match: Match) -> datetime:
        return match.created_at

    @admin.display(description="players")
    def player_names(self, match: Match) -> str:
        return ", ".join(seat.player.name for seat in match.seats.all())

    @admin.display(description="rules", ordering="rules__highest_double")
    def rules_summary(self, match: Match) -> str:
        return review.rules_summary(match.get_rules())

    @admin.display(description="winner(s)")
    def winner_names(self, match: Match) -> str | None:
        sheet = review.sheet_of(match)
        return " and ".join(sheet.seats[seat].player.name for seat in sheet.winners) or None

    @admin.display(description="rounds played")
    def rounds_played(self, match: Match) -> int:
        return review.sheet_of(match).rounds_scored

    # -- the match's page -------------------------------------------------------------------

    @admin.display(description="links")
    def links(self, match: Match) -> str:
        return render_to_string("admin/scoring/match/sheet_link.html", {"match": match})

    @admin.display(description="rules")
    def rules_in_full(self, match: Match) -> str:
        rules = match.get_rules()
        context = {"summary": review.rules_summary(rules), "lines": review.rules_lines(rules)}
        return render_to_string("admin/scoring/match/rules.html", context)

    @admin.display(description="score sheet")
    def score_sheet(self, match: Match) -> str:
        sheet = review.sheet_of(match)
        winners = [seat.player.name for seat in sheet.seats if seat.position in sheet.winners]
        return render_to_string(
            "admin/scoring/match/sheet.html", {"sheet": sheet, "winners": winners}
        )


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "match_code", "kind", "version", "entered_by", "updated_at"]
    list_filter = ["kind", "round__match__kind"]
    search_fields = ["seat__player__name", "round__match__code", "entered_by"]
    list_select_related = ["round__match", "seat__player"]
    inlines = [EntryChangeInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        """Entries change on the sheet, which records who changed what; here they are read."""
        return False

    @admin.display(description="match", ordering="round__match__code")
    def match_code(self, entry: Entry) -> str:
        return entry.round.match.code

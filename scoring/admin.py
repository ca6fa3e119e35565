"""Staff review of past matches: over-the-table score sheets and online tables alike.

The match list shows who played what and who won; a match's page shows its seats, rules,
score sheet, history of changes and, for an online match, its move log in words. An online
match can be replayed action by action, exported as its game record, and a record (from a
bug report) imported as a read-only match. Everything here reads: a sheet changes on the
sheet, which records who changed what; a game is what its record says. The record work
itself is in ``games.review``; these classes only ask and lay out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games import review
from games.engine import RecordError
from games.engine.rules import PRESETS, VARIANTS, describe
from games.engine.tiles import SUPPORTED_SETS

from .models import NAME_LENGTH, Change, Entry, Match, Player, Seat

# -- the match list's filters -------------------------------------------------------------


class PlayedFilter(admin.SimpleListFilter):
    """Online or over the table, with imported records apart from matches played here."""

    title = "played"
    parameter_name = "played"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return [
            ("sheet", "Over the table (score sheet)"),
            ("online", "Online, played here"),
            ("imported", "Online, imported record"),
        ]

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == "sheet":
            return queryset.filter(kind=Match.Kind.SHEET)
        if self.value() == "online":
            return queryset.filter(kind=Match.Kind.ONLINE, table__imported=False)
        if self.value() == "imported":
            return queryset.filter(table__imported=True)
        return queryset


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
    fields = ["position", "player", "played_by"]
    readonly_fields = fields

    @admin.display(description="played by")
    def played_by(self, seat: Seat) -> str:
        table = review.table_of(seat.match)
        if table is None:
            return "a person at a real table"
        at_table = table.seats.get(position=seat.position)
        return f"the {at_table.bot_level} bot" if at_table.is_bot else "a person"


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


def page_context(
    model_admin: admin.ModelAdmin, request: HttpRequest, title: str, **extra: Any
) -> dict[str, Any]:
    """What an admin page of ours needs besides its own data: the site's header and
    sidebar, and the model for the breadcrumbs."""
    return {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": title,
        **extra,
    }


class RecordUploadForm(forms.Form):
    record = forms.FileField(
        label="Game record",
        help_text="A .jsonl file: an export from this admin, a bug report's attachment, or "
        "the simulator's --records output.",
    )

    def clean_record(self) -> str:
        upload = self.cleaned_data["record"]
        if upload.size > review.MAX_RECORD_BYTES:
            raise forms.ValidationError("This file is far larger than any game record.")
        try:
            return upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "This file is not text: a game record is JSON Lines (UTF-8)."
            ) from None


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "date",
        "player_names",
        "played",
        "rules_summary",
        "status",
        "winner_names",
        "rounds_played",
    ]
    list_filter = ["status", PlayedFilter, SetFilter, PresetFilter, VariantFilter, "created_at"]
    search_fields = ["seats__player__name", "code", "viewer_code", "table__code", "created_by"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, MatchChangeInline]
    readonly_fields = ["played", "links", "rules_in_full", "score_sheet", "move_log"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        """One query for the rows and a few for what every row derives its sheet from,
        however many rows there are."""
        return (
            super()
            .get_queryset(request)
            .select_related("table")
            .prefetch_related(*review.SHEET_PREFETCH)
        )

    def get_fieldsets(self, request: HttpRequest, obj: Match | None = None) -> list:
        fieldsets = [
            (None, {"fields": ["played", "status", "created_by", "created_at", "updated_at"]}),
            ("Review", {"fields": ["links"]}),
            ("Rules", {"fields": ["rules_in_full"]}),
            ("Score sheet", {"fields": ["score_sheet"]}),
        ]
        if obj is not None and review.table_of(obj) is not None:
            fieldsets.append(("Move log", {"fields": ["move_log"]}))
        return fieldsets

    # Matches are made by the sheet and the tables (or by importing a record, below), and
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

    @admin.display(description="played", ordering="kind")
    def played(self, match: Match) -> str:
        table = review.table_of(match)
        if table is not None and table.imported:
            return "Online table, imported"
        return match.get_kind_display()

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
        table = review.table_of(match)
        if table is None:
            viewer = reverse("scoring:viewer", args=[match.viewer_code])
            return format_html('<a href="{}">The read-only sheet</a>', viewer)
        export = reverse("admin:scoring_match_export", args=[match.pk])
        replays = format_html_join(
            " ",
            '<a href="{}">round {}</a>',
            (
                (reverse("admin:scoring_match_replay", args=[match.pk, number]), number)
                for number in review.rounds_in(review.records_of(match))
            ),
        )
        imported = (
            " Imported from a game record: read-only, never playable." if table.imported else ""
        )
        return format_html(
            'Table <a href="{}">{}</a>.{} <a href="{}">Export the game record</a> (JSON Lines). '
            "Replay: {}",
            reverse("admin:games_table_change", args=[table.pk]),
            table.code,
            imported,
            export,
            replays,
        )

    @admin.display(description="rules")
    def rules_in_full(self, match: Match) -> str:
        rules = match.get_rules()
        return format_html(
            "<p>{}</p><ul>{}</ul>",
            review.rules_summary(rules),
            format_html_join("", "<li>{}</li>", ((line,) for line in review.rules_lines(rules))),
        )

    @admin.display(description="score sheet")
    def score_sheet(self, match: Match) -> str:
        sheet = review.sheet_of(match)
        winners = [seat.player.name for seat in sheet.seats if seat.position in sheet.winners]
        return render_to_string(
            "admin/scoring/match/sheet.html", {"sheet": sheet, "winners": winners}
        )

    @admin.display(description="move log")
    def move_log(self, match: Match) -> str:
        records = review.records_of(match)
        chapters = review.move_log(records) if records else []
        return render_to_string(
            "admin/scoring/match/move_log.html", {"chapters": chapters, "match": match}
        )

    # -- replay, export and import ----------------------------------------------------------

    def get_urls(self) -> list:
        view = self.admin_site.admin_view
        return [
            path("import/", view(self.import_view), name="scoring_match_import"),
            path(
                "<path:object_id>/replay/<int:number>/",
                view(self.replay_view),
                name="scoring_match_replay",
            ),
            path(
                "<path:object_id>/record.jsonl",
                view(self.export_view),
                name="scoring_match_export",
            ),
            *super().get_urls(),
        ]

    def _viewable(self, request: HttpRequest, object_id: str) -> Match:
        match = self.get_object(request, unquote(object_id))
        if match is None:
            raise Http404("There is no match with that id.")
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        return match

    def _no_record(self, request: HttpRequest, match: Match) -> HttpResponseRedirect:
        self.message_user(
            request,
            "A score sheet kept at a real table has no game record: only online matches "
            "can be replayed or exported.",
            messages.WARNING,
        )
        return redirect("admin:scoring_match_change", match.pk)

    def replay_view(self, request: HttpRequest, object_id: str, number: int) -> HttpResponse:
        """Round ``number`` step by step, from the record alone. ``?step=`` picks the step;
        ``&frame=1`` answers the drawing of that step only, which the page's script swaps
        in, so a step costs one replay of the record and one small drawing."""
        match = self._viewable(request, object_id)
        records = review.records_of(match)
        if not records:
            return self._no_record(request, match)
        frames = review.round_frames(records, number)
        if not frames:
            raise Http404(f"This match never dealt a round {number}.")
        last = len(frames) - 1
        try:
            step = min(max(int(request.GET.get("step", 0)), 0), last)
        except ValueError:
            step = 0
        teller = review.Teller.of(records)
        frame = frames[step]
        context = page_context(
            self,
            request,
            f"Replay of round {number}",
            original=match,
            number=number,
            rounds=review.rounds_in(records),
            step=step,
            last=last,
            said=teller.tell(frame.record),
            picture=review.picture(frame.game, teller.names, teller.public_trains),
        )
        if request.GET.get("frame"):
            return TemplateResponse(request, "admin/scoring/match/replay_frame.html", context)
        return TemplateResponse(request, "admin/scoring/match/replay.html", context)

    def export_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._viewable(request, object_id)
        text = review.export_record(match)
        if not text:
            return self._no_record(request, match)
        response = HttpResponse(text, content_type="application/jsonl; charset=utf-8")
        filename = f"match-{match.pk}-{match.created_at:%Y-%m-%d}.jsonl"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a record; it opens as a read-only match only if it replays, and a record
        that does not is refused with its line and the rule it breaks."""
        if not request.user.has_perm("scoring.add_match"):
            raise PermissionDenied
        form = RecordUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            by = request.user.get_username()[:NAME_LENGTH]
            try:
                match = review.import_record(form.cleaned_data["record"], by=by)
            except RecordError as error:
                form.add_error("record", f"This record does not replay: {error}")
            else:
                self.message_user(request, "The record replays: here is its match.")
                return redirect("admin:scoring_match_change", match.pk)
        return TemplateResponse(
            request,
            "admin/scoring/match/import.html",
            page_context(self, request, "Import a game record", form=form),
        )

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None):
        can_import = request.user.has_perm("scoring.add_match")
        return super().changelist_view(request, {"can_import": can_import, **(extra_context or {})})


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]

    def get_urls(self) -> list:
        statistics = self.admin_site.admin_view(self.statistics_view)
        return [
            path("statistics/", statistics, name="scoring_player_statistics"),
            *super().get_urls(),
        ]

    def statistics_view(self, request: HttpRequest) -> HttpResponse:
        """Per person and per bot level, over the finished matches played here."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        people, bots = review.statistics(review.reviewed_matches())
        groups = [("People", people), ("Bots, by level", bots)]
        context = page_context(self, request, "Player statistics", groups=groups)
        return TemplateResponse(request, "admin/scoring/player/statistics.html", context)


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

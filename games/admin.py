"""Staff pages for online play: the tables, and the review of the matches played at them.

A table is found by the code in its link (a bug report usually gives one) and leads to its
match. Matches and players have their admin in ``scoring.admin``, which knows only score
sheets (scoring sits below games and knows nothing of tables). Here it is extended the way
Django's documentation extends ``UserAdmin``: subclassed, and the subclasses registered in
its place, with what only an online match has: how it was played (here, or an imported
record) and by whom (a person or which bot), its move log in words, its replay action by
action, the export of its game record, the import of a record (from a bug report) as a
read-only match, and statistics that count the bots by level. The URLs keep scoring's names
(``admin:scoring_match_replay``...), as they are the pages of scoring's models.

Everything here reads: a table changes only by being played, through ``games.services``, and
a game is what its record says. The record work itself is in ``games.review``; these classes
only ask and lay out.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from crews.admin import CrewFilter, merge_people_action
from crews.merging import is_bot
from games.engine import RecordError

# Imported by name so that scoring's classes are registered before they are replaced below,
# whichever of the two apps the admin's autodiscovery reaches first.
from scoring import admin as scoring_admin
from scoring.models import NAME_LENGTH, Match, Player, Seat
from scoring.review import SHEET_PREFETCH

from . import coach, review
from .models import Table, TableSeat


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    can_delete = False
    fields = ["position", "name", "kind", "bot_level", "stand_in", "joined_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["code", "status", "imported", "seat_names", "review", "created_at"]
    list_filter = ["status", "imported", "created_at"]
    search_fields = ["code", "seats__name"]
    fields = [
        "code",
        "status",
        "imported",
        "review",
        "seat_count",
        "seed",
        "deal_commitment",
        "deal_revealed",
        "first_seat",
        "version",
        "rematch_of",
        "rematch",
        "created_at",
        "updated_at",
    ]
    readonly_fields = fields
    inlines = [TableSeatInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).prefetch_related("seats")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False

    @admin.display(description="deal's secret")
    def deal_revealed(self, table: Table) -> str:
        """Shown once the match is over, as on the table's page: staff see no more of a
        deal under way than its players do."""
        if not table.deal_secret:
            return "none: dealt from the seed"
        return table.revealed_secret or "kept until the match ends"

    @admin.display(description="seats")
    def seat_names(self, table: Table) -> str:
        return ", ".join(seat.name for seat in table.seats.all())

    @admin.display(description="match")
    def review(self, table: Table) -> str:
        return render_to_string("admin/games/table_review_link.html", {"table": table})


# -- online matches: what scoring's match and player admin are extended with ---------------


class PlayedFilter(admin.SimpleListFilter):
    """Online or over the table, with imported records apart from matches played here, and
    the matches of tables closed for lack of play apart again (unfinished, never counted)."""

    title = "played"
    parameter_name = "played"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return [
            ("sheet", "Over the table (score sheet)"),
            ("online", "Online, played here"),
            ("imported", "Online, imported record"),
            ("abandoned", "Online, abandoned unfinished"),
        ]

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == "sheet":
            return queryset.filter(kind=Match.Kind.SHEET)
        if self.value() == "online":
            return queryset.filter(kind=Match.Kind.ONLINE, table__imported=False)
        if self.value() == "imported":
            return queryset.filter(table__imported=True)
        if self.value() == "abandoned":
            return queryset.filter(table__status=Table.Status.ABANDONED)
        return queryset


class SeatInline(scoring_admin.SeatInline):
    fields = [*scoring_admin.SeatInline.fields, "played_by"]
    readonly_fields = fields

    @admin.display(description="played by")
    def played_by(self, seat: Seat) -> str:
        table = review.table_of(seat.match)
        if table is None:
            return "a person at a real table"
        at_table = table.seats.get(position=seat.position)
        return f"the {at_table.bot_level} bot" if at_table.is_bot else "a person"


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


class MatchAdmin(scoring_admin.MatchAdmin):
    """Scoring's matches, with how each was played and, for an online one, its table, move
    log, replay and game record."""

    list_display = [
        "date",
        "player_names",
        "played",
        "rules_summary",
        "status",
        "winner_names",
        "rounds_played",
    ]
    list_filter = [
        "status",
        PlayedFilter,
        scoring_admin.SetFilter,
        scoring_admin.PresetFilter,
        scoring_admin.VariantFilter,
        CrewFilter,
        scoring_admin.PersonFilter,
        "created_at",
    ]
    search_fields = [*scoring_admin.MatchAdmin.search_fields, "table__code"]
    inlines = [SeatInline, scoring_admin.MatchChangeInline]
    readonly_fields = ["played", *scoring_admin.MatchAdmin.readonly_fields, "move_log"]
    fieldsets = [
        (None, {"fields": ["played", "status", "created_by", "created_at", "updated_at"]}),
        *scoring_admin.MatchAdmin.fieldsets[1:],
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        """Each row's table in the row's own query: the played column reads it for every row."""
        return super().get_queryset(request).select_related("table")

    def get_fieldsets(self, request: HttpRequest, obj: Match | None = None) -> list:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and review.table_of(obj) is not None:
            return [*fieldsets, ("Move log", {"fields": ["move_log"]})]
        return fieldsets

    # -- columns ----------------------------------------------------------------------------

    @admin.display(description="played", ordering="kind")
    def played(self, match: Match) -> str:
        table = review.table_of(match)
        if table is not None and table.imported:
            return "Online table, imported"
        if table is not None and table.status == Table.Status.ABANDONED:
            return "Online table, abandoned unfinished"
        return match.get_kind_display()

    # -- the match's page -------------------------------------------------------------------

    @admin.display(description="links")
    def links(self, match: Match) -> str:
        table = review.table_of(match)
        if table is None:
            return super().links(match)
        rounds = review.rounds_in(review.records_of(match))
        context = {"match": match, "table": table, "rounds": rounds}
        return render_to_string("admin/games/match_links.html", context)

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
        context["coach"] = coach.staff_review(review.table_of(match), number, teller)
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


class PlayerAdmin(scoring_admin.PlayerAdmin):
    """Scoring's players, with statistics that count the bots of online tables by level; a
    person's page lists their matches and their own statistics, and two people entered twice
    are merged into one from the list (the action is the crews' merge, which also moves their
    memberships and ratings)."""

    change_list_template = "admin/games/player_change_list.html"  # links the statistics
    list_display = ["name", "match_count", "created_at"]
    actions = [merge_people_action]
    fields = ["name", "created_at", "results", "matches_played"]
    readonly_fields = ["created_at", "results", "matches_played"]

    # The newest matches a person's page lists; the link under them lists every one.
    MATCHES_LISTED = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).annotate(seat_count=Count("seats"))

    @admin.display(description="matches", ordering="seat_count")
    def match_count(self, player: Player) -> str:
        url = reverse("admin:scoring_match_changelist") + f"?person={player.pk}"
        return format_html('<a href="{}">{}</a>', url, player.seat_count)

    @admin.display(description="matches")
    def matches_played(self, player: Player) -> str:
        """The newest matches, each a link to its review, and a link to the whole list."""
        matches = list(
            Match.objects.filter(seats__player=player)
            .prefetch_related(*SHEET_PREFETCH)
            .order_by("-created_at", "-pk")[: self.MATCHES_LISTED + 1]
        )
        context = {
            "player": player,
            "matches": matches[: self.MATCHES_LISTED],
            "more": len(matches) > self.MATCHES_LISTED,
            "all": reverse("admin:scoring_match_changelist") + f"?person={player.pk}",
        }
        return render_to_string("admin/scoring/player/matches.html", context)

    @admin.display(description="statistics")
    def results(self, player: Player) -> str:
        """Their tally as the statistics page counts it: finished matches played here."""
        people, _ = review.tallies(review.reviewed_matches().filter(seats__player=player))
        context = {"tally": people.get(player.pk), "bot": is_bot(player)}
        return render_to_string("admin/scoring/player/tally.html", context)

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


admin.site.unregister(Match)
admin.site.register(Match, MatchAdmin)
admin.site.unregister(Player)
admin.site.register(Player, PlayerAdmin)

"""Staff pages for crews: each crew with its members and seasons, the matches filed to it and
the ratings stored for it, and the merge of two people entered twice.

Crews, members, seasons and filings are made on the site (``crews.services``), where each
step keeps the crew consistent (a season numbered after the last, a member's name key, the
ratings worked out again after a filing). Here staff read them, correct what is only shown
(names, colours, who left), and delete: a crew's delete page lists, as Django's admin
always does, every member, season, filing and rating it takes with it; the matches
themselves stay, as score sheets and tables nobody owns.

A person's own page is scoring's Player admin as extended in ``games.admin``, which sits
above this app; it takes the merge action from here (:func:`merge_people_action`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from scoring.entries import Refused
from scoring.models import Match, Player

from .merging import MergePlan, merge_people, plan
from .models import Crew, CrewMatch, Member, Rating, Season
from .ratings import recompute


def crew_page(crew: Crew) -> str:
    """A link to the crew's own page, and to filing a match for it (staff may file one)."""
    return format_html(
        '<a href="{}">{}</a> · <a href="{}">file a match played without the crew</a>',
        reverse("crews:crew", kwargs={"code": crew.code}),
        crew.code,
        reverse("crews:file", kwargs={"code": crew.code}),
    )


class CrewFilter(admin.SimpleListFilter):
    """For scoring's match list (``games.admin`` adds it): the matches filed to a crew, or
    to none. Django's own related-field filter would hide itself, and drop the choice in
    the address, while there is a single crew."""

    title = "crew"
    parameter_name = "crew"
    NONE = "none"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        crews = [(str(pk), name) for pk, name in Crew.objects.values_list("pk", "name")]
        return [*crews, (self.NONE, "filed to no crew")] if crews else []

    def has_output(self) -> bool:
        return bool(self.lookup_choices) or bool(self.value())  # a choice made is applied

    def queryset(self, request, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == self.NONE:
            return queryset.filter(crew_filing__isnull=True)
        if self.value():
            crew = int(self.value()) if self.value().isdigit() else 0
            return queryset.filter(crew_filing__crew_id=crew)
        return queryset


class MemberInline(admin.TabularInline):
    """The crew's members as the crew page lists them; each opens on its own page."""

    model = Member
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ["player", "colour", "emoji", "joined_at", "left_at", "has_device"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Crew | None = None) -> bool:
        return False

    @admin.display(description="a device is them", boolean=True)
    def has_device(self, member: Member) -> bool:
        return bool(member.device)


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ["number", "name", "started_at", "matches"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Crew | None = None) -> bool:
        return False

    @admin.display(description="matches filed")
    def matches(self, season: Season) -> int:
        return season.filed.count()


@admin.register(Crew)
class CrewAdmin(admin.ModelAdmin):
    list_display = ["name", "page", "member_count", "created_at"]
    search_fields = ["name", "code", "members__player__name"]
    fields = ["name", "page", "created_at"]
    readonly_fields = ["page", "created_at"]
    inlines = [MemberInline, SeasonInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Crew]:
        return super().get_queryset(request).prefetch_related("members")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """A crew is made on the site, with its first season and its founder."""
        return False

    @admin.display(description="crew page")
    def page(self, crew: Crew) -> str:
        return crew_page(crew)

    @admin.display(description="members")
    def member_count(self, crew: Crew) -> int:
        return len(crew.members.all())


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    """A member as shown on the crew page. Who they are (the person, the crew, the name key
    joining compares) stays: a person entered twice is merged from the players' list."""

    list_display = ["player", "crew", "colour", "emoji", "joined_at", "left_at"]
    list_filter = ["crew"]
    list_select_related = ["player", "crew"]
    search_fields = ["player__name", "crew__name"]
    fields = [
        "crew",
        "player",
        "name_key",
        "colour",
        "emoji",
        "joined_at",
        "left_at",
        "device",
        "claimed_by",
        "claimed_at",
    ]
    readonly_fields = ["crew", "player", "name_key", "joined_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["__str__", "crew", "number", "started_at"]
    list_filter = ["crew"]
    list_select_related = ["crew"]
    fields = ["crew", "number", "name", "started_at"]
    readonly_fields = ["crew", "number", "started_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """A season follows the crew's last one, from the crew page."""
        return False


@admin.register(CrewMatch)
class CrewMatchAdmin(admin.ModelAdmin):
    """Which match counts for which crew. A filing is read here and may be deleted (the
    match then counts for nobody, and its season's ratings are worked out again); filing
    a match is done from the crew page, which seats its members."""

    list_display = ["match", "crew", "season", "filed_by", "filed_at"]
    list_filter = ["crew", "season"]
    list_select_related = ["match", "crew", "season"]
    search_fields = ["crew__name", "match__code", "match__seats__player__name"]
    fields = ["crew", "season", "match", "filed_by", "filed_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: CrewMatch | None = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: CrewMatch) -> None:
        with transaction.atomic():
            super().delete_model(request, obj)
            recompute(obj.season)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[CrewMatch]) -> None:
        seasons = list(Season.objects.filter(filed__in=queryset).distinct())
        with transaction.atomic():
            super().delete_queryset(request, queryset)
            for season in seasons:
                recompute(season)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Stored ratings, always what ``crews.ratings.recompute`` gives: read, never typed.
    Deleting stays allowed only so that a crew's delete page may take them with it."""

    list_display = ["player", "season", "crew", "ordinal_shown", "mu", "sigma", "matches"]
    list_filter = ["season__crew", "season"]
    list_select_related = ["player", "season__crew"]
    search_fields = ["player__name", "season__crew__name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Rating | None = None) -> bool:
        return False

    @admin.display(description="crew", ordering="season__crew__name")
    def crew(self, rating: Rating) -> Crew:
        return rating.season.crew

    @admin.display(description="rating (mu - 3 sigma)")
    def ordinal_shown(self, rating: Rating) -> str:
        return f"{rating.ordinal:.1f}"


# -- merging two people: an action of the players' list ------------------------------------

MERGE_TEMPLATE = "admin/crews/merge_people.html"


@admin.action(description="Merge the two selected people into one", permissions=["change"])
def merge_people_action(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Player]
) -> HttpResponse | None:
    """Django's own pattern for an action that needs a second look (``delete_selected``):
    the first post shows what each way of merging would move; the confirmation posts the
    same selection back with ``post`` and which person stays, and the merge is done."""
    chosen = list(queryset.order_by("pk")[:3])
    if len(chosen) != 2:
        modeladmin.message_user(
            request, "Select exactly two people to merge them.", messages.WARNING
        )
        return None
    if request.POST.get("post"):
        return _merge(modeladmin, request, chosen)
    ways: list[tuple[Player, Player, MergePlan | None, str]] = []
    for keep, gone in (chosen, chosen[::-1]):
        try:
            ways.append((keep, gone, plan(keep, gone), ""))
        except Refused as refused:
            ways.append((keep, gone, None, str(refused)))
    if not any(way[2] for way in ways):
        modeladmin.message_user(request, ways[0][3], messages.ERROR)
        return None
    context: dict[str, Any] = {
        **modeladmin.admin_site.each_context(request),
        "title": "Merge two people",
        "opts": modeladmin.opts,
        "ways": ways,
        "chosen": chosen,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "action": request.POST.get("action", "merge_people_action"),
    }
    return TemplateResponse(request, MERGE_TEMPLATE, context)


def _merge(
    modeladmin: admin.ModelAdmin, request: HttpRequest, chosen: list[Player]
) -> HttpResponse | None:
    """The confirmed merge, logged as the admin logs its own changes: a change of the person
    who stays, with the sentence that says what moved, and the deletion of the other."""
    by_id = {p.pk: p for p in chosen}
    try:
        keep = by_id[int(request.POST.get("keep", ""))]
    except (KeyError, ValueError):
        modeladmin.message_user(request, "Pick which person stays.", messages.ERROR)
        return None
    gone = next(p for p in chosen if p.pk != keep.pk)
    try:
        with transaction.atomic():
            modeladmin.log_deletions(request, [gone])  # before the row goes, as Django asks
            report = merge_people(keep, gone, by=request.user.get_username())
            modeladmin.log_change(request, keep, report.message)
    except Refused as refused:
        modeladmin.message_user(request, str(refused), messages.ERROR)
        return None
    modeladmin.message_user(request, report.message, messages.SUCCESS)
    return None

"""Staff pages for online tables: find a table by the code in its link (a bug report
usually gives one) and go to its match, where the review is (scoring's match admin: the
move log, the replay, the record's export). Read-only: a table changes only by being
played, through ``games.services``.
"""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

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
        "first_seat",
        "version",
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

    @admin.display(description="seats")
    def seat_names(self, table: Table) -> str:
        return ", ".join(seat.name for seat in table.seats.all())

    @admin.display(description="match")
    def review(self, table: Table) -> str:
        if table.match_id is None:
            return "not started"
        url = reverse("admin:scoring_match_change", args=[table.match_id])
        return format_html('<a href="{}">Review the match</a>', url)

"""The admin shows matches and deals read-only: changes go through the rules (the services)."""

from django.contrib import admin
from django.http import HttpRequest

from scorekeeper.models import Deal, Match, MatchSeat, Player


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchSeat
    fields = readonly_fields = ["seat", "player"]
    extra = 0


class DealInline(ReadOnlyMixin, admin.TabularInline):
    model = Deal
    fields = readonly_fields = ["number", "data", "updated"]
    extra = 0
    show_change_link = True


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "game", "owner", "status", "deal_count", "totals", "created", "updated"]
    list_filter = ["game", "status"]
    search_fields = ["owner__username", "players__name"]
    date_hierarchy = "created"
    inlines = [SeatInline, DealInline]
    list_select_related = ["owner"]


@admin.register(Deal)
class DealAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["match", "number", "updated"]
    list_filter = ["match__game"]
    list_select_related = ["match"]


@admin.register(Player)
class PlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "owner", "created"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["owner"]

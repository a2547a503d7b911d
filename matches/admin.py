"""Admin: browse everything; results change only through the services (the report views of the
site and API), so match status, scores and reports are read-only here."""

from django.contrib import admin

from . import hooks
from .models import Game, ImportFile, ImportJob, Match, Player, RatingChange, Report, Side
from .selectors.directory import player_search


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "country", "contexts", "rating", "experience", "user")
    search_fields = ("display_name", "user__username", "user__email")
    list_filter = ("country",)
    readonly_fields = ("rating", "experience")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*hooks.player_joins())

    def get_search_results(self, request, queryset, search_term):
        # The name as the directory finds it too: "stefan" finds "Ștefan" (the stored search key).
        found, duplicates = super().get_search_results(request, queryset, search_term)
        if search_term.strip():
            found = found | queryset.filter(pk__in=player_search(queryset, search_term).values("pk"))
        return found, duplicates

    @admin.display(description="club")
    def contexts(self, player) -> str:
        # The home club is held by clubs (clubs.HomeClub, in its own admin): shown through the hooks.
        return ", ".join(text for _, text in hooks.describe_player(player))


@admin.register(Side)
class SideAdmin(admin.ModelAdmin):
    list_display = ("__str__", "roller")
    raw_id_fields = ("player_a", "player_b")


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    can_delete = False
    fields = ("number", "score0", "score1", "crawford", "winner", "points", "cube", "ending")
    readonly_fields = fields


class ReportInline(admin.TabularInline):
    model = Report
    extra = 0
    can_delete = False
    fields = ("side", "reporter", "score0", "score1", "status", "statement", "contest_statement", "created_at")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "score0", "score1", "contexts", "created_at")
    list_filter = ("status", "length")
    search_fields = ("side0__player_a__display_name", "side1__player_a__display_name")
    raw_id_fields = ("side0", "side1", "organiser", "created_by")
    readonly_fields = ("status", "score0", "score1", "winner", "confirmed_at", "source_hash")
    inlines = [GameInline, ReportInline]

    def get_queryset(self, request):
        # The contexts' joins are known once the apps above registered them (after the admin loads).
        return super().get_queryset(request).select_related(
            "side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b", *hooks.match_joins())

    @admin.display(description="event")
    def contexts(self, match) -> str:
        # An event's or a club's link to its matches is in that app's own admin (EventMatch, ClubMatch).
        return ", ".join(text for _, text in hooks.describe(match))


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("player", "match", "rating_before", "rating_after", "created_at")
    raw_id_fields = ("player", "match")

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ("pk", "owner", "status", "done", "total", "created_at")


@admin.register(ImportFile)
class ImportFileAdmin(admin.ModelAdmin):
    list_display = ("name", "job", "status", "match")
    exclude = ("content",)

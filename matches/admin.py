"""Admin: browse everything; results change only through the services (the report views of the
site and API), so match status, scores and reports are read-only here."""

from django.contrib import admin

from .models import Game, ImportFile, ImportJob, Match, Player, RatingChange, Report, Side


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "country", "club", "rating", "experience", "user")
    search_fields = ("display_name", "user__username", "user__email")
    list_filter = ("club", "country")
    readonly_fields = ("rating", "experience")


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
    fields = ("side", "reporter", "score0", "score1", "status", "statement", "created_at")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "score0", "score1", "event", "created_at")
    list_filter = ("status", "length", "event")
    search_fields = ("side0__player_a__display_name", "side1__player_a__display_name")
    raw_id_fields = ("side0", "side1", "event", "organiser", "created_by")
    readonly_fields = ("status", "score0", "score1", "winner", "confirmed_at", "source_hash")
    inlines = [GameInline, ReportInline]
    list_select_related = ("side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b", "event")


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

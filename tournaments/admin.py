"""Admin: browse events; draws, pairings and results change only through the services."""

from django.contrib import admin

from .models import BoardMatch, BoardOrder, Entry, EventMatch, Pairing, Round, Team, TeamMember, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("side", "team")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "kind", "status", "organiser", "club", "starts_on")
    list_filter = ("format", "kind", "status")
    readonly_fields = ("status", "draw_seed", "drawn_at")
    inlines = [EntryInline]


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 0
    raw_id_fields = ("player",)
    exclude = ("tournament",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "captain")
    raw_id_fields = ("captain",)
    inlines = [TeamMemberInline]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("key", "tournament", "flight", "round_number", "entry0", "entry1", "length", "match")
    list_filter = ("tournament",)
    readonly_fields = ("key", "flight", "round_number", "entry0", "entry1", "length", "match")


admin.site.register(Round)
admin.site.register(BoardMatch)
admin.site.register(BoardOrder)


@admin.register(EventMatch)
class EventMatchAdmin(admin.ModelAdmin):
    """The matches of each event (the event holds the link: a match names no event)."""

    list_display = ("match", "tournament")
    list_filter = ("tournament",)
    raw_id_fields = ("match", "tournament")
    list_select_related = ("match__side0__player_a", "match__side1__player_a", "tournament")

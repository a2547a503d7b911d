"""Django's admin for clubs. A club's details are edited here; its memberships, seasons, nights and
check-ins are shown read-only: every change of them goes through the services, which keep the
last owner and write the audit log."""

from django.contrib import admin

from .models import CheckIn, Club, ClubMatch, ClubNight, HomeClub, Membership, Season


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user", "role", "status", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "open_to_requests", "created_at")
    search_fields = ("name", "city")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "player", "role", "status", "joined_at")  # player: a walk-in's guest
    list_filter = ("role", "status")
    search_fields = ("club__name", "user__username", "player__display_name")
    list_select_related = ("club", "user", "player")


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("club", "name", "starts_on", "ends_on")
    list_select_related = ("club",)


@admin.register(ClubNight)
class ClubNightAdmin(ReadOnlyAdmin):
    list_display = ("club", "date", "title", "status")
    list_filter = ("status",)
    list_select_related = ("club",)


@admin.register(CheckIn)
class CheckInAdmin(ReadOnlyAdmin):
    list_display = ("night", "player", "at")
    list_select_related = ("night__club", "player")


@admin.register(HomeClub)
class HomeClubAdmin(ReadOnlyAdmin):
    """Players' home clubs (set and cleared by the membership services)."""

    list_display = ("player", "club")
    list_filter = ("club",)
    list_select_related = ("player", "club")


@admin.register(ClubMatch)
class ClubMatchAdmin(ReadOnlyAdmin):
    """The clubs' matches and the nights they were played at."""

    list_display = ("match", "club", "night")
    list_filter = ("club",)
    list_select_related = ("match__side0__player_a", "match__side1__player_a", "club", "night")

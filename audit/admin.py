"""Admin: staff read the audit log; nobody (staff and superusers included) adds, changes or
deletes an entry here. The model and a PostgreSQL trigger refuse it anyway."""

from __future__ import annotations

from django.contrib import admin

from .models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "actor_name", "action", "object_type", "object_id", "tournament_id", "match_id")
    list_filter = ("action", "tournament_id")
    search_fields = ("actor_name", "object_type", "=object_id", "action")
    date_hierarchy = "at"
    fields = ("at", "actor_id", "actor_name", "action", "object_type", "object_id", "tournament_id", "match_id",
              "club_id", "before", "after", "note")
    readonly_fields = fields

    # Staff use the admin for everything: being staff is enough to read the log.
    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request):
        # Not even "delete selected": the queryset would refuse it, the admin should not offer it.
        return {}

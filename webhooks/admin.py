"""Admin: staff see the webhooks and their delivery logs, read-only (a subscription changes only
through webhooks.services, audited; its secret is never shown here)."""

from __future__ import annotations

from django.contrib import admin

from .models import Delivery, Subscription


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_module_permission(self, request):
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Subscription)
class SubscriptionAdmin(ReadOnlyAdmin):
    list_display = ("id", "url", "tournament", "club", "owner", "on_results", "on_pairings", "on_rulings", "active")
    list_filter = ("active",)
    exclude = ("secret",)


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = ("id", "subscription", "event", "status", "attempts", "last_status_code", "created_at")
    list_filter = ("status", "event")

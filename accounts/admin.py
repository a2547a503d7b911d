from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from rest_framework.authtoken.models import TokenProxy

from .models import ApiToken, User

# DRF's tokens are not used (accounts.models.ApiToken is; the migration moved them): their admin
# page would list an empty table that looks like the real one.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(User)
class CrawfordUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Crawford", {"fields": ("role",)}))
    list_display = ("username", "email", "role", "is_staff")
    list_filter = ("role", "is_staff")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """His tokens, to revoke one (delete it); never their keys, which are not stored."""

    list_display = ("user", "name", "created_at", "last_used_at")
    search_fields = ("user__username", "name")
    readonly_fields = ("user", "name", "key_digest", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.db import transaction
from rest_framework.authtoken.models import TokenProxy

from .models import ApiToken, User
from .services import user_credentials_revoke

# DRF's tokens are not used (accounts.models.ApiToken is; the migration moved them): their admin
# page would list an empty table that looks like the real one.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


class RevokingPasswordChangeForm(AdminPasswordChangeForm):
    """Staff setting a user's password in the admin ends his tokens and sessions, as his own change
    of it does (accounts.services.user_credentials_revoke): whoever held the old one holds nothing."""

    def save(self, commit=True):
        with transaction.atomic():
            user = super().save(commit=commit)
            if commit:
                user_credentials_revoke(user=user, reason="password_changed")
        return user


@admin.register(User)
class CrawfordUserAdmin(UserAdmin):
    change_password_form = RevokingPasswordChangeForm
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

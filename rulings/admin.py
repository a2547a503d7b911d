"""Admin: staff browse disputes, rulings and appeals (the audit log's admin is audit/admin.py).

Staff use the Django admin for everything, so here being staff is enough to see these models (no
per-model permission to grant). What may change here is narrow on purpose:

- rulings, votes and statements are read-only: a ruling changes a score, a bracket or an entry
  only through ``rulings.services`` (which apply it, record what it changed and audit it), and a
  vote decides an appeal only through them; editing the row here would change the record without
  changing the match, or the match without the record;
- disputes, appeals and committee members may be corrected by staff, but their state (status,
  decision, the ruling they belong to) moves only through the services, and nothing of the record
  is deleted (RULES.md §9: every ruling is recorded for good). Each change saved here is itself
  written to the audit log (``<model>.changed_in_admin``, the changed fields before and after).
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model

from audit.services import audit_record
from tournaments.models import event_id_of

from .models import Appeal, CommitteeMember, Dispute, Ruling, Statement, Vote


def _plain(value):
    """A form value as the audit log keeps it: a row by its id."""
    return value.pk if isinstance(value, Model) else value


def _staff(request) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


class StaffAdmin(admin.ModelAdmin):
    """Staff see the model and, unless a subclass says otherwise, add and change rows; nothing is
    deleted. Every add and change is audited."""

    def has_module_permission(self, request):
        return _staff(request)

    def has_view_permission(self, request, obj=None):
        return _staff(request)

    def has_add_permission(self, request):
        return _staff(request)

    def has_change_permission(self, request, obj=None):
        return _staff(request)

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        changed = list(form.changed_data)
        before = {name: _plain(form.initial.get(name)) for name in changed} if change else None
        super().save_model(request, obj, form, change)
        self._audit(request, obj, "changed" if change else "added", before,
                    {name: _plain(form.cleaned_data.get(name)) for name in changed})

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        for obj in formset.new_objects:
            self._audit(request, obj, "added", None, {"id": obj.pk, "parent": form.instance.pk})
        for obj, fields in formset.changed_objects:
            self._audit(request, obj, "changed", None, {name: _plain(getattr(obj, name, None)) for name in fields})

    def _audit(self, request, obj, verb: str, before, after) -> None:
        # The admin's add and change views run in one transaction: the entry commits with the change.
        parent = obj if isinstance(obj, self.model) else None
        audit_record(
            actor=request.user, action=f"{obj._meta.model_name}.{verb}_in_admin",
            object_type=f"{obj._meta.app_label}.{obj._meta.object_name}", object_id=obj.pk,
            tournament_id=self._tournament_id(parent) if parent else None,
            match_id=self._match_id(parent) if parent else None, before=before, after=after, note="Django admin",
        )

    def _match_id(self, obj) -> int | None:
        return None

    def _tournament_id(self, obj) -> int | None:
        return None


class ReadOnlyAdmin(StaffAdmin):
    """Staff see the rows; nobody adds, changes or deletes them here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class StatementInline(admin.TabularInline):
    model = Statement
    extra = 0
    can_delete = False
    fields = ("author", "side", "text", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return _staff(request)


class RulingInline(StatementInline):
    model = Ruling
    fields = ("director", "outcome", "rule", "status", "created_at")
    readonly_fields = fields


@admin.register(Dispute)
class DisputeAdmin(StaffAdmin):
    list_display = ("pk", "match", "category", "status", "automatic", "opened_by", "created_at")
    list_filter = ("status", "category", "automatic")
    search_fields = ("=match__id", "opened_by__username", "statement")
    raw_id_fields = ("match", "opened_by")
    readonly_fields = ("status", "automatic", "created_at")
    inlines = [StatementInline, RulingInline]

    def get_readonly_fields(self, request, obj=None):
        # Once opened, a dispute stays about its match and its opener.
        return self.readonly_fields + (("match", "opened_by", "side") if obj is not None else ())

    def _match_id(self, obj):
        return obj.match_id

    def _tournament_id(self, obj):
        return event_id_of(obj.match)


@admin.register(Statement)
class StatementAdmin(ReadOnlyAdmin):
    list_display = ("pk", "dispute", "author", "side", "created_at")
    search_fields = ("=dispute__id", "author__username", "text")
    readonly_fields = ("dispute", "author", "side", "text", "created_at")


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ("pk", "dispute", "outcome", "status", "director", "created_at")
    list_filter = ("outcome", "status")
    search_fields = ("=dispute__id", "=dispute__match__id", "director__username", "rule")
    readonly_fields = ("dispute", "director", "rule", "reasoning", "outcome", "params", "changes", "status", "appeal",
                       "created_at")


class CommitteeInline(admin.TabularInline):
    model = CommitteeMember
    extra = 0
    can_delete = False
    raw_id_fields = ("user",)

    def has_view_permission(self, request, obj=None):
        return _staff(request)

    def has_add_permission(self, request, obj=None):
        return _staff(request)

    def has_change_permission(self, request, obj=None):
        return _staff(request)


class VoteInline(StatementInline):
    model = Vote
    fields = ("member", "decision", "outcome", "rule", "created_at")
    readonly_fields = fields


@admin.register(Appeal)
class AppealAdmin(StaffAdmin):
    list_display = ("pk", "ruling", "appellant", "side", "status", "decision", "created_at")
    list_filter = ("status", "decision")
    search_fields = ("=ruling__id", "=ruling__dispute__match__id", "appellant__username")
    raw_id_fields = ("ruling", "appellant")
    readonly_fields = ("status", "decision", "decided_at", "created_at")
    inlines = [CommitteeInline, VoteInline]

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields + (("ruling", "appellant", "side") if obj is not None else ())

    def _match_id(self, obj):
        return obj.ruling.dispute.match_id

    def _tournament_id(self, obj):
        return event_id_of(obj.ruling.dispute.match)


@admin.register(CommitteeMember)
class CommitteeMemberAdmin(StaffAdmin):
    list_display = ("pk", "appeal", "user")
    search_fields = ("=appeal__id", "user__username")
    raw_id_fields = ("appeal", "user")

    def _match_id(self, obj):
        return obj.appeal.ruling.dispute.match_id

    def _tournament_id(self, obj):
        return event_id_of(obj.appeal.ruling.dispute.match)


@admin.register(Vote)
class VoteAdmin(ReadOnlyAdmin):
    list_display = ("pk", "appeal", "member", "decision", "outcome", "created_at")
    list_filter = ("decision",)
    search_fields = ("=appeal__id", "member__username")
    readonly_fields = ("appeal", "member", "decision", "outcome", "params", "rule", "reasoning", "created_at")

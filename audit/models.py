"""The audit log's one table: an append-only entry per change (who, when, what, before, after).

The table keeps the name it had when the log lived in ``rulings`` (``rulings_auditentry``): the
move to this app was a state-only migration, so every entry and the PostgreSQL trigger that
refuses UPDATE and DELETE (rulings/migrations/0002_audit_append_only.py) stay as they were.
"""

from __future__ import annotations

from django.db import models


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AuditImmutable("audit entries are never changed")

    def delete(self):
        raise AuditImmutable("audit entries are never deleted")


class AuditImmutable(Exception):
    pass


class AuditEntry(models.Model):
    """One change: who, when, what, before and after. Append-only.

    No foreign keys on purpose: deleting an unstarted match or a user must not touch the record
    (a cascade or SET NULL would be an update), so objects are named by type and id.
    """

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor_id = models.IntegerField(null=True, blank=True)
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=64, help_text="what happened, e.g. match.result_confirmed, ruling.made")
    object_type = models.CharField(max_length=64)
    object_id = models.BigIntegerField(null=True, blank=True)
    tournament_id = models.IntegerField(null=True, blank=True, db_index=True)
    match_id = models.IntegerField(null=True, blank=True, db_index=True)
    club_id = models.IntegerField(null=True, blank=True, db_index=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        db_table = "rulings_auditentry"
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_id}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise AuditImmutable("audit entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AuditImmutable("audit entries are never deleted")

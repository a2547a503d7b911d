"""A player's request to become an organiser, decided by staff (``accounts.organiser.services``).

One request is open per user at most (a partial unique constraint, so two requests sent at once
cannot both be open); a refused one carries the reason he is shown; every decided one says when.
The requests are kept after their decision: his page shows his history, staff's queue the rest.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: How long a statement (which club or event he runs) and a refusal's reason may be.
STATEMENT_MAX = 1000
REASON_MAX = 1000


class OrganiserRequest(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for staff")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organiser_requests")
    # In his words: which club or event he runs, so staff can tell who he is.
    statement = models.TextField(max_length=STATEMENT_MAX)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    reason = models.TextField(max_length=REASON_MAX, blank=True, help_text="why it was refused (shown to him)")
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=Q(status="open"),
                                    name="organiser_request_one_open_per_user"),
            models.CheckConstraint(condition=~Q(statement=""), name="organiser_request_has_statement"),
            models.CheckConstraint(condition=~Q(status="refused") | ~Q(reason=""),
                                   name="organiser_request_refusal_has_reason"),
            models.CheckConstraint(condition=Q(status="open", decided_at__isnull=True)
                                   | (~Q(status="open") & Q(decided_at__isnull=False)),
                                   name="organiser_request_decided_when"),
        ]

    def __str__(self) -> str:
        return f"organiser request {self.pk} ({self.status})"

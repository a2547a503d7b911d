"""Webhooks: an organiser's or a club's URL told of the event's or the club's results, pairings and
rulings (:class:`Subscription`), and every POST made to it (:class:`Delivery`, the delivery log).

A subscription belongs to exactly one target, an event or a club (a check constraint). Its secret
signs every delivery (webhooks/signing.py); it is kept as it is (it must be, to sign), shown to the
subscription's owner when it is made and whenever he asks, and never in a list or the audit log.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_secret() -> str:
    """A fresh signing secret: 32 random bytes as 64 hex digits."""
    return secrets.token_hex(32)


class Subscription(models.Model):
    class Event(models.TextChoices):
        RESULTS = "results", _("Results")
        PAIRINGS = "pairings", _("Pairings")
        RULINGS = "rulings", _("Rulings")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_subscriptions")
    tournament = models.ForeignKey("tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="webhook_subscriptions")
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="webhook_subscriptions")
    url = models.URLField(max_length=500)
    on_results = models.BooleanField(default=False)
    on_pairings = models.BooleanField(default=False)
    on_rulings = models.BooleanField(default=False)
    secret = models.CharField(max_length=64, default=new_secret)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(tournament__isnull=False, club__isnull=True) | Q(tournament__isnull=True, club__isnull=False)),
                name="webhook_subscription_one_target",
            ),
        ]

    def __str__(self) -> str:
        target = f"event {self.tournament_id}" if self.tournament_id else f"club {self.club_id}"
        return f"webhook {self.pk} of {target}"

    @property
    def events(self) -> list[str]:
        """The event types it is told of, in the order of :class:`Event`."""
        return [event for event in self.Event.values if getattr(self, f"on_{event}")]


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="deliveries")
    #: What the receiver sees as X-Crawford-Delivery: the same on every retry of this delivery.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    event = models.CharField(max_length=16, choices=Subscription.Event.choices)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    redelivery_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["subscription", "-created_at"], name="webhook_delivery_log"),
            models.Index(fields=["next_attempt_at"], condition=Q(status="pending"), name="webhook_delivery_due"),
        ]

    def __str__(self) -> str:
        return f"delivery {self.uid} ({self.status})"

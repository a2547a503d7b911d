"""The rows of core: the task outbox (core/outbox.py) and the workers' heartbeats (core/health.py)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone


class OutboxTask(models.Model):
    """One Celery task a change needs, written in the change's own transaction.

    Its life: written (``sent_at`` and ``done_at`` empty); sent to the broker after the commit, or
    by the relay (``sent_at``, ``attempts`` counts the sends); done when the task has run for this
    row (``done_at``): a second delivery of the row finds it done and does nothing. A task that
    failed for good is done too, with ``last_error`` saying why; ``last_error`` also keeps the
    last broker error of a send that failed.
    """

    task = models.CharField(max_length=200, help_text="the Celery task's name")
    args = models.JSONField(default=list, help_text="the task's arguments: ids and primitives")
    queue = models.CharField(max_length=50, help_text="the queue's name without the prefix: quick or imports")
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    done_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    priority = models.PositiveSmallIntegerField(
        default=0, db_default=0,
        help_text="0 (the default: served first) to 9 (served last): the message's priority on the broker, and the "
                  "order a local worker takes rows in")
    origin = models.CharField(max_length=255, blank=True, default="", db_default="",
                              help_text="the address (scheme://host) of the request that wrote the row, or empty: "
                                        "an email's links are made on it when no site URL is set (core/links.py)")

    class Meta:
        ordering = ["pk"]
        indexes = [
            # The relay's two questions (rows never sent, rows sent long ago and not done) and the
            # pruning of rows done, each answered from a small partial index.
            models.Index(fields=["created_at"], condition=Q(sent_at=None, done_at=None), name="outbox_unsent"),
            models.Index(fields=["sent_at"], condition=Q(sent_at__isnull=False, done_at=None),
                         name="outbox_sent_not_done"),
            models.Index(fields=["done_at"], condition=Q(done_at__isnull=False), name="outbox_done"),
            # A local worker's poll: the rows not done, by priority then age.
            models.Index(fields=["priority", "id"], condition=Q(done_at=None), name="outbox_to_do"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(priority__lte=9), name="outbox_priority_0_to_9"),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)} #{self.pk}"


class WorkerHeartbeat(models.Model):
    """When a worker of a queue last ran the heartbeat task sent to that queue."""

    queue = models.CharField(max_length=50, unique=True, help_text="the queue's name without the prefix")
    seen_at = models.DateTimeField()
    worker = models.CharField(max_length=200, blank=True, help_text="the worker's host name")

    def __str__(self) -> str:
        return f"{self.queue} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"

"""Celery tasks of accounts: load by id, call one function (the retry policy is core.tasks')."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .notifications_organiser import organiser_notify


@shared_task(bind=True)
def organiser_notify_task(self, kind: str, object_id: int, reason: str = "", stamp: str = "",
                          outbox_id: int | None = None) -> int | None:
    """Email a user staff's decision on his organiser request, or the withdrawal of his role; a
    second run sends nothing. Written in the outbox by accounts.services_organiser: a row already
    done returns None at once (core.outbox.outbox_once)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return organiser_notify(kind=kind, object_id=object_id, reason=reason, stamp=stamp)
    except Exception as error:
        retry_or_raise(self, error)

"""Celery tasks of rulings: load by id, call one service (the retry policy is core.tasks')."""

from __future__ import annotations

from celery import shared_task

from core.tasks import retry_or_raise

from .services.notifications import rulings_notify


@shared_task(bind=True)
def rulings_notify_task(self, kind: str, object_id: int) -> int:
    """Email the people concerned by a ruling or an appeal; a second run sends nothing."""
    try:
        return rulings_notify(kind=kind, object_id=object_id)
    except Exception as error:
        retry_or_raise(self, error)

"""Celery tasks of rulings: load by id, call one service (the retry policy is core.tasks')."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .services.notifications import rulings_notify


@shared_task(bind=True)
def rulings_notify_task(self, kind: str, object_id: int, outbox_id: int | None = None) -> int | None:
    """Email the people concerned by a ruling or an appeal; a second run sends nothing. Written in
    the outbox by the services: a row already done returns None at once (core.outbox.outbox_once)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return rulings_notify(kind=kind, object_id=object_id)
    except Exception as error:
        retry_or_raise(self, error)

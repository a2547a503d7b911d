"""Celery tasks of tournaments: load by id, call one service (the retry policy is core.tasks')."""

from __future__ import annotations

from celery import shared_task

from core.outbox import outbox_once
from core.tasks import retry_or_raise

from .services.notifications import tournament_cancelled_notify


@shared_task(bind=True)
def tournament_cancelled_notify_task(self, tournament_id: int, outbox_id: int | None = None) -> int | None:
    """Email the entrants of a cancelled event; written in the outbox by ``tournament_cancel``: a
    row already done returns None at once (core.outbox.outbox_once)."""
    try:
        with outbox_once(outbox_id) as todo:
            if not todo:
                return None
            return tournament_cancelled_notify(tournament_id=tournament_id)
    except Exception as error:
        retry_or_raise(self, error)

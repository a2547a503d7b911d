"""Celery tasks of matches: load by id, call one service. Arguments are ids and primitives only;
the retry policy is core.tasks'."""

from __future__ import annotations

from celery import shared_task

from core.tasks import retry_or_raise

from .services.notifications import match_notify
from .services.ratings import match_rating_apply
from .services.ratings import ratings_catch_up as ratings_catch_up_service


@shared_task(bind=True)
def match_rating_apply_task(self, match_id: int) -> int:
    """Apply a confirmed match's rating change; returns the number of RatingChange rows (the
    same on a second run, which changes nothing)."""
    try:
        return len(match_rating_apply(match_id=match_id))
    except Exception as error:
        retry_or_raise(self, error)


@shared_task
def ratings_catch_up() -> int:
    """Periodic (config/celery.py): rate confirmed matches whose rating task was lost; returns
    how many were rated (0 on a second run)."""
    return ratings_catch_up_service()


@shared_task(bind=True)
def match_notify_task(self, match_id: int, event: str) -> int:
    """Email the sides about a result; returns how many recipients (a second run sends nothing)."""
    try:
        return match_notify(match_id=match_id, event=event)
    except Exception as error:
        retry_or_raise(self, error)


from .tasks_imports import import_job_run_task  # noqa: E402,F401

"""Celery tasks: load by id, call one service. Arguments are ids and primitives only.

Only transient failures are retried (a lost database connection or lock, a mail server that is
down or answers 4xx), with a bounded count and exponential backoff; anything else fails at once.
"""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.db import OperationalError

from .services.notifications import match_notify
from .services.ratings import match_rating_apply, ratings_pending

MAX_RETRIES = 5
TRANSIENT = (OperationalError, ConnectionError, TimeoutError, smtplib.SMTPServerDisconnected,
             smtplib.SMTPConnectError)


def is_transient(error: BaseException) -> bool:
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    return isinstance(error, TRANSIENT)


def _retry(task, error: BaseException):
    if not is_transient(error):
        raise error
    raise task.retry(exc=error, countdown=min(2 ** task.request.retries * 5, 600), max_retries=MAX_RETRIES)


@shared_task(bind=True)
def match_rating_apply_task(self, match_id: int) -> int:
    """Apply a confirmed match's rating change (idempotent: a second run changes nothing)."""
    try:
        return len(match_rating_apply(match_id=match_id))
    except Exception as error:
        _retry(self, error)


@shared_task
def ratings_catch_up() -> int:
    """Periodic: rate confirmed matches whose rating task was lost."""
    pending = list(ratings_pending())
    for match_id in pending:
        match_rating_apply(match_id=match_id)
    return len(pending)


@shared_task(bind=True)
def match_notify_task(self, match_id: int, event: str) -> int:
    """Email the sides about a result."""
    try:
        return match_notify(match_id=match_id, event=event)
    except Exception as error:
        _retry(self, error)


from .tasks_imports import import_job_run_task  # noqa: E402,F401

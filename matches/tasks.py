"""Celery tasks: load by id, call one service. Arguments are ids and primitives only.

Every task may run twice (late acks redeliver a task whose worker died) and the services make a
second run change nothing. Only transient failures are retried (a lost database connection or
lock, a mail server that is down or answers 4xx), at most MAX_RETRIES times with exponential
backoff; anything else (an SMTP 5xx, a match that does not exist, a domain error) fails at once.
"""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .services.notifications import match_notify
from .services.ratings import match_rating_apply
from .services.ratings import ratings_catch_up as ratings_catch_up_service

MAX_RETRIES = 5
# SMTPConnectError is an SMTPResponseException and so is judged by its code below.
TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError, smtplib.SMTPServerDisconnected)


def is_transient(error: BaseException) -> bool:
    """Whether trying again later may succeed: SMTP 4xx replies are temporary by definition
    (RFC 5321 §4.2.1), 5xx permanent; lost connections and database hiccups are transient."""
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    return isinstance(error, TRANSIENT)


def _retry(task, error: BaseException):
    if not is_transient(error):
        raise error
    raise task.retry(exc=error, countdown=min(2 ** task.request.retries * 5, 600), max_retries=MAX_RETRIES)


@shared_task(bind=True)
def match_rating_apply_task(self, match_id: int) -> int:
    """Apply a confirmed match's rating change; returns the number of RatingChange rows (the
    same on a second run, which changes nothing)."""
    try:
        return len(match_rating_apply(match_id=match_id))
    except Exception as error:
        _retry(self, error)


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
        _retry(self, error)


from .tasks_imports import import_job_run_task  # noqa: E402,F401

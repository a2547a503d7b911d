"""The retry policy of every Celery task, and core's own periodic tasks (the outbox relay and
pruning, the workers' heartbeat; config/celery.py schedules them).

Every task may run twice (late acks redeliver a task whose worker died, the outbox relay sends a
row again) and its outbox row or the services make a second run change nothing. Only transient
failures are retried (a lost database connection or lock, a mail server that is down or answers
4xx), at most MAX_RETRIES times with exponential backoff; anything else (an SMTP 5xx, a row that
does not exist, a domain error) fails at once, and its outbox row is marked done with the error.
"""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .health import BEAT, worker_heartbeat_record
from .outbox import outbox_give_up, outbox_prune, outbox_relay

MAX_RETRIES = 5
# SMTPConnectError is an SMTPResponseException and so is judged by its code below.
TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError, smtplib.SMTPServerDisconnected)


def is_transient(error: BaseException) -> bool:
    """Whether trying again later may succeed: SMTP 4xx replies are temporary by definition
    (RFC 5321 §4.2.1), 5xx permanent; lost connections and database hiccups are transient."""
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    return isinstance(error, TRANSIENT)


def retry_or_raise(task, error: BaseException):
    """Raise the task's retry (in 5 s, 10 s, 20 s ... at most 10 minutes, MAX_RETRIES times) when
    ``error`` is transient; raise ``error`` itself when it is not, after marking the task's outbox
    row done with the error (another delivery would fail the same way). When the retries run out
    the row stays not done, and the relay sends it again later."""
    if not is_transient(error):
        outbox_give_up((task.request.kwargs or {}).get("outbox_id"), error)
        raise error
    raise task.retry(exc=error, countdown=min(2 ** task.request.retries * 5, 600), max_retries=MAX_RETRIES)


@shared_task
def outbox_relay_task() -> int:
    """Periodic: send the outbox rows not sent, and again those sent long ago and not done;
    returns how many were sent."""
    return outbox_relay()


@shared_task
def outbox_prune_task() -> int:
    """Periodic: delete the outbox rows done more than OUTBOX_KEEP_DAYS ago; returns how many."""
    return outbox_prune()


@shared_task(bind=True)
def worker_heartbeat_task(self, queue: str) -> None:
    """Periodic, sent to each queue: record that a worker of ``queue`` is taking work."""
    worker_heartbeat_record(queue=queue, worker=self.request.hostname or "")


@shared_task(bind=True)
def beat_heartbeat_task(self) -> None:
    """Periodic: record that beat is sending its jobs (/health/ says when it has gone silent)."""
    worker_heartbeat_record(queue=BEAT, worker=self.request.hostname or "")

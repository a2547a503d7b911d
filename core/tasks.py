"""The retry policy of every Celery task.

Every task may run twice (late acks redeliver a task whose worker died) and the services make a
second run change nothing. Only transient failures are retried (a lost database connection or
lock, a mail server that is down or answers 4xx), at most MAX_RETRIES times with exponential
backoff; anything else (an SMTP 5xx, a row that does not exist, a domain error) fails at once.
"""

from __future__ import annotations

import smtplib

from django.db import InterfaceError, OperationalError

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
    ``error`` is transient; raise ``error`` itself when it is not."""
    if not is_transient(error):
        raise error
    raise task.retry(exc=error, countdown=min(2 ** task.request.retries * 5, 600), max_retries=MAX_RETRIES)

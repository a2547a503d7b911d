"""The analysis task, on the ``analysis`` queue (config/settings.py TASK_QUEUES), with its own
time limits (``CRAWFORD_ANALYSIS_SOFT_TIME_LIMIT``, ``CRAWFORD_ANALYSIS_TIME_LIMIT``; the broker's
visibility timeout is set above the hard one). Start its workers with
``celery -A config worker -Q analysis`` (docs/production.md, "Production shape"), on any machine with gnubg."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from core.outbox import outbox_done, outbox_is_done
from core.tasks import MAX_RETRIES, is_transient, retry_or_raise

from .services import match_analyses_sweep, match_analysis_fail, match_analysis_run, match_analysis_time_limit

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, soft_time_limit=settings.ANALYSIS_SOFT_TIME_LIMIT,
             time_limit=settings.ANALYSIS_TIME_LIMIT)
def match_analysis_task(self, match_id: int, generation: int, outbox_id: int | None = None) -> str | None:
    """Analyse match ``match_id`` as requested in ``generation`` (``match_analysis_run``); returns
    the row's status then (None without a row), and marks the outbox row done.

    Idempotent by the row's generation and status, not by a lock held for minutes: a second
    delivery of a done (or replaced) run changes nothing. A transient fault (the database lost,
    a lock not had) is retried with backoff (core.tasks); past the soft time limit, after the last
    retry, or on an unexpected error, the run is marked failed with a reason a person reads; past
    the soft time limit it is queued again one ply lower, once."""
    if outbox_is_done(outbox_id):
        return None
    try:
        if self.request.retries < settings.ANALYSIS_FAIL_FIRST:
            # Tests only (CRAWFORD_ANALYSIS_FAIL_FIRST): a real worker's retry of a lost database.
            raise OperationalError("injected: the first attempts of each analysis fail (CRAWFORD_ANALYSIS_FAIL_FIRST)")
        row = match_analysis_run(match_id, generation=generation)
    except SoftTimeLimitExceeded:
        # Queued again one ply lower, once (a new outbox row), else failed: this row is done.
        row = match_analysis_time_limit(match_id, generation=generation)
        outbox_done(outbox_id)
        return None if row is None else row.status
    except Exception as error:
        if not is_transient(error) or self.request.retries >= MAX_RETRIES:
            try:
                match_analysis_fail(match_id, generation=generation, code="gave_up" if is_transient(error) else "error",
                                    message=repr(error))
            except Exception:
                logger.exception("could not mark the analysis of match %s failed", match_id)
        retry_or_raise(self, error)
    outbox_done(outbox_id)
    return None if row is None else row.status


@shared_task
def match_analyses_sweep_task() -> list[int]:
    """Periodic: send again the analyses whose worker died, or fail them after a few tries;
    returns [sent again, failed]."""
    return list(match_analyses_sweep())

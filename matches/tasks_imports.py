"""Celery tasks of .mat imports (registered through matches.tasks, which imports this module): the
import itself, on the "imports" queue with its own time limits, and the periodic sweeper."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.utils.translation import gettext

from core.outbox import outbox_done, outbox_is_done
from core.tasks import MAX_RETRIES, is_transient, retry_or_raise

from .models import ImportJob
from .services.imports.jobs import import_job_abandon, import_job_run, import_jobs_sweep

logger = logging.getLogger(__name__)


# Longer limits than the quick tasks' (config/settings.py, IMPORT_*_TIME_LIMIT): the broker's
# visibility timeout is set just above the hard one.
@shared_task(bind=True, soft_time_limit=settings.IMPORT_SOFT_TIME_LIMIT, time_limit=settings.IMPORT_TIME_LIMIT)
def import_job_run_task(self, job_id: int, outbox_id: int | None = None) -> str | None:
    """Run an import job's step: check its pending files and collect the players' names (the job
    then waits for its mapping), or, once mapped, write its checked files and mark it done; then
    mark its outbox row done.

    Safe to deliver twice: a done row or a done job is left as it is, and processed files are
    skipped (the job is idempotent by its files' statuses, so its row is marked done only when
    the job has finished, not held locked while it runs). A transient failure (database, network)
    is retried with backoff, and the files already processed keep their result; when the retries
    run out, or on an unexpected error, the remaining files are marked failed so that the job
    does not stay "running" for ever.
    """
    if outbox_is_done(outbox_id):
        return None
    job = ImportJob.objects.filter(pk=job_id).only("status").first()
    if job is None or job.status in (ImportJob.Status.DONE, ImportJob.Status.MAPPING):
        outbox_done(outbox_id)
        return None if job is None else job.status
    try:
        status = import_job_run(job_id=job_id).status
    except Exception as error:
        if not is_transient(error) or self.request.retries >= MAX_RETRIES:
            try:
                import_job_abandon(job_id=job_id,
                                   message=gettext("the import stopped before this file; please upload it again"))
                outbox_done(outbox_id)
            except Exception:
                logger.exception("could not mark import job %s abandoned", job_id)
        retry_or_raise(self, error)
    outbox_done(outbox_id)
    return status


@shared_task
def import_jobs_sweep_task() -> list[int]:
    """Periodic: send again the imports whose worker died, or fail them after a few tries;
    returns [sent again, abandoned]."""
    return list(import_jobs_sweep())

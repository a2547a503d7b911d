"""Celery task of .mat imports (registered through matches.tasks, which imports this module)."""

from __future__ import annotations

import logging

from celery import shared_task

from core.tasks import MAX_RETRIES, is_transient, retry_or_raise

from .models import ImportJob
from .services.imports import import_job_abandon, import_job_run

logger = logging.getLogger(__name__)


@shared_task(bind=True)
def import_job_run_task(self, job_id: int) -> str | None:
    """Run an import job: process its pending files, then mark it done.

    Safe to deliver twice: a done job and processed files are left as they are. A transient
    failure (database, network) is retried with backoff, and the files already processed keep
    their result; when the retries run out, or on an unexpected error, the remaining files are
    marked failed so that the job does not stay "running" for ever.
    """
    job = ImportJob.objects.filter(pk=job_id).only("status").first()
    if job is None or job.status == ImportJob.Status.DONE:
        return None if job is None else job.status
    try:
        return import_job_run(job_id=job_id).status
    except Exception as error:
        if not is_transient(error) or self.request.retries >= MAX_RETRIES:
            try:
                import_job_abandon(job_id=job_id, message="the import stopped before this file; please upload it again")
            except Exception:
                logger.exception("could not mark import job %s abandoned", job_id)
        retry_or_raise(self, error)

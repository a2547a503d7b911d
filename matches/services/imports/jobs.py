"""Running an import job (:func:`import_job_run`, its step: check its files, or write them once
mapped), abandoning it, sweeping the jobs whose worker died, and reading a job for the API, the
page and the command."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Exists, F, IntegerField, OuterRef, Prefetch, When
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.outbox import outbox_enqueue
from core.text import isolate

from ...models import ImportFile, ImportJob, Player
from .files import import_file_check, import_file_process
from .names import collect_names

logger = logging.getLogger(__name__)


def _finish(job_id: int) -> None:
    waiting = ImportFile.objects.filter(job=OuterRef("pk"), status__in=(ImportFile.Status.PENDING,
                                                                        ImportFile.Status.CHECKED))
    ImportJob.objects.filter(pk=job_id).exclude(status=ImportJob.Status.DONE).exclude(Exists(waiting)).update(
        status=ImportJob.Status.DONE, finished_at=timezone.now()
    )


def import_job_run(*, job_id: int) -> ImportJob:
    """Run the job's step. Before its mapping: check its pending files one by one (each in its
    own transaction), then collect the players' names (the job waits for its mapping, or is done
    when no file is left to write). Once mapped: write its checked files one by one, then mark
    it done. Safe to run twice or concurrently: files already processed are skipped, and a job
    that is done or waiting for its mapping is returned unchanged. Raises
    ImportJob.DoesNotExist for an unknown job and OperationalError (transient: retry).
    """
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.RUNNING, progressed_at=timezone.now())
    job = ImportJob.objects.get(pk=job_id)
    if job.status in (ImportJob.Status.DONE, ImportJob.Status.MAPPING):
        return job
    if job.mapped_at is None:
        pending = job.files.filter(status=ImportFile.Status.PENDING).order_by("pk").values_list("pk", flat=True)
        for file_id in list(pending):
            import_file_check(file_id=file_id)
        collect_names(job_id)
    else:
        checked = job.files.filter(status=ImportFile.Status.CHECKED).order_by("pk").values_list("pk", flat=True)
        for file_id in list(checked):
            import_file_process(file_id=file_id)
        _finish(job_id)
    job.refresh_from_db()
    return job


@transaction.atomic
def import_job_abandon(*, job_id: int, message: str) -> ImportJob:
    """Give up on a job whose task cannot go on (retries exhausted): its files not yet written
    fail with ``message`` and the job is done. Files already processed keep their result."""
    failed = ImportFile.objects.filter(
        job_id=job_id, status__in=(ImportFile.Status.PENDING, ImportFile.Status.CHECKED),
    ).update(status=ImportFile.Status.FAILED, error={"line": None, "game": None, "message": message}, content=b"",
             parsed=None)
    ImportJob.objects.filter(pk=job_id).update(done=F("done") + failed)
    _finish(job_id)
    return ImportJob.objects.get(pk=job_id)


def import_jobs_sweep(*, now=None) -> tuple[int, int]:
    """Find the jobs queued or running without progress for IMPORT_STALL_SECONDS (their worker
    died, or their message was lost with Redis) and send each again through the outbox; it resumes
    at its first file not processed. A running job already sent again IMPORT_MAX_REDISPATCH times
    is abandoned instead: its remaining files fail with a reason and it is done (a queued job is
    never abandoned for waiting). A job waiting for its mapping waits for a person: left alone.
    Returns (sent again, abandoned).

    Each job is claimed by a conditional update of its ``progressed_at`` (two sweepers at once
    never both send it), in the same transaction as its outbox row. A job only slow, not dead, may
    be sent twice: harmless, a file is processed once whoever runs it.
    """
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.IMPORT_STALL_SECONDS)
    stalled = (ImportJob.objects.exclude(status=ImportJob.Status.DONE).filter(progressed_at__lt=limit)
               .exclude(status=ImportJob.Status.MAPPING)
               .order_by("progressed_at").values_list("pk", "progressed_at", "redispatched", "status")[:100])
    sent = abandoned = 0
    for job_id, progressed_at, redispatched, status in stalled:
        # Only a job that started and stopped counts towards the bound: a queued job may just be
        # waiting behind another import on a busy worker, and sending it again is harmless.
        tries = redispatched + 1 if status == ImportJob.Status.RUNNING else redispatched
        with transaction.atomic():
            claimed = (ImportJob.objects.filter(pk=job_id, progressed_at=progressed_at)
                       .exclude(status__in=(ImportJob.Status.DONE, ImportJob.Status.MAPPING))
                       .update(progressed_at=now, redispatched=tries))
            if not claimed:
                continue
            if status == ImportJob.Status.RUNNING and redispatched >= settings.IMPORT_MAX_REDISPATCH:
                logger.warning("import job %s made no progress after %s tries: abandoned", job_id, redispatched)
                import_job_abandon(job_id=job_id, message=gettext(
                    "the import stopped and was tried again %(tries)s times without getting further; "
                    "please upload this file again") % {"tries": redispatched})
                abandoned += 1
            else:
                logger.warning("import job %s made no progress since %s: sent again", job_id, progressed_at)
                outbox_enqueue(tasks_imports.import_job_run_task, job_id)
                sent += 1
    return sent, abandoned


# --- reading a job (shared by the API, the page and the command) ---------------------------------


def import_job_get(*, job_id: int, user) -> ImportJob:
    """The job with its files (without their bytes nor what checking kept of them: only their
    players' names and, once imported, their games' count, as ``players`` and ``games``), for
    its owner or staff.

    Raises Http404 for anyone else, so that a job's existence is not revealed.
    """
    # A checked file keeps its games' logs until its match is written: a page polled every second
    # reads only the two keys it shows, not thousands of moves a file. The games' count is read as
    # text cast to an integer: a key's JSON inside a CASE loses what tells Django's JSONField that
    # SQLite already gave the number decoded (it would decode it again and fail).
    files = Prefetch("files", queryset=ImportFile.objects.defer("content", "parsed").annotate(
        players=KeyTransform("players", "parsed"),
        games=Case(When(status=ImportFile.Status.IMPORTED,
                        then=Cast(KeyTextTransform("games", "parsed"), IntegerField())),
                   default=None, output_field=IntegerField()),
    ).order_by("pk"))
    job = ImportJob.objects.prefetch_related(files).filter(pk=job_id).first()
    if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
        raise Http404("no such import")
    return job


def import_job_names(*, job_id: int, user) -> tuple[ImportJob, dict[int, Player]]:
    """The job (without its files) and the players its names may be, by id, for its owner or
    staff: two queries, however many names. Raises Http404 for anyone else."""
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None or not getattr(user, "is_authenticated", False) or not (user.is_staff or job.owner_id == user.pk):
        raise Http404("no such import")
    ids = {candidate["player"] for entry in job.names for candidate in entry["candidates"]}
    return job, Player.objects.in_bulk(ids) if ids else {}


def import_job_percent(job: ImportJob) -> int:
    """How far the job's step is, 0..100: its files checked until it is mapped, then its files
    done (a job of no files is complete)."""
    if not job.total or job.status == ImportJob.Status.DONE:
        return 100
    count = job.done if job.mapped_at else job.checked
    return min(100, count * 100 // job.total)


def import_job_progress_text(job: ImportJob) -> str:
    """How far the job's step is, as a sentence."""
    if job.mapped_at:
        return ngettext("%(done)s of %(total)s file imported", "%(done)s of %(total)s files imported",
                        job.total) % {"done": job.done, "total": job.total}
    return ngettext("%(done)s of %(total)s file checked", "%(done)s of %(total)s files checked",
                    job.total) % {"done": job.checked, "total": job.total}


def import_file_summary(file: ImportFile) -> tuple[list[str], int | None]:
    """The file's players' names and, once imported, its games' count: from the annotations of
    :func:`import_job_get` when there (no query), else from ``parsed``."""
    if "parsed" not in file.get_deferred_fields():
        parsed = file.parsed or {}
        games = parsed.get("games") if file.status == ImportFile.Status.IMPORTED else None
        return list(parsed.get("players") or []), games
    return list(getattr(file, "players", None) or []), getattr(file, "games", None)


def import_file_result(file: ImportFile) -> str:
    """What became of the file, as a sentence: accepted with its match, refused with the reason
    naming the file, game and line, and so on."""
    players, games = import_file_summary(file)
    if file.status == ImportFile.Status.IMPORTED:
        return ngettext("Accepted: one match of %(games)s game.", "Accepted: one match of %(games)s games.",
                        games or 0) % {"games": games or 0}
    if file.status == ImportFile.Status.DUPLICATE:
        return gettext("This match was imported before.")
    if file.status == ImportFile.Status.SKIPPED:
        return gettext("Not imported: you chose to skip a player of this match.")
    if file.status == ImportFile.Status.CHECKED and len(players) == 2:
        return gettext("%(first)s against %(second)s") % {"first": isolate(players[0]), "second": isolate(players[1])}
    if file.status == ImportFile.Status.FAILED:
        error = file.error or {}
        values = {"name": file.name, "line": error.get("line"), "game": error.get("game"),
                  "message": error.get("message", "")}
        if values["line"] and values["game"]:
            return gettext("Refused: %(name)s, game %(game)s, line %(line)s: %(message)s") % values
        if values["line"]:
            return gettext("Refused: %(name)s, line %(line)s: %(message)s") % values
        if values["game"]:
            return gettext("Refused: %(name)s, game %(game)s: %(message)s") % values
        return gettext("Refused: %(name)s: %(message)s") % values
    return gettext("Waiting to be checked.")


# The task module imports this one (the task wraps ``import_job_run``): bound last, once this
# module's functions exist, whichever of the two is imported first.

from ... import tasks_imports  # noqa: E402

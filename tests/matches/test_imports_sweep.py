"""Stuck imports are found (matches/services/imports/jobs.py ``import_jobs_sweep``): a job queued or
running without progress is sent again through the outbox and resumes at its first pending file,
a bounded number of times; then its remaining files fail with a reason and the job is done; a job
waiting for its players is left alone. And a worker killed mid-import: the job completes once a
new worker runs, without a duplicate."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from core.models import OutboxTask
from matches.models import ImportFile, ImportJob, Match
from matches.services.imports.files import import_file_check, import_file_process
from matches.services.imports.jobs import import_job_run, import_jobs_sweep
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from matches.tasks import import_job_run_task
from tests.factories import UserFactory

MAT_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "mat"
NAMES = ["galaxy_1pt_match1501137.mat", "galaxy_3pt_match1161689.mat", "gnubg_3pt_test_match01.mat"]
RUN = "matches.tasks_imports.import_job_run_task"


def job_of(names: list[str], *, owner=None, **fields) -> ImportJob:
    job = import_job_create(owner=owner or UserFactory(), files=[(n, (MAT_DIR / n).read_bytes()) for n in names])
    ImportJob.objects.filter(pk=job.pk).update(**fields)
    job.refresh_from_db()
    return job


def mapped_job_of(names: list[str], **fields) -> ImportJob:
    """A job whose files are checked and whose names are all mapped to guests: ready to write."""
    owner = UserFactory()
    job = import_job_run(job_id=job_of(names, owner=owner).pk)
    import_job_map(job_id=job.pk, user=owner, mapping={entry["name"]: "guest" for entry in job.names})
    return job_of_fields(job, **fields)


def job_of_fields(job: ImportJob, **fields) -> ImportJob:
    ImportJob.objects.filter(pk=job.pk).update(**fields)
    job.refresh_from_db()
    return job


def ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


@pytest.fixture
def stall(settings):
    settings.IMPORT_STALL_SECONDS = 600
    settings.IMPORT_MAX_REDISPATCH = 2


@pytest.mark.django_db
def test_a_job_without_progress_is_sent_again_and_the_others_are_left_alone(stall):
    stalled = job_of(NAMES[:1], status=ImportJob.Status.RUNNING, progressed_at=ago(700))
    queued = job_of(NAMES[:1], progressed_at=ago(700))
    busy = job_of(NAMES[:1], status=ImportJob.Status.RUNNING, progressed_at=ago(30))
    done = job_of(NAMES[:1], status=ImportJob.Status.DONE, progressed_at=ago(7000))
    OutboxTask.objects.all().delete()  # the rows of their creation: only the sweeper's are looked at

    assert import_jobs_sweep() == (2, 0)
    rows = OutboxTask.objects.filter(task=RUN).order_by("args")
    assert [row.args for row in rows] == [[stalled.pk], [queued.pk]]
    for job, tries in ((stalled, 1), (queued, 0)):
        job.refresh_from_db()
        assert job.redispatched == tries and timezone.now() - job.progressed_at < timedelta(minutes=1)
    for job in (busy, done):
        assert ImportJob.objects.get(pk=job.pk).redispatched == 0
    assert import_jobs_sweep() == (0, 0)  # just sent again: its clock restarted


@pytest.mark.django_db
def test_the_job_sent_again_resumes_at_its_first_pending_file_without_a_duplicate(stall):
    job = mapped_job_of(NAMES, status=ImportJob.Status.RUNNING)
    first = job.files.order_by("pk").first()
    import_file_process(file_id=first.pk)  # the worker died after one file
    assert Match.objects.count() == 1
    ImportJob.objects.filter(pk=job.pk).update(progressed_at=ago(700))
    assert import_jobs_sweep() == (1, 0)
    row = OutboxTask.objects.filter(task=RUN).latest("pk")
    assert import_job_run_task(*row.args, outbox_id=row.pk) == "done"
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 3, 3) and Match.objects.count() == 3
    assert OutboxTask.objects.get(pk=row.pk).done_at is not None
    assert import_job_run_task(*row.args, outbox_id=row.pk) is None  # a second delivery
    assert Match.objects.count() == 3


@pytest.mark.django_db
def test_after_the_bound_the_remaining_files_fail_with_a_reason_and_the_job_is_done(stall):
    job = mapped_job_of(NAMES[:2], status=ImportJob.Status.RUNNING, progressed_at=ago(700), redispatched=2)
    import_file_process(file_id=job.files.order_by("pk").first().pk)
    ImportJob.objects.filter(pk=job.pk).update(progressed_at=ago(700))
    before = OutboxTask.objects.count()
    assert import_jobs_sweep() == (0, 1)
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 2, 2) and job.finished_at is not None
    imported, failed = job.files.order_by("pk")
    assert imported.status == ImportFile.Status.IMPORTED
    assert failed.status == ImportFile.Status.FAILED
    assert "tried again 2 times without getting further" in failed.error["message"]
    assert OutboxTask.objects.count() == before  # nothing sent


@pytest.mark.django_db
def test_a_queued_job_waiting_behind_others_is_sent_again_but_never_abandoned(stall):
    job = job_of(NAMES[:1], progressed_at=ago(700), redispatched=2)
    for _ in range(3):
        assert import_jobs_sweep() == (1, 0)
        ImportJob.objects.filter(pk=job.pk).update(progressed_at=ago(700))
    job.refresh_from_db()
    assert (job.status, job.redispatched) == (ImportJob.Status.QUEUED, 2)
    assert job.files.get().status == ImportFile.Status.PENDING


@pytest.mark.django_db
def test_processing_a_file_moves_the_jobs_clock():
    job = job_of(NAMES[:1], progressed_at=ago(700))
    import_file_check(file_id=job.files.get().pk)
    job.refresh_from_db()
    assert timezone.now() - job.progressed_at < timedelta(minutes=1)
    job = mapped_job_of(NAMES[:1], progressed_at=ago(700))
    import_file_process(file_id=job.files.get().pk)
    job.refresh_from_db()
    assert timezone.now() - job.progressed_at < timedelta(minutes=1)


@pytest.mark.django_db
def test_a_job_waiting_for_its_players_is_left_alone(stall):
    job = import_job_run(job_id=job_of(NAMES[:1]).pk)
    job = job_of_fields(job, progressed_at=ago(7000), redispatched=5)
    assert job.status == ImportJob.Status.MAPPING
    OutboxTask.objects.all().delete()
    assert import_jobs_sweep() == (0, 0) and not OutboxTask.objects.exists()
    job.refresh_from_db()
    assert (job.status, job.redispatched) == (ImportJob.Status.MAPPING, 5)


# --- a worker killed mid-import -----------------------------------------------------------------------


def wait_for(condition, what: str, processes, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            logs = "\n\n".join(f"--- {p.name}\n{p.log()[-4000:]}" for p in processes)
            state = list(ImportJob.objects.values("status", "done", "total", "progressed_at", "redispatched"))
            rows = list(OutboxTask.objects.values("task", "args", "sent_at", "done_at", "attempts", "last_error"))
            pytest.fail(f"{what} not within {seconds} s\n{state}\n{rows}\n{logs}")
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_import_leaves_a_job_a_new_worker_completes_without_a_duplicate(celery_cluster):
    names = sorted(path.name for path in MAT_DIR.glob("*.mat"))
    # Beat reads the intervals, the workers the limits: every process gets them all.
    celery_cluster.env.update(CRAWFORD_IMPORT_SWEEP_SECONDS="1", CRAWFORD_IMPORT_STALL_SECONDS="3",
                              CRAWFORD_OUTBOX_RELAY_SECONDS="1", CRAWFORD_OUTBOX_GRACE_SECONDS="1")
    beat = celery_cluster.beat()
    first = celery_cluster.worker(queues=("imports",))
    quick = celery_cluster.worker(queues=("quick",))
    owner = UserFactory()
    job = import_job_create(owner=owner, files=[(n, (MAT_DIR / n).read_bytes()) for n in names])
    processes = [beat, first, quick]
    wait_for(lambda: ImportJob.objects.get(pk=job.pk).status == ImportJob.Status.MAPPING, "the files checked",
             processes)
    job.refresh_from_db()
    import_job_map(job_id=job.pk, user=owner, mapping={entry["name"]: "guest" for entry in job.names})
    already = job.done  # files refused or duplicates when checked

    wait_for(lambda: ImportJob.objects.get(pk=job.pk).done >= already + 2, "two files imported", processes)
    first.kill()  # kill -9: its message stays unacknowledged until the visibility timeout (an hour)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.RUNNING and job.done < job.total, "the import ended before the kill"

    started = time.monotonic()
    processes.append(celery_cluster.worker(queues=("imports",)))
    wait_for(lambda: ImportJob.objects.get(pk=job.pk).status == ImportJob.Status.DONE, "the import done", processes)
    job.refresh_from_db()
    assert time.monotonic() - started < 60
    assert (job.done, job.total) == (len(names), len(names)) and job.redispatched >= 1
    statuses = list(job.files.values_list("status", flat=True))
    assert ImportFile.Status.PENDING not in statuses
    imported = [f for f in job.files.all() if f.status == ImportFile.Status.IMPORTED]
    # One match per imported file, none twice.
    assert Match.objects.count() == len(imported) == len({f.match_id for f in imported})

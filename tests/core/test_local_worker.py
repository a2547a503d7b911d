"""The laptop's task workers (core/local_worker.py): without a broker the outbox table is the queue,
a worker per queue takes its rows oldest first, runs each once on its main thread, takes again a
row whose worker died after the grace, never past the attempts' limit, and runs beat's jobs."""

from __future__ import annotations

import fcntl
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
from celery import shared_task
from django.db import transaction
from django.utils import timezone

from core import local_worker
from core.local_worker import (
    LocalWorker,
    Periodic,
    WorkerSupervisor,
    local_due,
    outbox_run_local,
    outbox_take_local,
    queue_locks,
    worker_lock_path,
)
from core.models import OutboxTask, WorkerHeartbeat
from core.outbox import outbox_done, outbox_enqueue, outbox_once

pytestmark = pytest.mark.django_db

#: What the test tasks below did, in order (a list shared by the test and the tasks it runs here).
RAN: list = []


@shared_task(name="tests.core.local_worker_record")
def record_task(value, outbox_id=None):
    with outbox_once(outbox_id) as to_do:
        if to_do:
            RAN.append(value)


@shared_task(name="tests.core.local_worker_fail")
def fail_task(outbox_id=None):
    RAN.append("failed")
    raise ValueError("the task's own failure")


@shared_task(name="tests.core.local_worker_sleep", soft_time_limit=1)
def sleep_task(outbox_id=None):
    from celery.exceptions import SoftTimeLimitExceeded

    try:
        time.sleep(5)
    except SoftTimeLimitExceeded:
        RAN.append("soft limit")
        outbox_done(outbox_id)


@pytest.fixture(autouse=True)
def local(settings):
    settings.LOCAL_TASKS = True
    settings.OUTBOX_GRACE_SECONDS = 10
    settings.OUTBOX_MAX_ATTEMPTS = 3
    RAN.clear()
    yield
    RAN.clear()


def enqueue(task: str, *args, queue: str = "quick", priority: int = 0) -> OutboxTask:
    with transaction.atomic():
        row = outbox_enqueue(task, *args, priority=priority)
    OutboxTask.objects.filter(pk=row.pk).update(queue=queue)
    row.refresh_from_db()
    return row


def test_without_a_broker_a_row_is_written_unsent_for_a_local_worker_and_taken_oldest_first():
    first, second = enqueue("tests.core.local_worker_record", 1), enqueue("tests.core.local_worker_record", 2)
    assert (first.sent_at, first.attempts) == (None, 0)
    now = timezone.now()
    taken = outbox_take_local(["quick"], now=now)
    assert taken.pk == first.pk and (taken.sent_at, taken.attempts) == (now, 1)
    assert outbox_take_local(["quick"], now=now).pk == second.pk
    assert outbox_take_local(["quick"], now=now) is None  # both taken, neither past its grace
    assert outbox_take_local(["imports", "analysis"], now=now) is None


def test_a_local_worker_takes_the_lower_priority_number_first_then_the_oldest():
    task = "tests.core.local_worker_record"
    last = enqueue(task, "last", priority=9)
    later = enqueue(task, "later", priority=6)
    first, second = enqueue(task, "first"), enqueue(task, "second")
    also_last = enqueue(task, "also last", priority=9)
    now = timezone.now()
    taken = [outbox_take_local(["quick"], now=now).pk for _ in range(5)]
    assert taken == [first.pk, second.pk, later.pk, last.pk, also_last.pk]
    assert outbox_take_local(["quick"], now=now) is None


def test_a_local_worker_runs_the_first_served_row_even_behind_a_full_batch_of_the_last_served(monkeypatch):
    monkeypatch.setattr(local_worker, "POLL_BATCH", 3)
    task = "tests.core.local_worker_record"
    for index in range(4):
        enqueue(task, f"upload {index}", priority=9)
    enqueue(task, "director's")
    worker = LocalWorker(["quick"], max_idle_polls=1)
    worker.run_once()
    assert RAN == ["director's"]


def test_a_row_left_by_a_dead_worker_is_taken_again_after_the_grace_times_its_attempts_and_never_past_the_limit():
    row = enqueue("tests.core.local_worker_record", 1)
    start = timezone.now()
    assert outbox_take_local(["quick"], now=start).attempts == 1
    assert outbox_take_local(["quick"], now=start + timedelta(seconds=9)) is None
    assert outbox_take_local(["quick"], now=start + timedelta(seconds=10)).attempts == 2
    later = start + timedelta(seconds=10)
    assert outbox_take_local(["quick"], now=later + timedelta(seconds=19)) is None  # twice the grace now
    assert outbox_take_local(["quick"], now=later + timedelta(seconds=20)).attempts == 3
    assert outbox_take_local(["quick"], now=later + timedelta(days=1)) is None  # OUTBOX_MAX_ATTEMPTS
    row.refresh_from_db()
    assert not local_due(row, later + timedelta(days=1))
    OutboxTask.objects.filter(pk=row.pk).update(done_at=timezone.now())
    assert outbox_take_local(["quick"], now=later + timedelta(days=1)) is None


def test_a_row_run_by_a_local_worker_is_done_once_and_a_second_run_of_it_changes_nothing():
    row = enqueue("tests.core.local_worker_record", "once")
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    row.refresh_from_db()
    assert RAN == ["once"] and row.done_at is not None
    outbox_run_local(row)  # taken again after its worker died, say: the row is done already
    assert RAN == ["once"]


def test_a_task_that_fails_leaves_its_row_to_do_with_the_error_and_the_worker_goes_on():
    failing = enqueue("tests.core.local_worker_fail")
    after = enqueue("tests.core.local_worker_record", "after")
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    failing.refresh_from_db()
    assert RAN == ["failed", "after"]
    assert failing.done_at is None and "the task's own failure" in failing.last_error
    assert OutboxTask.objects.get(pk=after.pk).done_at is not None


def test_an_unknown_task_is_given_up_with_its_name():
    row = enqueue("tests.core.no_such_task")
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    row.refresh_from_db()
    assert row.done_at is not None and "no task tests.core.no_such_task" in row.last_error


def test_a_task_past_its_soft_time_limit_is_stopped_on_the_worker_main_thread():
    row = enqueue("tests.core.local_worker_sleep")
    started = time.monotonic()
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    assert RAN == ["soft limit"] and time.monotonic() - started < 5
    assert OutboxTask.objects.get(pk=row.pk).done_at is not None


def test_a_local_worker_runs_its_tasks_on_its_main_thread_only():
    row = enqueue("tests.core.local_worker_record", "thread")
    refused = []

    def run():
        try:
            outbox_run_local(row)
        except RuntimeError as error:
            refused.append(str(error))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert refused and "main thread" in refused[0] and RAN == []


def test_each_queue_has_one_worker_at_a_time_on_a_database():
    with queue_locks(["analysis"]):
        with pytest.raises(BlockingIOError), queue_locks(["analysis"], wait=False):
            pass
        with queue_locks(["quick"], wait=False):  # another queue is free
            pass
        # A second process is refused the same lock while this one holds it.
        holds = subprocess.run([sys.executable, "-c", (
            "import fcntl, sys\n"
            f"handle = open({str(worker_lock_path('analysis'))!r}, 'a+')\n"
            "try:\n    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
            "except BlockingIOError:\n    sys.exit(3)\n")], timeout=30)
        assert holds.returncode == 3
    with open(worker_lock_path("analysis"), "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when the worker ends


def test_a_local_worker_records_its_queues_heartbeats_and_stops_when_its_server_is_gone(settings):
    worker = LocalWorker(["imports", "analysis"], poll_seconds=0, parent_pid=-1)
    worker.run()  # its parent is not -1: it stops at once, before any poll
    assert not WorkerHeartbeat.objects.exists()
    LocalWorker(["imports", "analysis"], poll_seconds=0, max_idle_polls=1).run()
    assert set(WorkerHeartbeat.objects.values_list("queue", flat=True)) == {"imports", "analysis"}
    assert WorkerHeartbeat.objects.get(queue="imports").worker.startswith("local:")


def test_the_quick_worker_runs_beats_jobs_at_its_start_then_at_their_intervals_less_the_relay_and_heartbeats():
    periodic = Periodic(now=0.0)
    names = [name for name, _args, _every in periodic.jobs]
    assert "core.tasks.outbox_prune_task" in names and "core.tasks.beat_heartbeat_task" in names
    assert "core.tasks.outbox_relay_task" not in names and "core.tasks.worker_heartbeat_task" not in names
    assert sorted(periodic.run_due(now=0.0)) == sorted(names)  # all at once when the worker starts
    assert WorkerHeartbeat.objects.filter(queue="beat").exists()  # /health/ hears beat on a laptop too
    assert periodic.run_due(now=1.0) == []
    every = {name: every for name, _args, every in periodic.jobs}
    assert periodic.run_due(now=every["core.tasks.outbox_prune_task"] - 1) == [
        name for name, seconds in every.items() if seconds <= every["core.tasks.outbox_prune_task"] - 1]
    assert "core.tasks.outbox_prune_task" in periodic.run_due(now=every["core.tasks.outbox_prune_task"])


def test_a_supervised_worker_that_dies_is_started_again(tmp_path):
    started = tmp_path / "started"
    script = f"import os, time\nopen({str(started)!r}, 'a').write(f'{{os.getpid()}}\\n')\ntime.sleep(60)\n"
    supervisor = WorkerSupervisor("quick", command=lambda queue: [sys.executable, "-c", script]).start()
    try:
        deadline = time.monotonic() + 30
        while not (started.exists() and started.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        first = int(started.read_text().split()[0])
        supervisor.process.kill()  # as a segmentation fault would end it
        while len(started.read_text().split()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = [int(pid) for pid in started.read_text().split()]
        assert len(pids) == 2 and pids[0] == first and pids[1] != first
        assert supervisor.deaths == 1
    finally:
        supervisor.stop(timeout=5)
    assert supervisor.process.poll() is not None  # stopped with the supervisor


def test_runserver_starts_one_local_worker_per_queue_without_a_broker_only(settings, monkeypatch):
    from django.core.management import call_command

    from core.management.commands import runserver

    started = []
    monkeypatch.setattr(runserver, "local_workers_start", lambda: started.append(settings.QUEUES))
    monkeypatch.setattr(runserver.WhiteNoiseRunserver, "inner_run", lambda self, *args, **options: None)
    call_command("runserver", "127.0.0.1:0", use_reloader=False)
    assert started == [settings.QUEUES]
    call_command("runserver", "127.0.0.1:0", use_reloader=False, without_workers=True)
    settings.LOCAL_TASKS = False
    call_command("runserver", "127.0.0.1:0", use_reloader=False)
    assert started == [settings.QUEUES]
    assert local_worker.worker_command("analysis")[-4:-2] == ["--queue", "analysis"]

"""The laptop's task workers: the outbox's rows run by processes of this machine, without a broker.

With no ``REDIS_URL`` (the README's run command) there is no broker and no Celery worker. The
outbox table is then the queue (``LOCAL_TASKS``): a change writes its tasks as rows in its own
transaction (core/outbox.py) and nothing else; a *local worker*, a process of its own, takes the
rows of its queues one at a time, by their priority and then oldest first, and runs each task on
its main thread.

Why processes, and why the table:

- A task never runs in a web request's thread. GNU Backgammon's module crashes the process that
  calls it off that process's main thread, and a task that crashes or hangs must not take the web
  server down with it: a worker that dies is started again (:class:`WorkerSupervisor`) and the
  request that confirmed a result has long been answered.
- Nothing queued is lost. The row is written with the change, so a task exists exactly when its
  change does; a worker marks a row sent (``sent_at``, one attempt more) when it takes it, and the
  task marks it done. A row taken by a worker that died (killed, crashed, the server stopped) is
  still sent and not done: it is taken again ``OUTBOX_GRACE_SECONDS`` times its attempts after it
  was taken, and a task that failed on a passing fault (a locked database) the same way, at most
  ``OUTBOX_MAX_ATTEMPTS`` times. Each task does its work once per row (core/outbox.py), so a row
  run again after its worker died changes nothing twice.
- One worker per queue and machine: each holds an exclusive lock on a file named after the
  database and the queue (a second one waits for it), so a row a worker is running is never
  taken by another, and a row still sent and not done when a worker starts was left by one that
  is gone.

``manage.py runserver`` starts one worker per queue (quick, imports, analysis: as in production, a
long import or analysis never delays an email) and watches them; ``manage.py outbox_worker`` runs
one alone (another web server than runserver). The quick worker also runs beat's periodic jobs
(config/celery.py) when it starts and then at their intervals, and every worker records its queue's heartbeat, so
``/health/`` tells the same truth on a laptop as in production.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import F
from django.utils import timezone

from .health import worker_heartbeat_record
from .models import OutboxTask

logger = logging.getLogger(__name__)

#: How many rows of a worker's queues are looked at per poll (the oldest first).
POLL_BATCH = 50
#: Beat's jobs a local worker does itself, so not run from the schedule: the relay (the worker is
#: the relay) and the heartbeats (each worker records its own).
_NOT_PERIODIC = ("core.tasks.outbox_relay_task", "core.tasks.worker_heartbeat_task")


# --- taking and running rows ------------------------------------------------------------------


def local_due(row: OutboxTask, now) -> bool:
    """Whether a local worker should take ``row`` (not done, of its queues) ``now``: never taken,
    or taken ``OUTBOX_GRACE_SECONDS`` times its attempts ago and not done (its worker died, or the
    task failed on a passing fault), fewer than ``OUTBOX_MAX_ATTEMPTS`` times."""
    if row.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
        return False
    if row.sent_at is None:
        return True
    return now - row.sent_at >= timedelta(seconds=settings.OUTBOX_GRACE_SECONDS * max(row.attempts, 1))


def outbox_take_local(queues: Iterable[str], *, now=None) -> OutboxTask | None:
    """Take the first row due (:func:`local_due`) of ``queues`` by priority (the lower number
    first, as a broker's workers take their messages: core.outbox.outbox_enqueue), then the
    oldest: mark it sent now, one attempt more, and return it; None when none is due. The update
    is conditional on the row as it was read, so a row another process took or finished meanwhile
    is not taken twice."""
    now = now or timezone.now()
    candidates = (OutboxTask.objects.filter(queue__in=list(queues), done_at=None)
                  .order_by("priority", "pk")[:POLL_BATCH])
    for row in candidates:
        if not local_due(row, now):
            continue
        taken = OutboxTask.objects.filter(pk=row.pk, done_at=None, sent_at=row.sent_at, attempts=row.attempts).update(
            sent_at=now, attempts=F("attempts") + 1)
        if taken:
            row.sent_at, row.attempts = now, row.attempts + 1
            return row
    return None


def _soft_time_limit_reached(signum, frame):
    raise SoftTimeLimitExceeded()


def outbox_run_local(row: OutboxTask) -> None:
    """Run ``row``'s task here, on this thread (it must be the process's main thread: the soft time
    limit is an alarm signal, and GNU Backgammon runs nowhere else), as a worker would:
    ``task(*args, outbox_id=row.pk)`` with its soft time limit. The task marks the row done; a task
    that fails leaves it not done, to be taken again later (:func:`local_due`). Never raises for the
    task's own failure (it is logged, and kept on the row)."""
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("a local worker runs its tasks on its process's main thread")
    task = current_app.tasks.get(row.task)
    if task is None:
        OutboxTask.objects.filter(pk=row.pk).update(done_at=timezone.now(), last_error=f"failed: no task {row.task}")
        logger.error("outbox row %s names an unknown task %s: given up", row.pk, row.task)
        return
    soft = getattr(task, "soft_time_limit", None) or settings.CELERY_TASK_SOFT_TIME_LIMIT
    previous = signal.signal(signal.SIGALRM, _soft_time_limit_reached)
    signal.setitimer(signal.ITIMER_REAL, soft)
    try:
        result = task.apply(args=list(row.args), kwargs={"outbox_id": row.pk})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if result.failed():
        logger.warning("task %s of outbox row %s failed: %r", row.task, row.pk, result.result)
        with contextlib.suppress(Exception):  # the database may be what failed
            OutboxTask.objects.filter(pk=row.pk, done_at=None).update(last_error=f"{result.result!r}"[:2000])


# --- one worker -----------------------------------------------------------------------------------


def worker_lock_path(queue: str) -> Path:
    """The file a local worker of ``queue`` holds locked while it runs: one per database and queue,
    in the temporary folder (two checkouts on one machine, each with its own SQLite file, each have
    their own workers)."""
    db = connection.settings_dict
    identity = f"{db['ENGINE']}|{db.get('HOST') or ''}|{db.get('PORT') or ''}|{db['NAME']}"
    digest = hashlib.sha256(identity.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"crawford-worker-{digest}-{queue}.lock"


@contextlib.contextmanager
def queue_locks(queues: Iterable[str], *, wait: bool = True):
    """Hold the lock of each of ``queues`` (:func:`worker_lock_path`) while the block runs; waits
    for a worker that holds one to end (``wait``), else raises BlockingIOError. The locks go with
    the process, however it ends."""
    files = []
    try:
        for queue in sorted(set(queues)):
            handle = open(worker_lock_path(queue), "a+")  # noqa: SIM115 -- held until the block ends
            files.append(handle)
            if wait:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    logger.info("another local worker runs the %s queue: waiting for it to end", queue)
                    fcntl.flock(handle, fcntl.LOCK_EX)
            else:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        for handle in files:
            handle.close()


class Periodic:
    """Beat's schedule (config/celery.py), run by a local worker: each job when the worker starts
    (what a crash left to catch up on is caught up at once, and beat's heartbeat is recorded), then
    at its interval, less the jobs the worker does itself."""

    def __init__(self, *, now: float | None = None):
        start = time.monotonic() if now is None else now
        # Every app's tasks module, as a Celery worker imports them at its start: a job's task is
        # registered only once its module is imported.
        current_app.loader.import_default_modules()
        schedule = current_app.conf.beat_schedule or {}
        self.jobs = [(entry["task"], tuple(entry.get("args", ())), float(entry["schedule"]))
                     for entry in schedule.values() if entry["task"] not in _NOT_PERIODIC]
        self.next = dict.fromkeys(range(len(self.jobs)), start)

    def run_due(self, *, now: float | None = None) -> list[str]:
        """Run the jobs whose time has come (each on its own: one failing does not stop the
        others); returns their task names."""
        now = time.monotonic() if now is None else now
        ran = []
        for index, (name, args, every) in enumerate(self.jobs):
            if now < self.next[index]:
                continue
            self.next[index] = now + every
            task = current_app.tasks.get(name)
            if task is None:
                continue
            try:
                task.apply(args=list(args))
            except Exception:
                logger.exception("periodic job %s failed", name)
            ran.append(name)
        return ran


class LocalWorker:
    """A local worker of ``queues``: takes their rows due one at a time and runs them
    (:func:`outbox_run_local`), records their heartbeats, and (with ``periodic``) runs beat's jobs.

    It stops after the task it is running when asked (:meth:`stop`, SIGTERM or SIGINT), when
    ``parent_pid`` is given and that process is gone (the server that started it), or after
    ``max_idle_polls`` polls that found nothing (tests)."""

    def __init__(self, queues: Iterable[str], *, periodic: bool = False, parent_pid: int | None = None,
                 poll_seconds: float | None = None, max_idle_polls: int | None = None):
        current_app.loader.import_default_modules()  # every task a row may name, as a Celery worker
        self.queues = tuple(queues)
        self.periodic = Periodic() if periodic else None
        self.parent_pid = parent_pid
        self.poll = settings.LOCAL_WORKER_POLL_SECONDS if poll_seconds is None else poll_seconds
        self.max_idle_polls = max_idle_polls
        self.stopping = False
        self.name = f"local:{os.uname().nodename}:{os.getpid()}"
        self._last_heartbeat = float("-inf")

    def stop(self, *_signal_args) -> None:
        """Stop after the task running now (a signal handler too)."""
        self.stopping = True

    def _parent_gone(self) -> bool:
        return self.parent_pid is not None and os.getppid() != self.parent_pid

    def heartbeat(self) -> None:
        """Record each queue's heartbeat, at most every ``HEARTBEAT_SECONDS``."""
        now = time.monotonic()
        if now - self._last_heartbeat < settings.HEARTBEAT_SECONDS:
            return
        for queue in self.queues:
            worker_heartbeat_record(queue=queue, worker=self.name)
        self._last_heartbeat = now

    def run_once(self) -> OutboxTask | None:
        """One turn: heartbeats and periodic jobs when due, then the oldest row due, run; returns
        the row run (None: nothing was due). A database that does not answer is logged and the
        turn ends."""
        if not connection.in_atomic_block:  # a caller's transaction (a test's) is not ours to close
            close_old_connections()
        try:
            self.heartbeat()
            if self.periodic is not None:
                self.periodic.run_due()
            row = outbox_take_local(self.queues)
        except Exception:
            logger.exception("local worker of %s: the outbox could not be read", ", ".join(self.queues))
            return None
        if row is not None:
            outbox_run_local(row)
        return row

    def run(self) -> None:
        """Run until stopped (see the class), holding the queues' locks."""
        with queue_locks(self.queues):
            logger.info("local worker %s runs the %s queue(s)", self.name, ", ".join(self.queues))
            idle = 0
            while not self.stopping and not self._parent_gone():
                if self.run_once() is not None:
                    idle = 0
                    continue
                idle += 1
                if self.max_idle_polls is not None and idle >= self.max_idle_polls:
                    break
                time.sleep(self.poll)


# --- the server's workers ---------------------------------------------------------------------------


def _die_with_parent() -> None:
    # Linux: the worker is sent SIGTERM when the server that started it dies, even by kill -9 (it
    # then stops after its task); elsewhere it notices its parent gone at its next poll.
    with contextlib.suppress(Exception):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class WorkerSupervisor:
    """Starts a local worker process for one queue (``manage.py outbox_worker``) and starts it again
    whenever it dies (a crash, a kill), waiting a little longer after each death in a row (1 s
    doubled up to 30 s; a worker that lived a minute resets it), until :meth:`stop`."""

    def __init__(self, queue: str, *, command: Callable[[str], list[str]] | None = None):
        self.queue = queue
        self.command = command or worker_command
        self.process: subprocess.Popen | None = None
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, name=f"local-worker-{queue}", daemon=True)
        self.deaths = 0

    def start(self) -> WorkerSupervisor:
        self.thread.start()
        return self

    def _watch(self) -> None:
        delay = 1.0
        while not self._stopped.is_set():
            started = time.monotonic()
            self.process = subprocess.Popen(self.command(self.queue), preexec_fn=_die_with_parent)
            code = self.process.wait()
            if self._stopped.is_set():
                return
            self.deaths += 1
            delay = 1.0 if time.monotonic() - started > 60 else min(delay * 2, 30.0)
            logger.error("the local %s worker ended (exit status %s): started again in %.0f s", self.queue, code, delay)
            self._stopped.wait(delay)

    def stop(self, *, timeout: float = 10.0) -> None:
        """Stop the worker (after its task; killed after ``timeout`` seconds) and watch no more."""
        self._stopped.set()
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()


def worker_command(queue: str) -> list[str]:
    """The command line of a local worker of ``queue`` started by this process."""
    return [sys.executable, str(settings.BASE_DIR / "manage.py"), "outbox_worker", "--queue", queue,
            "--parent", str(os.getpid())]


def local_workers_start(queues: Iterable[str] | None = None) -> list[WorkerSupervisor]:
    """Start (and watch) one local worker process per queue (``settings.QUEUES`` by default)."""
    return [WorkerSupervisor(queue).start() for queue in (queues or settings.QUEUES)]

"""Shared fixtures. Database tests stop at once, with a clear message, unless PostgreSQL and
Redis answer; engine tests never touch either."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest


def kept_database_unknown_migrations(name: str | None = None) -> list[tuple[str, str]]:
    """The migrations the kept test database (``name``; by default the one pytest-django is about
    to use, this xdist worker's own when run in parallel) records that this code does not have
    (made on a branch since gone), or [] when there is no kept database or it is in step.

    Read on a connection of its own, outside pytest-django's setup: it runs before the test
    database is chosen. Only PostgreSQL is asked (the suite refuses anything else)."""
    from django.db import connections
    from django.db.migrations.loader import MigrationLoader

    db = connections["default"].settings_dict
    if db["ENGINE"] != "core.postgresql":
        return []
    import psycopg

    name = name or (db.get("TEST") or {}).get("NAME") or f"test_{db['NAME']}"
    try:
        with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                             password=db["PASSWORD"] or None, dbname=name, connect_timeout=5) as conn:
            recorded = {tuple(row) for row in conn.execute("SELECT app, name FROM django_migrations")}
    except psycopg.Error:  # no kept database, or not migrated yet: pytest-django makes it
        return []
    return sorted(recorded - set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations))


@pytest.fixture(scope="session")
def django_db_createdb(request, django_db_modify_db_settings) -> bool:  # replaces pytest-django's fixture
    """Make the test database anew when asked (``--create-db``) or when the kept one (the suite
    runs with ``--reuse-db``) records a migration this code lacks: migrating it would fail, and
    with it every database test.

    Asked after ``django_db_modify_db_settings``, which gives an xdist worker's test database its
    suffix (``test_crawford_gw0``): the database looked at is the one this worker will use."""
    if request.config.getvalue("create_db"):
        return True
    unknown = kept_database_unknown_migrations()
    if unknown:
        print(f"\nthe kept test database records migrations this code lacks ({unknown[:3]}...): made anew")
    return bool(unknown)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):  # extends pytest-django's fixture
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.exit(f"the test suite needs PostgreSQL (DATABASE_URL); got {connection.vendor}", returncode=3)
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        pytest.exit(f"the test suite needs Redis at {settings.REDIS_URL}: {error}", returncode=3)
    from django.core.cache import cache

    # A kept test database starts its ids where the last run stopped, a new one from 1: either
    # way, nothing cached by an earlier run may answer for this one. Only this process's keys go
    # (tests/settings_env.py): another xdist worker's cache and queues are left alone.
    cache.clear()
    yield


# --- in parallel (pytest-xdist, -n) ----------------------------------------------------------------

#: Folders whose tests all run on one xdist worker, one after another: the fault tests build one stack
#: of servers for the session (tests/faults/conftest.py), stop and start them and time recoveries; a
#: second worker would build a second stack and stop and start its servers at the same moments.
ONE_WORKER = ("tests/faults/",)


def one_worker_scope(nodeid: str) -> str:
    """The unit of work ``nodeid`` is sent to a worker in: its folder of ``ONE_WORKER``, or itself."""
    return next((folder for folder in ONE_WORKER if nodeid.startswith(folder)), nodeid)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With ``-n`` (and no other ``--dist`` asked for) each test goes to whichever worker is free,
    biggest unit first, and the tests of a folder of ``ONE_WORKER`` go to one worker together.

    Not xdist's ``--dist loadgroup`` and the ``xdist_group`` mark: it tells the controller the group
    by rewriting the tests' node ids, which pytest 9.2 no longer reads (upstream: pytest-dev/pytest-xdist#1386),
    so the tests would be spread silently. The controller knows the paths. Returns None (xdist's
    own scheduler) for any other ``--dist``."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerFoldersScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return one_worker_scope(nodeid)

    return OneWorkerFoldersScheduling(config, log)


#: The queues' prefix of this test run (config/settings.py QUEUE_PREFIX).
SESSION_QUEUE_PREFIX = f"crawford-test-{os.getpid()}-{uuid.uuid4().hex[:8]}-"


def pytest_unconfigure(config):
    from django.conf import settings

    with contextlib.suppress(Exception):  # no Redis configured, or gone: nothing to clean
        forget_queue(settings.REDIS_URL, SESSION_QUEUE_PREFIX)


@pytest.fixture(autouse=True)
def _broker_not_known_down():
    """No test inherits another's memory that the broker was down (core.outbox keeps it in the
    process for a few seconds)."""
    outbox = sys.modules.get("core.outbox")
    if outbox is not None:
        outbox.broker_forget()
    yield
    outbox = sys.modules.get("core.outbox")
    if outbox is not None:
        outbox.broker_forget()


@pytest.fixture(autouse=True)
def _language_not_left_behind():
    """No test inherits the language a request of another activated (LocaleMiddleware activates the
    request's language in the thread and leaves it there: a server's next request activates its
    own, a test's next lines would run in it)."""
    from django.conf import settings
    from django.utils import translation

    yield
    translation.activate(settings.LANGUAGE_CODE)


#: Throttle rates in tests: high enough that no test is throttled by accident (the schemathesis run
#: sends hundreds of requests as one user); a test lowers one with the ``throttle_rates`` fixture.
TEST_THROTTLE_RATE = "100000/minute"


def pytest_configure(config):
    """Test-only knobs: a fast password hasher, emails kept in memory, tasks never eager (tests
    call tasks directly, or run a real worker), throttles that never get in the way, and a sign-in
    lockout that lets the test client's ``login()`` through (tests/axes_backend.py).

    The lockout keeps its failed attempts in the database, so each test's rollback forgets them:
    the lockout works in every test and no test sees another's failures."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    # The shared Redis's uptime is not this run's to judge rows by (it may have started a minute
    # ago): the relay's resend after a broker restart is tested where it is turned on.
    settings.OUTBOX_RESEND_AFTER_BROKER_RESTART = False
    # Whatever a test sends to the broker goes to queues of this run alone (no worker of another
    # run takes it); they are removed at the end (pytest_unconfigure).
    settings.QUEUE_PREFIX = SESSION_QUEUE_PREFIX
    settings.AUTHENTICATION_BACKENDS = ["tests.axes_backend.TestClientLockoutBackend",
                                        *settings.AUTHENTICATION_BACKENDS[1:]]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], TEST_THROTTLE_RATE),
    }


@pytest.fixture
def throttle_rates(settings):
    """Lower throttle rates for one test: ``throttle_rates(reports="2/minute")``. The throttle
    counters (in the cache) are cleared before and after, so no other test inherits them."""
    from django.core.cache import cache

    def lower(**rates: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**current, **rates}}
        cache.clear()

    yield lower
    cache.clear()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


# --- a real Celery worker ----------------------------------------------------------------------


def tests_database_url() -> str:
    """The URL of the database the tests run on (the test database, not the one configured)."""
    from django.db import connection

    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@dataclass
class CeleryProcess:
    """A test's running worker or beat: its process and the file it logs to."""

    name: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        """The process's output so far."""
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """``kill -9`` the process and its children (a worker dying mid-task)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop it (warm shutdown), killed if it does not stop within 20 s."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


def forget_queue(url: str, queue: str) -> None:
    """Leave nothing of a test's queues in Redis: every key naming ``queue`` (a queue or a prefix
    of queues), their bindings, the workers' control queues."""
    import redis

    client = redis.Redis.from_url(url)
    stale_keys = list(client.scan_iter(f"*{queue}*"))
    if stale_keys:
        client.delete(*stale_keys)
    for key in client.scan_iter("_kombu.*"):
        kind = client.type(key)
        if kind == b"set":
            members, remove = client.smembers(key), client.srem
        elif kind == b"zset":
            members, remove = client.zrange(key, 0, -1), client.zrem
        else:
            continue
        stale = [member for member in members if queue.encode() in member]
        if stale:
            remove(key, *stale)


class CeleryCluster:
    """Real Celery workers and beat for one test, on the test database and ``settings.REDIS_URL``,
    with queues of their own: every queue's name starts with :attr:`prefix`, which the test process
    uses too (``settings.QUEUE_PREFIX``), so what the test's outbox sends goes to these workers and
    to no other run's. Each process gets the environment given to it on top of the common one:
    short intervals for beat, say (``CRAWFORD_OUTBOX_RELAY_SECONDS="1"``)."""

    def __init__(self, prefix: str, directory: Path, env: dict[str, str]):
        self.prefix, self.directory, self.env = prefix, directory, env
        self.processes: list[CeleryProcess] = []

    def _start(self, name: str, args: list[str], env: dict[str, str], ready: str | None) -> CeleryProcess:
        from django.conf import settings

        log_path = self.directory / f"celery-{name}-{len(self.processes)}.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *args, "--loglevel=INFO"],
                cwd=Path(settings.BASE_DIR), env={**self.env, **env}, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        started = CeleryProcess(name, process, log_path)
        self.processes.append(started)
        deadline = time.monotonic() + 60
        while ready is not None and not re.search(ready, started.log()):
            if process.poll() is not None:
                pytest.fail(f"the Celery {name} stopped before it was ready:\n{started.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"the Celery {name} was not ready after 60 s:\n{started.log()}")
            time.sleep(0.1)
        return started

    def worker(self, queues: tuple[str, ...] = ("quick", "imports"), **env: str) -> CeleryProcess:
        """Start a worker (one process, solo pool) of ``queues`` (names without the prefix) and wait
        until it is ready."""
        name = f"{self.prefix}{'-'.join(queues)}-{len(self.processes)}"
        return self._start("worker", [
            "worker", "--pool=solo", "--concurrency=1", "-Q", ",".join(self.prefix + q for q in queues),
            "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
        ], env, rf"{re.escape(name)}@\S+ ready\.")

    def beat(self, **env: str) -> CeleryProcess:
        """Start beat (its schedule file in the test's directory): it sends the periodic tasks of
        config/celery.py at the intervals ``env`` gives (e.g. ``CRAWFORD_OUTBOX_RELAY_SECONDS="1"``)."""
        schedule = self.directory / f"celerybeat-schedule-{len(self.processes)}"
        return self._start("beat", ["beat", "-s", str(schedule)], env, r"beat: Starting")

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.stop()


@pytest.fixture
def celery_cluster(transactional_db, settings, tmp_path):
    """A :class:`CeleryCluster` for the test (start its workers and beat with ``.worker()`` and
    ``.beat()``); everything it started is stopped afterwards and its queues removed from Redis.
    The test's database is transactional, so the workers see what the test commits."""
    prefix = f"crawford-test-{os.getpid()}-{uuid.uuid4().hex[:12]}-"
    settings.QUEUE_PREFIX = prefix
    env = {**os.environ, "DATABASE_URL": tests_database_url(), "REDIS_URL": settings.REDIS_URL,
           "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "true", "CONN_MAX_AGE": "0",
           "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
           "CRAWFORD_QUEUE_PREFIX": prefix}
    cluster = CeleryCluster(prefix, tmp_path, env)
    try:
        yield cluster
    finally:
        cluster.stop()
        forget_queue(settings.REDIS_URL, prefix)


@pytest.fixture
def celery_worker_process(celery_cluster):
    """One real ``celery -A config worker`` of both queues (quick and imports), ready before the
    test starts; see :class:`CeleryCluster`. Yields its :class:`CeleryProcess`."""
    yield celery_cluster.worker()

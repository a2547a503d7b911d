"""Shared fixtures. Database tests stop at once, with a clear message, unless PostgreSQL and
Redis answer; engine tests never touch either."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest


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
    # way, nothing cached by an earlier run may answer for this one.
    cache.clear()
    yield


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
class CeleryWorker:
    """A test's running worker: the queue it consumes, its process and the file it logs to."""

    queue: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        """The worker's output so far."""
        return self.log_path.read_text(errors="replace")


def forget_queue(url: str, queue: str) -> None:
    """Leave nothing of a test worker in Redis: its queue, the queue's bindings, the worker's
    control queue."""
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


@pytest.fixture
def celery_worker_process(transactional_db, monkeypatch, tmp_path):
    """A real ``celery -A config worker`` on the test database and ``settings.REDIS_URL``, ready
    before the test starts; stopped (killed if need be) afterwards, its queue removed from Redis.

    The worker consumes only a queue of its own, and every task of the project sent during the test
    (``delay`` or ``apply_async`` without a queue) goes to that queue: no worker of another test run
    sharing the Redis database takes them, and this one takes nobody else's. The test's database is
    transactional, so the worker sees what the test commits. Yields a :class:`CeleryWorker`."""
    from django.conf import settings

    from config.celery import app

    queue = f"crawford-test-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    for name, task in app.tasks.items():
        if not name.startswith("celery."):
            monkeypatch.setattr(task, "apply_async", functools.partial(task.apply_async, queue=queue))

    base = Path(settings.BASE_DIR)
    env = {**os.environ, "DATABASE_URL": tests_database_url(), "REDIS_URL": settings.REDIS_URL,
           "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "true", "CONN_MAX_AGE": "0",
           "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    log_path = tmp_path / "celery-worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--concurrency=1",
             "-Q", queue, "-n", f"{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--loglevel=INFO"],
            cwd=base, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    worker = CeleryWorker(queue, process, log_path)
    try:
        deadline = time.monotonic() + 60
        while not re.search(rf"{re.escape(queue)}@\S+ ready\.", worker.log()):
            if process.poll() is not None:
                pytest.fail(f"the Celery worker stopped before it was ready:\n{worker.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"the Celery worker was not ready after 60 s:\n{worker.log()}")
            time.sleep(0.1)
        yield worker
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        forget_queue(settings.REDIS_URL, queue)

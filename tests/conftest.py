"""Shared fixtures. Database tests stop at once, with a clear message, unless PostgreSQL and
Redis answer; engine tests never touch either."""

from __future__ import annotations

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

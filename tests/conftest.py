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


def pytest_configure(config):
    """Test-only knobs: a fast password hasher, emails kept in memory, tasks never eager (tests
    call tasks directly, or run a real worker)."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CELERY_TASK_ALWAYS_EAGER = False


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()

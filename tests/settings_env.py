"""Loaded with ``-p`` before Django is set up: the test suite runs on real PostgreSQL and Redis.

Defaults are the local services (127.0.0.1, trust auth); CI and developers may point elsewhere
by setting DATABASE_URL and REDIS_URL themselves.

Run in parallel (pytest-xdist, ``-n``), each worker has its own test database (pytest-django adds
``_gw0``, ``_gw1``... to its name) and, in the one Redis database, its own cache keys: the prefix
set here (``PYTEST_XDIST_WORKER`` is set before the worker loads this plugin) is read by
config/settings.py, and passed on to the Celery workers a test starts, whose environment is this
one. Clearing the cache then removes only the worker's own keys (core/cache.py).
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("DJANGO_DEBUG", "true")
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["CRAWFORD_CACHE_KEY_PREFIX"] = f"test-{os.environ['PYTEST_XDIST_WORKER']}"

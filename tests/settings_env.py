"""Loaded with ``-p`` before Django is set up: the test suite runs on real PostgreSQL and Redis.

Defaults are the local services (127.0.0.1, trust auth); CI and developers may point elsewhere
by setting DATABASE_URL and REDIS_URL themselves.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/crawford")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("DJANGO_DEBUG", "true")

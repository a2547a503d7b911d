"""core.cache: one Redis client per process. Django keeps a cache object per thread, and its own
Redis backend builds a client per operation (and a pool per thread); FailOpenRedisCache hands every
operation of every thread the one client of its location, whose pool opens a connection only when
more threads than ever before talk to Redis at once."""

from __future__ import annotations

import threading
import uuid

import pytest
import redis
import redis.connection
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings

from core import cache as core_cache
from core.cache import FailOpenRedisCache

THREADS = 8
OPERATIONS = 50  # per thread, each a set and a get


@pytest.fixture
def counted(monkeypatch):
    """Counts the redis.Redis clients built and the connections opened (sockets connected)."""
    monkeypatch.setattr(core_cache, "_clients", {})
    monkeypatch.setattr(core_cache, "_circuits", {})
    counts = {"clients": 0, "connections": 0}
    lock = threading.Lock()
    real_init, real_connect = redis.Redis.__init__, redis.connection.Connection._connect

    def init(self, *args, **kwargs):
        with lock:
            counts["clients"] += 1
        real_init(self, *args, **kwargs)

    def connect(self):
        with lock:
            counts["connections"] += 1
        return real_connect(self)

    monkeypatch.setattr(redis.Redis, "__init__", init)
    monkeypatch.setattr(redis.connection.Connection, "_connect", connect)
    return counts


def hammer(make_cache) -> None:
    """THREADS threads, each with its own cache object (as Django's ``caches`` gives each thread),
    each doing OPERATIONS sets and gets; every value read back."""
    prefix = f"pool-{uuid.uuid4().hex}"
    failures = []
    barrier = threading.Barrier(THREADS)

    def work(number: int) -> None:
        cache = make_cache(prefix)
        barrier.wait()
        for i in range(OPERATIONS):
            cache.set(f"{number}:{i}", i, 60)
            if cache.get(f"{number}:{i}") != i:
                failures.append((number, i))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_every_thread_and_operation_shares_one_client_and_a_connection_per_thread_at_most(counted):
    with override_settings(CACHES={"default": {"BACKEND": "core.cache.FailOpenRedisCache",
                                               "LOCATION": settings.REDIS_URL}}):
        def per_thread(prefix):
            cache = caches["default"]  # the thread's own cache object
            cache.key_prefix = prefix
            return cache

        hammer(per_thread)
    assert counted["clients"] == 1
    assert 1 <= counted["connections"] <= THREADS


def test_the_connections_are_reused_across_requests_of_one_thread(counted):
    cache = FailOpenRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"pool-{uuid.uuid4().hex}"})
    for i in range(200):
        cache.set("key", i)
        assert cache.get("key") == i
    again = FailOpenRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"pool-{uuid.uuid4().hex}"})
    assert again.get("key") is None
    assert (counted["clients"], counted["connections"]) == (1, 1)


def test_djangos_own_backend_builds_a_client_per_operation(counted):
    """What FailOpenRedisCache spares: the same work through Django's backend."""
    hammer(lambda prefix: RedisCache(settings.REDIS_URL, {"KEY_PREFIX": prefix}))
    assert counted["clients"] == THREADS * OPERATIONS * 2

"""core.cache: with Redis unreachable the cache fails open (reads miss, writes are skipped, a claim
with ``add`` goes ahead), logs it at most once a minute, spares Redis while its breaker is open, and
uses Redis again once it answers. The API and its throttles then answer from the database."""

from __future__ import annotations

import logging
import socket
import threading
import uuid

import pytest
import redis
from django.conf import settings
from django.core import mail
from django.core.cache.backends.redis import RedisCacheClient
from django.test import override_settings

from core import cache as core_cache
from core import outages
from core.cache import FailOpenRedisCache
from matches.services.reporting import Claim, match_report
from matches.tasks import match_notify_task
from tests.factories import MatchFactory
from tests.matches.factories_ratings import match_between, player


def dead_url() -> str:
    """A Redis URL where nothing listens (connections are refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


class Clock:
    """time.monotonic for core.cache and core.outages, moved by hand."""

    def __init__(self, monkeypatch):
        self.now = 1000.0
        monkeypatch.setattr(core_cache, "monotonic", lambda: self.now)
        monkeypatch.setattr(outages, "monotonic", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


@pytest.fixture(autouse=True)
def fresh_circuits(monkeypatch):
    """Each test's caches get breakers of their own (they are per process and location)."""
    monkeypatch.setattr(core_cache, "_circuits", {})


def test_with_redis_unreachable_reads_miss_and_writes_are_skipped():
    cache = FailOpenRedisCache(dead_url(), {})
    assert cache.get("key") is None
    assert cache.get("key", "default") == "default"
    assert cache.get_many(["a", "b"]) == {}
    assert cache.has_key("key") is False
    assert cache.get_or_set("key", 7) == 7
    assert cache.set("key", 1) is None
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]  # none of them stored
    assert cache.touch("key") is False
    assert cache.delete("key") is False
    assert cache.delete_many(["a", "b"]) is None
    assert cache.clear() is False
    with pytest.raises(ValueError, match="not found"):  # as for a key that is not there
        cache.incr("counter")


def test_with_redis_unreachable_a_claim_with_add_goes_ahead():
    """notifications.py claims each email with add: False would mean "already sent" and lose it."""
    cache = FailOpenRedisCache(dead_url(), {})
    assert cache.add("crawford:notify:1:reported:x", 1, 60) is True
    assert cache.add("crawford:notify:1:reported:x", 1, 60) is True


def test_with_redis_up_it_is_an_ordinary_cache():
    cache = FailOpenRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})
    assert cache.add("key", 1) is True
    assert cache.add("key", 2) is False
    assert cache.get("key") == 1
    assert cache.incr("key", 4) == 5
    cache.set_many({"a": "x", "b": "y"})
    assert cache.get_many(["a", "b", "c"]) == {"a": "x", "b": "y"}
    assert cache.delete("key") is True
    assert cache.get("key") is None
    cache.delete_many(["a", "b"])
    assert cache.circuit.failures == 0


def test_clearing_the_cache_removes_its_own_keys_and_leaves_the_broker_and_other_prefixes_alone():
    """Each xdist worker clears its own cache (tests/settings_env.py) while another runs on the same
    Redis database, as the Celery broker does in production."""
    tag = uuid.uuid4().hex
    ours = FailOpenRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-{tag}-gw0"})
    # A prefix that starts like ours, and one with the glob's own characters, read literally.
    theirs = FailOpenRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-{tag}-gw0x"})
    starred = FailOpenRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-{tag}-*"})
    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = f"crawford-test-{tag}-quick"
    try:
        ours.set_many({f"key{i}": i for i in range(2500)})  # more than one batch of SCAN and UNLINK
        theirs.set("key1", "theirs")
        starred.set("key1", "starred")
        client.lpush(queue, "a task")
        assert ours.clear() is True
        assert ours.get_many(["key1", "key2499"]) == {}
        assert theirs.get("key1") == "theirs" and client.llen(queue) == 1
        assert starred.clear() is True
        assert starred.get("key1") is None and theirs.get("key1") == "theirs"
    finally:
        theirs.clear()
        client.delete(queue)


def test_the_failure_is_logged_once_a_minute_then_its_end_once(clock, caplog, monkeypatch):
    cache = FailOpenRedisCache(settings.REDIS_URL, {"OPTIONS": {"retry_seconds": 0}})
    real_get = RedisCacheClient.get

    def refused(self, key, default):
        raise redis.ConnectionError("Connection refused.")

    monkeypatch.setattr(RedisCacheClient, "get", refused)
    with caplog.at_level(logging.WARNING, logger="core.cache"):
        for _ in range(5):
            assert cache.get("key", "miss") == "miss"
            clock.advance(1)
        assert [r.getMessage() for r in caplog.records] == [
            "The cache (Redis) is unavailable (ConnectionError: Connection refused.); "
            "the cache fails open: reads miss and writes are skipped until it answers"
        ]
        clock.advance(60)
        cache.get("key")
        assert len(caplog.records) == 2
        assert caplog.records[1].getMessage().endswith("(4 more failures since the last message)")
        monkeypatch.setattr(RedisCacheClient, "get", real_get)
        cache.get("key")
        cache.get("key")
    assert [r.getMessage() for r in caplog.records[2:]] == ["The cache (Redis) answers again after 65.0 s"]


class SilentServer:
    """A TCP server that takes connections and never answers: a Redis that hangs. Counts them."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.connections: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append(conn)

    def close(self) -> None:
        self.listener.close()
        for conn in self.connections:
            conn.close()


@pytest.fixture
def silent_server():
    server = SilentServer()
    yield server
    server.close()


def test_a_hanging_redis_costs_one_timeout_then_the_breaker_skips_it(silent_server, clock):
    """The default socket timeout ends the first call (without it, it would hang for ever); every
    call while the breaker is open answers without a connection; after retry_seconds one call
    tries again."""
    cache = FailOpenRedisCache(f"redis://127.0.0.1:{silent_server.port}/0", {"OPTIONS": {"retry_seconds": 5}})
    assert cache.get("key", "miss") == "miss"
    assert len(silent_server.connections) == 1
    for _ in range(20):
        assert cache.get("key", "miss") == "miss"
        assert cache.add("key", 1) is True
        cache.set("key", 1)
    clock.advance(4.9)
    cache.get("key")
    assert len(silent_server.connections) == 1
    assert cache.circuit.skipped == 61
    clock.advance(0.2)
    assert cache.get("key", "miss") == "miss"  # tried again, and timed out again
    assert cache.circuit.failures == 2


def test_once_redis_answers_again_the_cache_is_used(clock, monkeypatch):
    cache = FailOpenRedisCache(settings.REDIS_URL,
                               {"OPTIONS": {"retry_seconds": 5}, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"})
    cache.set("key", "stored")
    with monkeypatch.context() as patch:
        patch.setattr(RedisCacheClient, "get", lambda self, key, default: (_ for _ in ()).throw(redis.ConnectionError()))
        assert cache.get("key") is None
    assert cache.get("key") is None  # the breaker is open: Redis is not asked
    clock.advance(5)
    assert cache.get("key") == "stored"
    assert cache.get("key") == "stored"
    assert cache.circuit.failures == 1


# --- the API with the cache down ------------------------------------------------------------------


def caches_at(url: str, backend: str = "core.cache.FailOpenRedisCache") -> dict:
    return {"default": {"BACKEND": backend, "LOCATION": url}}


@pytest.mark.django_db
def test_with_the_cache_down_the_api_and_its_docs_answer_from_the_database(api_client):
    match = MatchFactory()
    with override_settings(CACHES=caches_at(dead_url())):
        for url in ("/api/v1/matches/", f"/api/v1/matches/{match.pk}/", "/api/schema/", "/api/docs/"):
            assert api_client.get(url).status_code == 200, url
        assert api_client.get(f"/api/v1/matches/{match.pk}/").json()["id"] == match.pk


@pytest.mark.django_db
def test_the_throttles_fail_open_and_log_it_even_under_a_cache_that_raises(api_client, caplog):
    """Django's own Redis cache raises when Redis is down: the throttles let the request through."""
    with (override_settings(CACHES=caches_at(dead_url(), "django.core.cache.backends.redis.RedisCache")),
          caplog.at_level(logging.WARNING, logger="core.throttles")):
        assert api_client.get("/api/v1/matches/").status_code == 200
        assert api_client.get("/api/v1/matches/").status_code == 200
    assert any(r.getMessage().startswith("The throttles' cache is unavailable (ConnectionError")
               for r in caplog.records)


@pytest.mark.django_db
def test_with_the_cache_down_a_result_email_is_still_sent():
    """The claim that keeps an email from going out twice cannot be stored: the email goes out
    (twice if the task is delivered twice in that time), it is never silently dropped."""
    alice, bob = player("alice"), player("bob")
    match = match_between(alice, bob, length=5)
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    with override_settings(CACHES=caches_at(dead_url())):
        assert match_notify_task(match.pk, "reported") == 1
    assert [message.to for message in mail.outbox] == [[bob.user.email]]

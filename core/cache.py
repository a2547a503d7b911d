"""The cache fails open: with Redis down, every read is a miss and every write is skipped, and the
request goes on from the database.

Everything we keep in the cache can be recomputed or is only a brake: the API's cached match
detail and event standings, the chouette table's state, the throttles' counters, the claims that
keep a result email from going out twice. None of it is worth a failed request, so
:class:`FailOpenRedisCache` (``settings.CACHES`` whenever ``REDIS_URL`` is set) answers every call
even when Redis cannot:

- ``get``/``get_many``/``has_key``/``touch``/``delete`` answer as for a missing key (``default``,
  ``{}``, ``False``); ``incr``/``decr`` raise ``ValueError`` as for a missing key;
- ``set``/``delete_many``/``clear`` do nothing (``set_many`` returns every key: none was stored);
- ``add`` answers **True**, as if the key had been added. ``add`` is how a caller claims
  something once (matches/services/notifications.py and rulings/services/notifications.py claim
  each email before sending it): False would tell it "someone else has it" and the email would
  never be sent. While Redis is down a claim therefore claims nothing, and a task delivered twice
  in that time may send its email twice: a duplicate rather than a loss.

Each socket operation gives up after a short timeout (``socket_connect_timeout``,
``socket_timeout``), and a circuit breaker spares the requests even that: after a failure, every
call in the next ``retry_seconds`` answers at once without trying Redis; the first call after that
tries again. The breaker and the log are per process and per Redis location, shared by every
thread's cache object; the failure is logged at most once a minute (core/outages.py), its end
once. A pooled connection left from before a restart of Redis is no new failure: redis-py finds it
closed when it takes it from the pool, and opens another.

One Redis client per process: Django keeps a cache object per thread, and its Redis backend builds
a connection pool per cache object and a client per operation, so a gunicorn worker of 4 threads
held 4 pools and built a client on every ``get``. :class:`PooledRedisCacheClient` shares one
client (and its pool of connections, thread-safe in redis-py) by every thread of the process for
each location and set of options; a connection is opened only when more threads than ever before
talk to Redis at once. redis-py's pool notices a fork and opens fresh connections in the child.

:func:`cached_answer` keeps an API answer as the bytes sent, with their ETag, and answers
``If-None-Match`` with a 304.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from time import monotonic

from django.core.cache import cache as default_cache
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.http import HttpResponse
from django.utils.cache import get_conditional_response
from redis.exceptions import RedisError

from .outages import OutageLog

logger = logging.getLogger(__name__)

#: What a failing cache raises: redis-py's errors (refused, timed out, closed, out of memory…) and
#: the socket errors it lets through.
CACHE_ERRORS = (RedisError, OSError)

CONSEQUENCE = "the cache fails open: reads miss and writes are skipped until it answers"


@dataclass
class Circuit:
    """One Redis location's breaker in this process: open (skip Redis) until ``open_until``."""

    log: OutageLog
    retry_seconds: float
    open_until: float = 0.0
    failures: int = 0
    skipped: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def is_open(self) -> bool:
        return self.open_until > 0.0 and monotonic() < self.open_until

    def trip(self, error: BaseException) -> None:
        with self.lock:
            self.open_until = monotonic() + self.retry_seconds
            self.failures += 1
        self.log.failed(error, consequence=CONSEQUENCE)

    def close(self) -> None:
        if self.open_until:
            self.open_until = 0.0
        self.log.recovered()


_circuits: dict[str, Circuit] = {}
_circuits_lock = threading.Lock()


def circuit_for(location: str, *, retry_seconds: float = 5.0, log_seconds: float = 60.0) -> Circuit:
    """The process's breaker for the Redis at ``location`` (made on first use)."""
    with _circuits_lock:
        circuit = _circuits.get(location)
        if circuit is None:
            # The location may carry a password: the log names the cache, never its URL.
            circuit = Circuit(OutageLog(logger, "The cache (Redis)", interval=log_seconds), retry_seconds)
            _circuits[location] = circuit
        return circuit


_clients: dict[tuple, object] = {}
_clients_lock = threading.Lock()


class PooledRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client that hands every operation the process's one ``redis.Redis``
    for its location and options (see the module), instead of a new client per operation and a
    pool per thread."""

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        # The options may hold classes (the parser's): their repr is stable within the process.
        identity = (self._servers[index], self._pool_class, repr(sorted(self._pool_options.items())))
        client = _clients.get(identity)
        if client is None:
            with _clients_lock:
                client = _clients.get(identity)
                if client is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    client = _clients[identity] = self._client(connection_pool=pool)
        return client


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache that never raises for Redis being unreachable (see the module).

    ``OPTIONS`` takes, besides redis-py's connection options, ``retry_seconds`` (how long the
    breaker stays open after a failure, 5 by default) and ``log_seconds`` (at most one log line per
    that many seconds, 60). ``socket_connect_timeout`` and ``socket_timeout`` default to 0.5 s.
    """

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        retry_seconds = float(options.pop("retry_seconds", 5.0))
        log_seconds = float(options.pop("log_seconds", 60.0))
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 0.5)
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = PooledRedisCacheClient
        location = server if isinstance(server, str) else ",".join(server)
        self.circuit = circuit_for(location, retry_seconds=retry_seconds, log_seconds=log_seconds)

    def _guarded(self, call, fallback):
        circuit = self.circuit
        if circuit.is_open():
            circuit.skipped += 1
            return fallback()
        try:
            result = call()
        except CACHE_ERRORS as error:
            circuit.trip(error)
            return fallback()
        circuit.close()
        return result

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(partial(super().add, key, value, timeout, version), lambda: True)

    def get(self, key, default=None, version=None):
        return self._guarded(partial(super().get, key, default, version), lambda: default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(partial(super().set, key, value, timeout, version), lambda: None)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(partial(super().touch, key, timeout, version), lambda: False)

    def delete(self, key, version=None):
        return self._guarded(partial(super().delete, key, version), lambda: False)

    def get_many(self, keys, version=None):
        return self._guarded(partial(super().get_many, keys, version), dict)

    def has_key(self, key, version=None):
        return self._guarded(partial(super().has_key, key, version), lambda: False)

    def incr(self, key, delta=1, version=None):
        def missing():
            raise ValueError(f"Key '{key}' not found.")

        return self._guarded(partial(super().incr, key, delta, version), missing)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(partial(super().set_many, data, timeout, version), lambda: list(data))

    def delete_many(self, keys, version=None):
        return self._guarded(partial(super().delete_many, keys, version), lambda: None)

    def clear(self):
        """Remove this cache's keys (those under its ``KEY_PREFIX``), and nothing else of its Redis
        database: not the Celery broker's queues (the same database in production), not another
        cache's keys under another prefix (each test process has its own). Django's ``clear``
        empties the whole database (``FLUSHDB``). Returns False when Redis could not be reached."""
        # The answers this process keeps in memory are a front of this cache: cleared with it.
        answers_forget()
        return self._guarded(self._clear_own_keys, lambda: False)

    def _clear_own_keys(self) -> bool:
        client = self._cache.get_client(write=True)
        # Django's key function writes "<prefix>:<version>:<key>" (no other is configured).
        pattern = _glob_escape(self.key_prefix) + ":*"
        batch = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.unlink(*batch)
                batch.clear()
        if batch:
            client.unlink(*batch)
        return True


def _glob_escape(text: str) -> str:
    """``text`` matched literally in a Redis ``SCAN MATCH`` pattern."""
    return re.sub(r"([\\*?\[\]])", r"\\\1", text)


# --- answers kept as the bytes sent ---------------------------------------------------------------


def answer_etag(body: bytes) -> str:
    """The strong ETag of an answer's body (a digest of its bytes, quoted)."""
    return f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"'


def conditional_answer(request, *, body: bytes, content_type: str, etag: str | None = None,
                       response: HttpResponse | None = None) -> HttpResponse:
    """``body`` as an answer (``response`` when given, whose content it is) with its ETag
    (``etag``, else its digest) and ``Cache-Control: no-cache`` (a client keeps it but asks again,
    naming the ETag); a 304 without the body when the request's ``If-None-Match`` names it.
    Raises nothing."""
    if response is None:
        response = HttpResponse(body, content_type=content_type)
    response["ETag"] = etag or answer_etag(body)
    response["Cache-Control"] = "no-cache"
    return get_conditional_response(request, etag=response["ETag"], response=response) or response


#: The answers this process served last, kept in its memory in front of the shared cache: a hit
#: then costs no round trip to Redis. The key names the version of what the answer is computed
#: from, so a copy here is as current as the shared one; it lives no longer than the timeout given.
LOCAL_ANSWERS = 256
_local: OrderedDict[str, tuple[float, tuple[str, str, bytes]]] = OrderedDict()
_local_lock = threading.Lock()


def answers_forget() -> None:
    """Forget the answers this process keeps in memory (the shared cache keeps its own)."""
    with _local_lock:
        _local.clear()


def _local_get(key: str) -> tuple[str, str, bytes] | None:
    with _local_lock:
        kept = _local.get(key)
        if kept is None:
            return None
        if kept[0] <= monotonic():
            del _local[key]
            return None
        _local.move_to_end(key)
        return kept[1]


def _local_set(key: str, answer: tuple[str, str, bytes], timeout: int) -> None:
    with _local_lock:
        _local[key] = (monotonic() + timeout, answer)
        _local.move_to_end(key)
        while len(_local) > LOCAL_ANSWERS:
            _local.popitem(last=False)


def answer_keep(key: str, body: bytes, content_type: str, timeout: int) -> tuple[str, str, bytes]:
    """Keep an answer rendered elsewhere (``body`` of ``content_type``: what a write answers, the
    reads that follow find) under ``key`` in this process's memory and the default cache for
    ``timeout`` seconds; return it as kept, ``(etag, content_type, body)``. Raises nothing."""
    answer = (answer_etag(body), content_type, body)
    default_cache.set(key, answer, timeout)
    _local_set(key, answer, timeout)
    return answer


def answer_kept(key: str, render: Callable[[], tuple[bytes, str]], timeout: int) -> tuple[str, str, bytes]:
    """The answer kept under ``key``, ``(etag, content_type, body)``: from this process's memory
    (the :data:`LOCAL_ANSWERS` last ones), else from the default cache (then kept in memory too),
    else ``render()`` gives ``(body, content_type)``, kept in both for ``timeout`` seconds. ``key``
    must change whenever the answer would (a version of what it is computed from). What ``render``
    raises goes through, and nothing is kept."""
    answer = _local_get(key)
    if answer is not None:
        return answer
    stored = default_cache.get(key)
    if isinstance(stored, tuple) and len(stored) == 3:
        _local_set(key, stored, timeout)
        return stored
    body, content_type = render()
    return answer_keep(key, body, content_type, timeout)


def cached_answer(request, *, key: str, render: Callable[[], tuple[bytes, str]], timeout: int,
                  respond: Callable[[bytes, str], HttpResponse] | None = None) -> HttpResponse:
    """The answer kept under ``key`` (:func:`answer_kept`) through :func:`conditional_answer`: its
    ETag, and a 304 for an ``If-None-Match`` naming it. A hit renders nothing. ``respond(body,
    content_type)`` makes the response (an ``HttpResponse`` by default). What ``render`` raises goes
    through, and nothing is kept."""
    etag, content_type, body = answer_kept(key, render, timeout)
    response = respond(body, content_type) if respond is not None else None
    return conditional_answer(request, body=body, content_type=content_type, etag=etag, response=response)

"""API throttles: a rate for anonymous clients, one for signed-in users, and scoped rates for the
operations worth abusing (reporting results, disputes, uploads).

Every API view gets ``AnonThrottle`` and ``UserThrottle`` (``DEFAULT_THROTTLE_CLASSES``). A view
that takes results, disputes or uploads puts its scope on top of those::

    from core import throttles

    class DisputeOpenApi(APIView):
        throttle_classes = throttles.DISPUTES

The scopes are ``"reports"`` (report, confirm, contest, override), ``"disputes"`` (opening and
answering disputes, rulings, appeals), ``"uploads"`` (imports of match files), ``"accounts"``
(sign-in, sign-up, password reset, verification emails: per address, on the pages too) and
``"renders"``/``"renders_anon"`` (an event's bracket images and paper sheets drawn afresh, per user
and, lower, per anonymous address: pages, not the API). Views sharing a scope share one counter per
user: five reports and five contests are ten ``"reports"``.

A plain Django view (a page, not DRF) counts a request with :func:`page_wait`, which runs the same
throttles over the same counters and gives the seconds to wait when one refuses it.

The rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (env-driven, config/settings.py).
DRF's own throttles copy that dict once, when their class is defined, so a changed setting never
reaches them; these read it on every request, which lets tests lower a rate with
``override_settings`` (tests/conftest.py, ``throttle_rates``). A throttled request gets a 429 with
``Retry-After`` and the error body ``{"detail", "code": "throttled"}`` (core/api.py).

The counters live in the cache. On Redis (the product's cache) a request's throttles are decided
together in ONE round trip: a small Lua script (:data:`_DECIDE`) gets every counter of the request
(a Redis list of the request times in its window, newest first, under the cache's key for
``"list:" + the throttle's key``), drops the times past the window, and either counts the request
(pushes its time, renews the list's expiry) or refuses it (returns the history, from which
``Retry-After`` is worked out as DRF does). The times come from this process's clock (DRF's
``timer``), not Redis's. On any other cache (the laptop's memory cache) the throttles read their
counters together (one ``get_many``, DRF's lists of times) and write them together once the last
has counted (one ``set_many`` per window). When the cache cannot be reached the throttles fail
open: the request is let through and the failure logged (at most once a minute, core/outages.py).
The project's cache fails open itself (core/cache.py); this holds even under a cache backend that
raises.
"""

from __future__ import annotations

import logging
import math

from django.conf import settings
from django.core.cache import cache as default_cache
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from .cache import CACHE_ERRORS, FailOpenRedisCache
from .outages import OutageLog

logger = logging.getLogger(__name__)
_outage = OutageLog(logger, "The throttles' cache")


def client_ip(request) -> str:
    """The client's address as the throttles see it: ``REMOTE_ADDR``, or with ``NUM_PROXIES``
    trusted proxies in front, the address they put in ``X-Forwarded-For``. The sign-in lockout
    (django-axes, ``AXES_CLIENT_IP_CALLABLE``) uses it too, so both count the same client."""
    return BaseThrottle().get_ident(request)


#: Decides every counter of a request in one call. KEYS: the counters (Redis lists of request
#: times, newest first); ARGV[1]: now; ARGV[2i], ARGV[2i+1]: counter i's window (seconds) and
#: number of requests. Returns per counter 1 (counted) or the list of times that refuses it.
_DECIDE = """
local now = tonumber(ARGV[1])
local decided = {}
for i, key in ipairs(KEYS) do
  local window, limit = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local oldest = redis.call('LINDEX', key, -1)
  while oldest and tonumber(oldest) <= now - window do
    redis.call('RPOP', key)
    oldest = redis.call('LINDEX', key, -1)
  end
  if redis.call('LLEN', key) >= limit then
    decided[i] = redis.call('LRANGE', key, 0, -1)
  else
    redis.call('LPUSH', key, ARGV[1])
    redis.call('EXPIRE', key, window)
    decided[i] = 1
  end
end
return decided
"""

_script = []  # the registered script (redis-py's Script: EVALSHA, or EVAL the first time), made once


def _redis_client():
    """The default cache's Redis client, or None when the cache is not Redis."""
    cache = caches["default"]  # this thread's cache object (default_cache only stands for it)
    if not isinstance(cache, RedisCache):
        return None
    return cache._cache.get_client(write=True)


def _list_key(key: str) -> str:
    # A key of its own (a Redis list), never one of DRF's pickled lists of the memory-cache path.
    return default_cache.make_key(f"list:{key}")


def history_of(key: str) -> list[float]:
    """The request times counted under the throttle key ``key`` (``cache_format`` filled in),
    newest first, whichever way the cache keeps them (tests, and a person looking)."""
    client = _redis_client()
    if client is None:
        return list(default_cache.get(key) or [])
    return [float(value) for value in client.lrange(_list_key(key), 0, -1)]


class _Counters:
    """The counters of one request's throttles (those of ``view``), standing in for the cache in
    each throttle: read from the cache together when the first throttle asks for its counter, and
    written together when the last one has counted. Raises the cache's errors (CACHE_ERRORS) from
    :meth:`get` when it could not be read, and from :meth:`counted` when it could not be written."""

    def __init__(self, request, view):
        self.view = view
        throttles = [t for t in view.get_throttles() if isinstance(t, _LiveRateThrottle)]
        self.remaining = len(throttles)
        keyed = ((t.get_cache_key(request, view), t) for t in throttles if t.rate is not None)
        self.windows = {key: (t.duration, t.num_requests) for key, t in keyed if key is not None}
        self.keys = list(self.windows)
        self.values: dict | None = None
        self.error: BaseException | None = None
        self.pending: dict[int, dict] = {}
        self.decided: dict | None = None
        self.client = _redis_client()  # None: not Redis, the get_many/set_many path

    def decide(self, key: str, now: float) -> list[float] | None:
        """On Redis: whether the request is counted under ``key`` (None) or refused (the times
        that refuse it, newest first), every counter of the request decided in one script call on
        the first ask, at ``now``. Raises the cache's errors (CACHE_ERRORS); under the project's
        cache with its breaker open, or its call failed, every counter lets the request through."""
        if self.decided is None and self.error is None:
            try:
                self.decided = self._run(now)
            except CACHE_ERRORS as error:
                self.error = error
        if self.error is not None:
            raise self.error
        return self.decided.get(key)

    def _run(self, now: float) -> dict:
        if not self.keys:
            return {}
        client = self.client
        if not _script:
            _script.append(client.register_script(_DECIDE))
        script = _script[0]
        args = [repr(now)]
        for duration, num_requests in self.windows.values():
            args += [duration, num_requests]

        def call():
            return script(keys=[_list_key(key) for key in self.keys], args=args, client=client)

        cache = caches["default"]
        if isinstance(cache, FailOpenRedisCache):
            answers = cache._guarded(call, lambda: None)
            if answers is None:  # Redis down: the cache failed open (and logged it)
                return {}
        else:
            answers = call()
        return {key: [float(value) for value in answer]
                for key, answer in zip(self.keys, answers, strict=True) if answer != 1}

    @classmethod
    def of(cls, request, view) -> _Counters:
        counters = getattr(request, "_throttle_counters", None)
        if counters is None or counters.view is not view:
            counters = request._throttle_counters = cls(request, view)
        return counters

    def get(self, key, default=None):
        if self.values is None and self.error is None:
            try:
                if len(self.keys) == 1:  # a plain GET: the cheapest call for one counter
                    found = default_cache.get(self.keys[0])
                    self.values = {} if found is None else {self.keys[0]: found}
                else:
                    self.values = default_cache.get_many(self.keys) if self.keys else {}
            except CACHE_ERRORS as error:
                self.error = error
        if self.error is not None:
            raise self.error
        return self.values.get(key, default)

    def set(self, key, value, timeout) -> None:
        self.pending.setdefault(timeout, {})[key] = value

    def counted(self) -> None:
        """One more throttle of the request has counted; after the last, write what they changed."""
        self.remaining -= 1
        if self.remaining == 0:
            pending, self.pending = self.pending, {}
            for timeout, values in pending.items():
                if len(values) == 1:  # a plain SET, not a pipeline of one
                    [(key, value)] = values.items()
                    default_cache.set(key, value, timeout)
                else:
                    default_cache.set_many(values, timeout)


class _LiveRateThrottle(SimpleRateThrottle):
    """A rate throttle that reads its rate from the settings when it is made (once per request),
    and its counter through the request's :class:`_Counters`."""

    def get_rate(self) -> str | None:
        rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        if self.scope not in rates:
            # DRF's own message for a missing rate: a misconfiguration, never a client error.
            return super().get_rate()
        return rates[self.scope]

    def allow_request(self, request, view) -> bool:
        counters = _Counters.of(request, view)
        if counters.client is not None:
            return self._decided(counters, request, view)
        self.cache = counters
        try:
            allowed = super().allow_request(request, view)
        except CACHE_ERRORS as error:
            # A brake is not worth a failed request: without its counters nobody is throttled.
            _outage.failed(error, consequence="requests are let through unthrottled until it answers")
            allowed = None
        try:
            counters.counted()
        except CACHE_ERRORS as error:  # the counters not written: this request goes uncounted
            _outage.failed(error, consequence="requests are let through unthrottled until it answers")
        if allowed is None:
            return True
        if getattr(self, "key", None) is not None:  # the cache was read: it answers
            _outage.recovered()
        return allowed

    def _decided(self, counters: _Counters, request, view) -> bool:
        # DRF's allow_request, with the counting done by the request's one script call.
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        try:
            refused = counters.decide(self.key, self.now)
        except CACHE_ERRORS as error:
            # A brake is not worth a failed request: without its counters nobody is throttled.
            _outage.failed(error, consequence="requests are let through unthrottled until it answers")
            return True
        _outage.recovered()
        if refused is None:
            return True
        self.history = refused  # what wait() works Retry-After out from, as DRF does
        return False

    def get_ident(self, request) -> str:
        return client_ip(request)

    def get_cache_key(self, request, view) -> str | None:
        if request.user and request.user.is_authenticated:
            ident = request.user.pk
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnonThrottle(_LiveRateThrottle):
    """Anonymous clients, by address (``"anon"``)."""

    scope = "anon"

    def get_cache_key(self, request, view) -> str | None:
        if request.user and request.user.is_authenticated:
            return None  # UserThrottle counts them
        return super().get_cache_key(request, view)


class UserThrottle(_LiveRateThrottle):
    """Signed-in users, by user (``"user"``)."""

    scope = "user"

    def get_cache_key(self, request, view) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None  # AnonThrottle counts them
        return super().get_cache_key(request, view)


class ReportsThrottle(_LiveRateThrottle):
    """Results reported, confirmed, contested or overridden, per user (``"reports"``)."""

    scope = "reports"


class DisputesThrottle(_LiveRateThrottle):
    """Disputes opened or answered, rulings and appeals, per user (``"disputes"``)."""

    scope = "disputes"


class UploadsThrottle(_LiveRateThrottle):
    """Match-file imports, per user (``"uploads"``)."""

    scope = "uploads"


class AccountsThrottle(_LiveRateThrottle):
    """Sign-in, sign-up, password reset and verification emails asked, per address, signed in or
    not (``"accounts"``): the API's and the pages' alike (accounts/throttling.py)."""

    scope = "accounts"

    def get_cache_key(self, request, view) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RendersThrottle(_LiveRateThrottle):
    """An event's bracket images and paper sheets drawn afresh for a signed-in user, per user
    (``"renders"``); anonymous clients count against :class:`RendersAnonThrottle`."""

    scope = "renders"

    def get_cache_key(self, request, view) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return super().get_cache_key(request, view)


class RendersAnonThrottle(_LiveRateThrottle):
    """The same drawn for anonymous clients, per address (``"renders_anon"``): a lower rate than
    a user's, since an address costs nothing to come from and a user is someone to ask."""

    scope = "renders_anon"

    def get_cache_key(self, request, view) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return super().get_cache_key(request, view)


#: What a view sets as ``throttle_classes``: the defaults plus its scope.
DEFAULT = (AnonThrottle, UserThrottle)
REPORTS = (*DEFAULT, ReportsThrottle)
DISPUTES = (*DEFAULT, DisputesThrottle)
UPLOADS = (*DEFAULT, UploadsThrottle)
ACCOUNTS = (*DEFAULT, AccountsThrottle)
RENDERS = (*DEFAULT, RendersThrottle, RendersAnonThrottle)

SCOPES = ("anon", "user", "reports", "disputes", "uploads", "accounts", "renders", "renders_anon")


class _PageView:
    """What the throttles take for a view (DRF's ``get_throttles``): one request's throttles."""

    def __init__(self, classes):
        self.throttles = [throttle_class() for throttle_class in classes]

    def get_throttles(self):
        return self.throttles


def page_wait(request, classes) -> int | None:
    """Count a plain Django view's request against ``classes``' rates (the API's throttles, their
    counters and their failing open); the whole seconds to wait when one refuses it, else None.
    Every throttle counts, as in DRF's views, so the wait is the longest."""
    view = _PageView(classes)
    waits = [throttle.wait() for throttle in view.throttles if not throttle.allow_request(request, view)]
    if not waits:
        return None
    return max(1, math.ceil(max(wait or 1 for wait in waits)))


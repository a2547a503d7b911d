"""API throttles: a rate for anonymous clients, one for signed-in users, and scoped rates for the
operations worth abusing (reporting results, disputes, uploads).

Every API view gets ``AnonThrottle`` and ``UserThrottle`` (``DEFAULT_THROTTLE_CLASSES``). A view
that takes results, disputes or uploads puts its scope on top of those::

    from core import throttles

    class DisputeOpenApi(APIView):
        throttle_classes = throttles.DISPUTES

The scopes are ``"reports"`` (report, confirm, contest, override), ``"disputes"`` (opening and
answering disputes, rulings, appeals) and ``"uploads"`` (imports of match files). Views sharing a
scope share one counter per user: five reports and five contests are ten ``"reports"``.

The rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (env-driven, config/settings.py).
DRF's own throttles copy that dict once, when their class is defined, so a changed setting never
reaches them; these read it on every request, which lets tests lower a rate with
``override_settings`` (tests/conftest.py, ``throttle_rates``). A throttled request gets a 429 with
``Retry-After`` and the error body ``{"detail", "code": "throttled"}`` (core/api.py).

The counters live in the cache. A request's throttles read their counters together (one
``get_many``) and write them together once the last has counted (one ``set_many`` per window):
two round trips to the cache whatever the number of scopes, where each throttle would otherwise
read and write its own. When the cache cannot be reached the throttles fail open: the request is
let through and the failure logged (at most once a minute, core/outages.py). The project's cache
fails open itself (core/cache.py); this holds even under a cache backend that raises.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache as default_cache
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from .cache import CACHE_ERRORS
from .outages import OutageLog

logger = logging.getLogger(__name__)
_outage = OutageLog(logger, "The throttles' cache")


def client_ip(request) -> str:
    """The client's address as the throttles see it: ``REMOTE_ADDR``, or with ``NUM_PROXIES``
    trusted proxies in front, the address they put in ``X-Forwarded-For``. The sign-in lockout
    (django-axes, ``AXES_CLIENT_IP_CALLABLE``) uses it too, so both count the same client."""
    return BaseThrottle().get_ident(request)


class _Counters:
    """The counters of one request's throttles (those of ``view``), standing in for the cache in
    each throttle: read from the cache together when the first throttle asks for its counter, and
    written together when the last one has counted. Raises the cache's errors (CACHE_ERRORS) from
    :meth:`get` when it could not be read, and from :meth:`counted` when it could not be written."""

    def __init__(self, request, view):
        self.view = view
        throttles = [t for t in view.get_throttles() if isinstance(t, _LiveRateThrottle)]
        self.remaining = len(throttles)
        keys = (t.get_cache_key(request, view) for t in throttles if t.rate is not None)
        self.keys = [key for key in keys if key is not None]
        self.values: dict | None = None
        self.error: BaseException | None = None
        self.pending: dict[int, dict] = {}

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
        counters = self.cache = _Counters.of(request, view)
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


#: What a view sets as ``throttle_classes``: the defaults plus its scope.
DEFAULT = (AnonThrottle, UserThrottle)
REPORTS = (*DEFAULT, ReportsThrottle)
DISPUTES = (*DEFAULT, DisputesThrottle)
UPLOADS = (*DEFAULT, UploadsThrottle)

SCOPES = ("anon", "user", "reports", "disputes", "uploads")


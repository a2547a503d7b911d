"""Answers for a request the database could not serve, instead of a server error.

- A request that could not have a row lock in time answers 409 with ``Retry-After``, as the API does
  (core/api.py): nothing was changed, the same request may simply be sent again
  (:class:`LockedMiddleware`).
- A request that met PostgreSQL unreachable, restarting or gone away in the middle (an
  ``OperationalError`` or ``InterfaceError`` that is not a lock timeout) answers 503 with
  ``Retry-After`` (:class:`DatabaseUnavailableMiddleware`): the API's error body
  ``{"detail", "code": "service_unavailable"}`` under /api/, a short page otherwise, never a
  traceback. Whatever the request was writing rolled back with its transaction. The outage is
  logged at most once a minute per process, its end once (core/outages.py).
- What a request causes knows the address it came to (:class:`RequestOriginMiddleware`): an email
  sent later by a task links there when no site URL is set (core/links.py).

The middleware catches what a view raises; what the middleware around the views raises (a session
saved as the response goes out) reaches the project's 500 handler, which answers the same way
through :func:`database_unavailable_response` (config/views.py).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from .errors import Locked
from .i18n import forget_language, language_known
from .links import serving
from .locking import lock_failed
from .outages import OutageLog

logger = logging.getLogger(__name__)
_database_outage = OutageLog(logger, "The database (PostgreSQL)")

#: What a client is asked to wait before sending the request again: PostgreSQL restarts in seconds.
DATABASE_RETRY_AFTER = 5


class LockedMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not lock_failed(exception):
            return None
        response = HttpResponse(
            _("Someone else is changing this right now. Nothing was saved: please send it again in a moment."),
            status=Locked.status, content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(Locked.retry_after)
        return response


def database_unavailable(error: BaseException | None) -> bool:
    """Whether ``error`` says the database cannot serve just now: cannot be reached, is starting
    up or shutting down, or dropped the connection. A row lock not had in time is not that (409)."""
    return isinstance(error, (OperationalError, InterfaceError)) and not lock_failed(error)


def database_unavailable_response(request, error: BaseException) -> HttpResponse:
    """The 503 with ``Retry-After`` for a request that met ``error`` (see the module); logs it."""
    _database_outage.failed(error, consequence="requests that need it answer 503 with Retry-After")
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"detail": _("the service is briefly unavailable; please try again in a few seconds"),
             "code": "service_unavailable"},
            status=503,
        )
    else:
        # Rendered without the request: its context processors would read the session and the
        # user, from the database that just failed.
        response = HttpResponse(render_to_string("unavailable.html"), status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    response.database_unavailable = True
    # django.request would log every one of them as an error; the outage log above speaks for them.
    response._has_been_logged = True
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (_database_outage.down and not getattr(response, "database_unavailable", False)
                and connection.connection is not None and connection.is_usable()):
            _database_outage.recovered()
        return response

    def process_exception(self, request, exception):
        if not database_unavailable(exception):
            return None
        return database_unavailable_response(request, exception)


class UserLanguageMiddleware:
    """A page for a signed-in user who chose a language (accounts.User.preferred_language) is in
    that language, whatever the language cookie says: his choice is his, wherever he signs in; an
    old cookie on this browser (an earlier visit, someone else's choice) does not outrank it. One
    who did not choose ("as my browser says") reads what LocaleMiddleware found: the switcher's
    choice on this browser (the cookie), else Accept-Language. Placed after AuthenticationMiddleware.

    Signing out clears the language cookie: the next visitor on this browser, or he himself signed
    out, reads what the browser asks for again, not a year-old choice. This is done here, on the
    response of the request that signed out (Django's ``logout`` leaves ``request.user`` anonymous),
    rather than in a ``user_logged_out`` receiver or allauth's adapter, which never see the response,
    and so it holds for every way out (allauth's sign-out page, the admin's).

    The API (/api/) answers in the language its client asks for (Accept-Language), signed in or
    not: the same request gets the same words from any client."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        signed_in = False
        # A live version poll (an event's /live/, every few seconds from every open page) shows no
        # words: reading the user for it would cost two queries a poll.
        if not request.path.startswith("/api/") and not request.path.endswith("/live/"):
            try:
                user = getattr(request, "user", None)
                signed_in = user is not None and user.is_authenticated
                code = getattr(user, "preferred_language", None) if signed_in else None
            except Exception as error:
                if not database_unavailable(error):
                    raise
                # PostgreSQL is down: the page answers 503 (DatabaseUnavailableMiddleware), in the
                # browser's language.
                code = None
            if language_known(code) and code != request.LANGUAGE_CODE:
                translation.activate(code)
                request.LANGUAGE_CODE = code
        response = self.get_response(request)
        if signed_in and not request.user.is_authenticated and settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
            forget_language(response)
        return response


class RequestOriginMiddleware:
    """The request being served is known to what it causes (core/links.py): an outbox row written
    for it keeps its origin, so an email a task sends later links to the address the request came
    to when no site URL is set (a laptop)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with serving(request):
            return self.get_response(request)

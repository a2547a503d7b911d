"""Absolute links, for what is read away from the site: an email's links open in a mail client,
where a bare path ("/matches/3/") leads nowhere.

Every link an email carries is made by :func:`absolute_url`, on the site's address:

1. ``CRAWFORD_SITE_URL`` (docs/production.md, "Production shape"), where the site is served;
2. else the address the request that caused the email came to (a laptop: runserver, no site URL
   set). An email is sent by a task, after the request and often in another process (the task
   outbox, core/outbox.py), so the outbox row keeps that address when it is written
   (``OutboxTask.origin``, from :func:`current_origin`), and the task runs with it again
   (:func:`origin_kept`, done by ``outbox_once``);
3. else (a row written by a command or a periodic job, with no site URL set) the first allowed
   host, over http with DEBUG on (runserver's port) and https otherwise.

The request being served is known through :class:`~core.middleware.RequestOriginMiddleware`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost

#: The request being served in this thread or task (RequestOriginMiddleware), or None.
_request: ContextVar = ContextVar("crawford_request", default=None)
#: The origin a task was given by its outbox row (origin_kept), or "".
_kept: ContextVar[str] = ContextVar("crawford_kept_origin", default="")

#: Where runserver serves a laptop run (README): the last resort of a link made with DEBUG on.
LAPTOP_ORIGIN = "http://127.0.0.1:8000"


@contextmanager
def serving(request) -> Iterator[None]:
    """Inside the block, ``request`` is the request being served: its origin is
    :func:`current_origin`'s."""
    token = _request.set(request)
    try:
        yield
    finally:
        _request.reset(token)


@contextmanager
def origin_kept(origin: str) -> Iterator[None]:
    """Inside the block, ``origin`` (kept on an outbox row when it was written) is the origin links
    are made on when no site URL is set; "" changes nothing."""
    if not origin:
        yield
        return
    token = _kept.set(origin)
    try:
        yield
    finally:
        _kept.reset(token)


def current_origin() -> str:
    """The origin (``scheme://host[:port]``) of the request being served, else the one a task was
    given by its outbox row, else "". Never raises: a request whose host is not allowed has none."""
    request = _request.get()
    if request is not None:
        try:
            return f"{request.scheme}://{request.get_host()}"
        except DisallowedHost:
            return ""
    return _kept.get()


def _last_resort() -> str:
    if settings.DEBUG:
        return LAPTOP_ORIGIN
    host = next((h for h in settings.ALLOWED_HOSTS if h and not h.startswith((".", "*"))), "localhost")
    return f"https://{host}"


def site_url() -> str:
    """The site's address, without a trailing slash: ``CRAWFORD_SITE_URL``, else the origin of the
    request that caused this (:func:`current_origin`), else the last resort (the module's
    docstring). Changes nothing."""
    configured = str(getattr(settings, "CRAWFORD_SITE_URL", "") or "").strip().rstrip("/")
    return configured or current_origin() or _last_resort()


def absolute_url(location: str) -> str:
    """``location`` (a path, "/matches/3/", with its query and fragment) as an absolute URL on
    :func:`site_url`; a URL already absolute (http or https) is returned as it is."""
    location = str(location)
    if urlsplit(location).scheme in ("http", "https"):
        return location
    return site_url() + "/" + location.lstrip("/")

"""The service's domain errors: a stable ``code``, a message for people, an HTTP-ish kind.

Services raise :class:`DomainError` (bad request) or :class:`Conflict` (the state forbids it now:
"result already confirmed"); the API maps them to 400 and 409, pages to form errors. Engine
errors (``engine.errors.EngineError``) are mapped the same way as a DomainError.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


class DomainError(Exception):
    """A refusal: ``message`` for people (led by the field it names, when it names one: "Last day:
    the season ends before it starts"), ``sentence`` the same without that field's label, for a page
    that shows it beside the field (None: the message as it is), ``code`` stable, ``details`` where
    it applies (``field`` the field's name, for machines)."""

    code = "invalid"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, sentence: str | None = None, **details):
        super().__init__(message)
        self.message = message
        self.sentence = sentence
        if code:
            self.code = code
        self.details = details

    def __str__(self) -> str:
        return self.message


class Conflict(DomainError):
    """The request is well formed but the current state forbids it (HTTP 409)."""

    code = "conflict"
    status = 409


class NotAllowed(DomainError):
    """The user may not do this to this object (HTTP 403)."""

    code = "permission_denied"
    status = 403


class Locked(Conflict):
    """Another request holds a row this one needs, longer than the lock timeout: nothing was
    changed and the same request may simply be sent again (HTTP 409 with ``Retry-After``)."""

    code = "locked"
    retry_after = 1

    def __init__(self, message: str | None = None, **details):
        super().__init__(message or _("busy, try again"), **details)


class TooMany(DomainError):
    """The user, or the address he writes to, has had as many of these as the service allows in
    a while (HTTP 429 with ``Retry-After``): the same request may be sent again after
    ``retry_after`` seconds, which the message says in words."""

    code = "throttled"
    status = 429

    def __init__(self, message: str, *, retry_after: int, code: str | None = None, **details):
        super().__init__(message, code=code, **details)
        self.retry_after = max(1, int(retry_after))


def error_status(error) -> int:
    """A refusal's HTTP status: Conflict (409), NotAllowed (403), TooMany (429) and Locked keep
    theirs; any other domain or engine error is bad input (400)."""
    return getattr(error, "status", 400)

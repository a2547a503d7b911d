"""What a locked-out sign-in gets (django-axes counts the failures, config/settings.py sets the
limit and the cool-off): a 429 with ``Retry-After``, as a page for the sign-in page and as the
API's error body (``code: locked_out``) for the token endpoint."""

from __future__ import annotations

import math

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException

from .models import User


def _typed(request, credentials: dict | None) -> str | None:
    if credentials:
        return credentials.get("username")
    return getattr(request, "data", request.POST).get("username")


def lockout_username(request, credentials: dict | None = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the username the lockout counts failures for, the one typed or,
    for an email address, the username of its account: signing in by the address is not a fresh
    set of tries against the same account."""
    typed = _typed(request, credentials)
    if typed and "@" in typed:
        username = User.objects.filter(email__iexact=typed.strip()).values_list("username", flat=True).first()
        if username:
            return username
    return typed


MESSAGE = gettext_lazy("too many failed sign-ins for this username from your address; try again later")


def seconds_left(request, credentials: dict | None) -> int:
    """Seconds until this username may sign in again from this address: the cool-off runs from
    the last failure that counted (attempts during the lockout do not restart it)."""
    cool_off = get_cool_off(request)
    username = get_client_username(request, credentials)
    last = (AccessAttempt.objects.filter(username=username, ip_address=getattr(request, "axes_ip_address", None))
            .aggregate(last=Max("attempt_time"))["last"])
    if last is None:
        return math.ceil(cool_off.total_seconds())
    return max(1, math.ceil((last + cool_off - timezone.now()).total_seconds()))


class LockedOut(APIException):
    """A 429 for the API: DRF's exception handler turns ``wait`` into the Retry-After header."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_detail = MESSAGE
    default_code = "locked_out"

    def __init__(self, wait: int):
        super().__init__()
        self.wait = wait


def lockout_response(request, original_response=None, credentials: dict | None = None) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the answer to a sign-in refused by the lockout, in place of the
    view's own (the sign-in form with a generic error)."""
    wait = seconds_left(request, credentials)
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": str(MESSAGE), "code": "locked_out"}, status=status.HTTP_429_TOO_MANY_REQUESTS)
    else:
        # What he typed, never the username behind an email address (a stranger would learn it).
        context = {"username": _typed(request, credentials) or "", "minutes": math.ceil(wait / 60),
                   "failure_limit": settings.AXES_FAILURE_LIMIT}
        response = render(request, "registration/locked_out.html", context, status=status.HTTP_429_TOO_MANY_REQUESTS)
    response["Retry-After"] = str(wait)
    return response

"""The API's throttles on the account pages: a POST to the sign-in, sign-up, password reset and
email pages counts against the same rates as the API (per address, ``"anon"`` or ``"user"``, and
``"accounts"``: core/throttles.py), so a form is no way around the API's limits. Over a rate the
page answers 429 with ``Retry-After`` and a sentence, and the form is not read."""

from __future__ import annotations

import math

from django.shortcuts import render
from rest_framework import status

from core import throttles


class _Throttled:
    """What the throttles take for a view: the list of throttles of one request."""

    def __init__(self, classes):
        self.throttles = [throttle_class() for throttle_class in classes]

    def get_throttles(self):
        return self.throttles


def page_wait(request, classes=throttles.ACCOUNTS) -> int | None:
    """Count this request against ``classes``' rates; the seconds to wait when one refuses it,
    else None. Every throttle counts (as DRF's views do), so the wait is the longest."""
    view = _Throttled(classes)
    waits = [throttle.wait() for throttle in view.throttles if not throttle.allow_request(request, view)]
    if not waits:
        return None
    return max(1, math.ceil(max(wait or 1 for wait in waits)))


class ThrottledPostMixin:
    """A page view whose POST counts against the ``"accounts"`` rates (:func:`page_wait`)."""

    def dispatch(self, request, *args, **kwargs):
        if request.method == "POST":
            wait = page_wait(request)
            if wait is not None:
                response = render(request, "account/throttled.html", {"seconds": wait},
                                  status=status.HTTP_429_TOO_MANY_REQUESTS)
                response["Retry-After"] = str(wait)
                return response
        return super().dispatch(request, *args, **kwargs)

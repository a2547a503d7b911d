"""A page whose request could not have a row lock in time answers 409 with ``Retry-After``, as the
API does (core/api.py), instead of a server error: nothing was changed, the same request may
simply be sent again."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _

from .errors import Locked
from .locking import lock_failed


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

"""A cap on the whole request body, checked before anything reads it.

Django caps a form's fields (``DATA_UPLOAD_MAX_MEMORY_SIZE``) and the import service caps each
file, but a multipart upload of many files has no total: a thousand files of 2 MB each would be
read and spooled to disk before any check runs. A proxy in front should cap bodies too; this makes
the application safe without one.
"""

from __future__ import annotations

from django.conf import settings

from core.api import body_too_large


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MAX_REQUEST_BYTES:
            return body_too_large(limit=settings.MAX_REQUEST_BYTES, api=request.path.startswith("/api/"))
        return self.get_response(request)

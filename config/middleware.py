"""A cap on the whole request body, checked before anything reads it.

Django caps a form's fields (``DATA_UPLOAD_MAX_MEMORY_SIZE``) and the import service caps each
file, but a multipart upload of many files has no total: a thousand files of 2 MB each would be
read and spooled to disk before any check runs. A proxy in front should cap bodies too; this makes
the application safe without one.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse

BODY_TOO_LARGE = "the request body is larger than the upload limit"


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MAX_REQUEST_BYTES:
            if request.path.startswith("/api/"):
                # The same body the API's exception handler gives a form over its own limit.
                return JsonResponse({"detail": BODY_TOO_LARGE, "code": "body_too_large"}, status=413)
            return HttpResponse(f"{BODY_TOO_LARGE} ({settings.MAX_REQUEST_BYTES} bytes).", status=413,
                                content_type="text/plain; charset=utf-8")
        return self.get_response(request)

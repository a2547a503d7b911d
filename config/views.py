"""Project-wide error views: the API answers in its own error body, pages with templates."""

import sys

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found, server_error

from core.middleware import database_unavailable, database_unavailable_response


def not_found(request, exception):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return page_not_found(request, exception)


def server_failure(request):
    # Called while the error is being handled: a database that failed outside any view (a session
    # saved as the response went out) answers 503, as core.middleware does for the views.
    error = sys.exc_info()[1]
    if database_unavailable(error):
        return database_unavailable_response(request, error)
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Server error."), "code": "server_error"}, status=500)
    return server_error(request)

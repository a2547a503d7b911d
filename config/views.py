"""Project-wide error views: the API answers in its own error body, pages with templates."""

from django.http import JsonResponse
from django.views.defaults import page_not_found, server_error


def not_found(request, exception):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return page_not_found(request, exception)


def server_failure(request):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error.", "code": "server_error"}, status=500)
    return server_error(request)

"""The benchmark's URLconf: the product's routes plus ``/bench/noop/``, a view that does nothing.

The no-op endpoint is the yardstick of ``bench/api.py``: it goes through the same server,
middleware and database-connection handling as the product's endpoints, so the ratio of an
endpoint's rate to the no-op's measures only that endpoint's own work. It exists only in this
module, which only ``bench/wsgi_bench.py`` loads: the product's ``config.urls`` never has it.
"""

from django.http import HttpResponse
from django.urls import include, path


def noop(request):
    """Answer 204 No Content, touching neither the database nor the session."""
    return HttpResponse(status=204)


urlpatterns = [
    path("bench/noop/", noop, name="bench-noop"),
    path("", include("config.urls")),
]

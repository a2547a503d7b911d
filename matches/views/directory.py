"""Page: the player directory (``/players/``), public. The view reads the filters, asks the
directory selector for one page and renders it; each row links to the player's page."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from .. import hooks
from ..countries import country_name
from ..forms.directory import DirectoryFilterForm
from ..selectors.directory import player_directory

PLAYERS_PER_PAGE = 50


@require_GET
def directory(request: HttpRequest) -> HttpResponse:
    """Players by name, filtered by words of the name, country and club; 50 a page. Bad filters
    re-render the page with the error on their field (400) and no list."""
    form = DirectoryFilterForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        return render(request, "matches/directory.html", {"form": form, "page": None}, status=400)
    arguments = form.directory_arguments() if form.is_bound else {}
    page = Paginator(player_directory(**arguments), PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    query = {name: value for name, value in request.GET.items() if name != "page" and value}
    return render(request, "matches/directory.html", {
        "form": form,
        "page": page,
        # His country by its name in the reader's language (django-countries), not its code.
        "rows": [(player, country_name(player.country), hooks.describe_player(player)) for player in page.object_list],
        "filtered": any(value for name, value in query.items()),
        "query": urlencode(query),
    })


urlpatterns = [
    path("players/", directory, name="directory"),
]

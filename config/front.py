"""The front page at ``/``: what a visitor sees without signing in (the events under way and to
come, the latest confirmed results, the clubs); a signed-in user keeps his own page there (his
matches: ``matches.views.match.mine``), which links to everything else.

It reads a fixed number of rows with a fixed number of queries, whatever the number of events,
matches or clubs (each list is cut at a few items, its joins made up front)."""

from __future__ import annotations

from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubs.selectors import club_list
from matches.models import Match
from matches.selectors.match import match_list
from matches.views.match import mine
from tournaments.models import Tournament
from tournaments.selectors.event import tournament_list

#: How many of each the page shows.
SHOWN = 8


def front(request: HttpRequest) -> HttpResponse:
    """Public: the visitors' front page (drafts never show: ``tournament_list(viewer=...)``); a
    signed-in user's own page (his matches) for a signed-in user."""
    if request.user.is_authenticated:
        return mine(request)
    viewer = request.user
    live = tournament_list(status=Tournament.Status.RUNNING, viewer=viewer)[:SHOWN]
    upcoming = (tournament_list(viewer=viewer)
                .filter(status__in=(Tournament.Status.OPEN, Tournament.Status.CLOSED))
                .order_by(F("starts_on").asc(nulls_last=True), "name", "id")[:SHOWN])
    results = (match_list(viewer=None, status=Match.Status.CONFIRMED)
               .order_by(F("confirmed_at").desc(nulls_last=True), "-id")[:SHOWN])
    return render(request, "front.html", {
        "live": list(live), "upcoming": list(upcoming),
        # The score as one left-to-right run (side 0's first), whatever the page's direction.
        "results": [(m, f"{m.score0}-{m.score1}") for m in results],
        "clubs": list(club_list()[:SHOWN]),
    })

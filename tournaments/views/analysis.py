"""An event's players ranked by PR over their analysed matches in it. tournaments
knows the event and its matches; analysis (below it) ranks them (``analysis.selectors``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import formats
from django.views.decorators.http import require_safe

from analysis.selectors import analysis_ranking
from matches.models import Match
from tournaments.services.common import runs

from .event import visible_or_404


@require_safe
def analysis(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The players of the event's analysed matches, best PR first: rank, player, PR, matches
    analysed, error rate, errors and blunders. Public (a draft: its organiser and staff); a fixed
    number of queries however many matches are analysed."""
    tournament = visible_or_404(request, tournament_id)
    ranking = analysis_ranking(matches=Match.objects.filter(event_link__tournament=tournament))
    # number_format cuts the decimals off: rounded first.
    rows = [{"player": player, "pr": formats.number_format(round(player.pr, 2), 2),
             "error_rate": formats.number_format(round(player.error_rate, 1), 1)} for player in ranking]
    return render(request, "tournaments/analysis.html", {
        "tournament": tournament, "rows": rows, "runs": runs(tournament, request.user)})


urlpatterns = [
    path("<int:tournament_id>/analysis/", analysis, name="analysis"),
]

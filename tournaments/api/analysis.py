"""API: an event's players ranked by PR over their analysed matches in it. tournaments
knows the event and its matches; analysis (below it) ranks them (``analysis.selectors``)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from analysis.api.serializers import RankedPlayerSerializer
from analysis.selectors import analysis_ranking
from matches.models import Match

from .events import READ_ERRORS, TAGS, TournamentBaseApi, tournament_or_404


class TournamentAnalysisApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_analysis", tags=TAGS, summary="Players ranked by PR",
                   description="The players of the event's analysed matches, best PR first: PR and error rate over "
                               "all their analysed matches in the event (equity lost over unforced decisions), "
                               "with the number of those matches. A pair's matches count for both its players.",
                   responses={200: RankedPlayerSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        ranking = analysis_ranking(matches=Match.objects.filter(event_link__tournament=tournament))
        return Response(RankedPlayerSerializer(ranking, many=True).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/analysis/", TournamentAnalysisApi.as_view(), name="api-tournament-analysis"),
]

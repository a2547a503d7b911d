"""API: a match's analysis (``GET``: its state, progress, each side's figures and every decision;
``POST``: a director asks for it, or for it again, at a depth), and a player's PR over time."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from core import throttles
from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.parsers import JSONParser
from matches.models import Match, Player
from matches.selectors.match import match_readable

from ..answers import match_analysis_answer
from ..selectors import analysis_of, match_with_analysis, player_pr_points
from ..services import match_analysis_request
from .serializers import MatchAnalysisSerializer, PrPointSerializer

TAGS = ["analysis"]
WRITE_ERRORS = {400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer,
                404: ApiErrorSerializer, 409: ApiErrorSerializer}


def _match_or_404(match_id: int, viewer) -> Match:
    """The match with its analysis, or a 404: also for a match ``viewer`` may not read (awaiting
    its players' consent: ``matches.selectors.match.match_readable``), whose existence is not told."""
    try:
        match = match_with_analysis(match_id)
    except Match.DoesNotExist:
        match = None
    if match is None or not match_readable(match, viewer):
        raise NotFound(gettext("there is no match %(id)s") % {"id": match_id})
    return match


class MatchAnalysisApi(BaseApi):
    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        plies = serializers.IntegerField(min_value=0, max_value=2, required=False,
                                         help_text="gnubg's depth, 0, 1 or 2 plies (default: the event's, else the "
                                                   "service's: 2)")

        class Meta:
            ref_name = "MatchAnalysisRequest"

    @extend_schema(operation_id="matches_analysis_retrieve", tags=TAGS, summary="A match's analysis by GNU Backgammon",
                   description="Its state (none, queued, running, done, failed) and progress; once done each "
                               "side's PR, error rate, errors, blunders and luck, and each game's decisions "
                               "with the best play and the equity lost.",
                   responses={200: MatchAnalysisSerializer, 404: ApiErrorSerializer})
    def get(self, request, match_id: int):
        match = _match_or_404(match_id, request.user)
        return Response(MatchAnalysisSerializer(match_analysis_answer(match, analysis_of(match))).data)

    @extend_schema(operation_id="matches_analysis_request", tags=TAGS,
                   summary="Ask for the match's analysis, or for it again (its director)",
                   description="Queues the analysis (a new one replaces the last); answers its state (202). 409 "
                               "`no_game_logs` for a match without recorded games, `analysis_unavailable` where "
                               "GNU Backgammon is not installed.",
                   request=InputSerializer, responses={202: MatchAnalysisSerializer, **WRITE_ERRORS})
    def post(self, request, match_id: int):
        _match_or_404(match_id, request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match_analysis_request(match_id, actor=request.user, plies=serializer.validated_data.get("plies"))
        match = _match_or_404(match_id, request.user)
        return Response(MatchAnalysisSerializer(match_analysis_answer(match, analysis_of(match))).data, status=202)


class PlayerAnalysisApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="players_analysis", tags=TAGS, summary="A player's PR over time",
                   description="One point per analysed match he played, oldest first: the day, his PR and error "
                               "rate, and the depth of the analysis.",
                   responses={200: PrPointSerializer(many=True), 404: ApiErrorSerializer})
    def get(self, request, player_id: int):
        if not Player.objects.filter(pk=player_id).exists():
            raise NotFound(gettext("there is no player %(id)s") % {"id": player_id})
        return Response(PrPointSerializer(player_pr_points(player_id=player_id), many=True).data)


urlpatterns = [
    path("matches/<int:match_id>/analysis/", MatchAnalysisApi.as_view(), name="api-match-analysis"),
    path("players/<int:player_id>/analysis/", PlayerAnalysisApi.as_view(), name="api-player-analysis"),
]

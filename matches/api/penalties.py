"""Penalty points given mid-match (RULES.md §9): the list, and the director's
form (``POST``)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from core import throttles
from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.parsers import JSONParser

from ..models import MatchPenalty
from ..penalties_text import penalty_text
from ..services.penalties import match_penalty_give
from . import permissions
from .matches import WRITE_ERRORS, match_or_404


class PenaltySerializer(serializers.Serializer):
    side = serializers.IntegerField(help_text="the penalised side; the points go to the other side's score")
    points = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=MatchPenalty.Reason.choices)
    score_before = serializers.ListField(child=serializers.IntegerField(), help_text="the score as it stood")
    score_after = serializers.ListField(child=serializers.IntegerField(), help_text="the score after the penalty")
    crawford_next = serializers.BooleanField(allow_null=True, help_text="the next game is the Crawford game (null: "
                                             "the games played decide it)")
    ended_match = serializers.BooleanField(help_text="the penalty ended the match (confirmed to the opponent)")
    text = serializers.CharField(help_text="the penalty as a sentence, in the reader's language")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "MatchPenalty"


def _rows(match) -> list[dict]:
    return [{"side": p.side, "points": p.points, "reason": p.reason, "score_before": list(p.score_before),
             "score_after": list(p.score_after), "crawford_next": p.crawford_next, "ended_match": p.ended_match,
             "text": penalty_text(match, p), "created_at": p.created_at} for p in match.penalties.all()]


class MatchPenaltiesApi(BaseApi):
    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        side = serializers.ChoiceField(choices=(0, 1), help_text="the penalised side")
        points = serializers.IntegerField(min_value=1, max_value=999)
        reason = serializers.ChoiceField(choices=MatchPenalty.Reason.choices)
        score = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=9999), min_length=2,
                                      max_length=2, required=False,
                                      help_text="the score as it stands (default: the score the last penalty left)")

        class Meta:
            ref_name = "MatchPenaltyGive"

    @extend_schema(operation_id="matches_penalties_list", tags=["results"], summary="Penalty points given mid-match",
                   responses={200: PenaltySerializer(many=True), 404: ApiErrorSerializer})
    def get(self, request, match_id: int):
        return Response(PenaltySerializer(_rows(match_or_404(match_id, request.user)), many=True).data)

    @extend_schema(
        operation_id="matches_penalties_give", tags=["results"], summary="Give penalty points between games (director)",
        description="RULES.md §9: the points go to the other side's score as it stands; the Crawford game follows "
                    "from the new score; more than half the match length in penalties in total (or a score at the "
                    "length) ends the match, confirmed to the opponent. Answers the match's penalties.",
        request=InputSerializer, responses={201: PenaltySerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request, match_id: int):
        match = match_or_404(match_id, request.user)
        permissions.check_may_override(match, request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        score = tuple(data["score"]) if "score" in data else None
        match_penalty_give(match.pk, data["side"], data["points"], data["reason"], request.user, score=score)
        match = match_or_404(match_id, request.user)
        return Response(PenaltySerializer(_rows(match), many=True).data, status=201)


urlpatterns = [
    path("matches/<int:match_id>/penalties/", MatchPenaltiesApi.as_view(), name="api-match-penalties"),
]

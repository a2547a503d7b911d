"""A match's clock: the director records a flag fall or introduces a clock
mid-match. Both answer the match's detail (its ``clock`` and, after a flag fall, its result)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated

from core import throttles
from core.api import BaseApi, StrictInputSerializer
from core.bounds import INT_MAX
from core.parsers import JSONParser

from ..services.clocks import match_clock_introduce, match_flag_fall
from . import permissions
from .matches import WRITE_ERRORS, detail_answer, match_or_404
from .serializers import MatchDetailSerializer, ScoreField


class MatchFlagFallApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        read_only_names = ("score", "status", "winner", "clock")

        side = serializers.ChoiceField(choices=(0, 1), help_text="the side whose flag fell: it loses the match")
        statement = serializers.CharField(required=False, allow_blank=True, max_length=2000,
                                          help_text="the director's own words")

        class Meta:
            ref_name = "MatchFlagFall"

    @extend_schema(
        operation_id="matches_flag_fall", tags=["results"], summary="Record a flag fall (the match's director)",
        description="The side's reserve (and overtime, where the event allows it) is used up: the match is confirmed "
                    "to the opponent at the match length, its result saying it was a flag fall. Only for a match "
                    "played with a clock and not yet confirmed (409 otherwise).",
        request=InputSerializer, responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request, match_id: int):
        match = match_or_404(match_id, request.user)
        permissions.check_may_override(match, request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match_flag_fall(match_id=match.pk, side=data["side"], user=request.user, statement=data.get("statement", ""))
        return detail_answer(request, match.pk)


class MatchClockApi(BaseApi):
    permission_classes = [IsAuthenticated]
    throttle_classes = throttles.REPORTS
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        read_only_names = ("status", "winner", "clock", "reserve_seconds")

        score = ScoreField(help_text="the score when the clock comes in, side 0's first")
        seconds_per_point = serializers.IntegerField(
            required=False, min_value=1, max_value=INT_MAX,
            help_text="the reserve per match point; default: the match's own clock's, else 120")
        delay_seconds = serializers.IntegerField(
            required=False, min_value=0, max_value=600,
            help_text="the delay per move; default: the match's own clock's, else 12")

        class Meta:
            ref_name = "MatchClockIntroduce"

    @extend_schema(
        operation_id="matches_clock_introduce", tags=["results"], summary="Introduce a clock mid-match (the director)",
        description="Each side's reserve is the match's reserve less one minute for every point already played "
                    "(the sum of the score), never below one point's reserve.",
        request=InputSerializer, responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request, match_id: int):
        match = match_or_404(match_id, request.user)
        permissions.check_may_override(match, request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match_clock_introduce(match_id=match.pk, user=request.user, score=tuple(data["score"]),
                              seconds_per_point=data.get("seconds_per_point"), delay_seconds=data.get("delay_seconds"))
        return detail_answer(request, match.pk)


urlpatterns = [
    path("matches/<int:match_id>/flag-fall/", MatchFlagFallApi.as_view(), name="api-match-flag-fall"),
    path("matches/<int:match_id>/clock/", MatchClockApi.as_view(), name="api-match-clock"),
]

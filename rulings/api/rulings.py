"""Rulings: one made on a dispute (``disputes/<id>/rulings/``), one read (``rulings/<id>/``), and
an event's rulings, public (``tournaments/<id>/rulings/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from core import throttles
from core.api import ApiErrorSerializer
from rulings.selectors import rulings_of_event
from rulings.services.rulings import ruling_make
from tournaments.models import Tournament
from tournaments.selectors.event import tournament_get

from .base import READ_ERRORS, TAGS, WRITE_ERRORS, RulingsBaseApi, dispute_loaded, read_body, ruling_loaded
from .disputes import dispute_response
from .serializers import (
    DisputeDetailSerializer,
    EventRulingSerializer,
    RulingInputSerializer,
    RulingSerializer,
)


class RulingCreateApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="disputes_rulings_create", tags=TAGS, summary="Rule on a dispute (the director)",
                   description="The outcome with its details (params), the rule applied and the reasoning. The "
                               "ruling is applied at once (a corrected score, an awarded match, penalty points...) "
                               "and recorded for good; 409 ruling_refused when the event can no longer take it. "
                               "Answers with the dispute.",
                   request=RulingInputSerializer, responses={201: DisputeDetailSerializer, **WRITE_ERRORS})
    def post(self, request, dispute_id: int):
        dispute_loaded(dispute_id, request.user)
        data = read_body(RulingInputSerializer, request)
        ruling_make(dispute_id=dispute_id, user=request.user, outcome=data["outcome"], params=data["params"],
                    rule=data["rule"], reasoning=data["reasoning"])
        return dispute_response(dispute_id, request.user, status.HTTP_201_CREATED)


class RulingDetailApi(RulingsBaseApi):
    @extend_schema(operation_id="rulings_retrieve", tags=TAGS, summary="A ruling",
                   description="Who can see its dispute can see it; 404 for anyone else.",
                   responses={200: RulingSerializer, **READ_ERRORS})
    def get(self, request, ruling_id: int):
        return Response(RulingSerializer(ruling_loaded(ruling_id, request.user)).data)


class EventRulingsApi(RulingsBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_rulings", tags=["tournaments"], summary="The event's rulings (public)",
                   description="Every ruling made on a match of the event, oldest first: category, outcome, rule, "
                               "status and date. No statement, no reasoning, nobody's name.",
                   responses={200: EventRulingSerializer(many=True), 404: ApiErrorSerializer})
    def get(self, request, tournament_id: int):
        try:
            tournament_get(tournament_id)
        except Tournament.DoesNotExist:
            raise NotFound(f"there is no tournament {tournament_id}") from None
        return Response(EventRulingSerializer(rulings_of_event(tournament_id), many=True).data)

"""Disputes: a match's disputes listed and opened (``disputes/``), one read
(``disputes/<id>/``), and a statement added to one (``disputes/<id>/statements/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from core import throttles
from core.api import ApiErrorSerializer, Pagination, paginated_response
from rulings import selectors
from rulings.services.disputes import dispute_answer, dispute_open

from .base import READ_ERRORS, TAGS, WRITE_ERRORS, RulingsBaseApi, dispute_loaded, read_body
from .serializers import (
    DisputeDetailSerializer,
    DisputeFilterSerializer,
    DisputeOpenSerializer,
    DisputeSummarySerializer,
    StatementInputSerializer,
)


def dispute_response(dispute_id: int, user, status_code: int = status.HTTP_200_OK) -> Response:
    """The dispute as its detail shows it to ``user`` (what a dispute's and a ruling's writes answer)."""
    return Response(DisputeDetailSerializer(dispute_loaded(dispute_id, user)).data, status=status_code)


class DisputeListApi(RulingsBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is
    @extend_schema(operation_id="disputes_list", tags=TAGS, summary="Disputes: a director's queue, a player's own",
                   description="Newest first, paginated. A director sees the disputes of the matches he directs "
                               "(as the match's or the event's organiser), staff every dispute, a player those of "
                               "his own matches, a committee member those he sits on an appeal of. Filter by "
                               "status, category, event and match; a bad filter is a 400 naming it.",
                   parameters=[DisputeFilterSerializer],
                   responses={200: DisputeSummarySerializer(many=True), 400: ApiErrorSerializer, 401: ApiErrorSerializer})
    def get(self, request):
        query = DisputeFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        queryset = selectors.dispute_list(request.user, query.filters())
        return paginated_response(request=request, view=self, queryset=queryset,
                                  serializer_class=DisputeSummarySerializer)


class DisputeOpenApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="disputes_create", tags=TAGS, summary="Open a dispute (a player of the match, "
                                                                       "or its director)",
                   description="A category, a statement and, for a moment of a game, game_number and move_number "
                               "(the action of the game's log); log carries the game as played when it differs from "
                               "the record. The position at that moment is recorded with the dispute.",
                   request=DisputeOpenSerializer, responses={201: DisputeDetailSerializer, **WRITE_ERRORS})
    def post(self, request):
        data = read_body(DisputeOpenSerializer, request)
        dispute = dispute_open(match_id=data["match"], user=request.user, category=data["category"],
                               statement=data["statement"], game_number=data.get("game_number"),
                               move_number=data.get("move_number"), log=data.get("log"))
        return dispute_response(dispute.pk, request.user, status.HTTP_201_CREATED)


class DisputeCollectionApi(DisputeListApi, DisputeOpenApi):
    """``/disputes/`` routes by method: GET is :class:`DisputeListApi`, POST :class:`DisputeOpenApi`
    (Django routes by path only); only the POST is throttled."""

    def get_throttles(self):
        operation = DisputeOpenApi if self.request is not None and self.request.method == "POST" else DisputeListApi
        return [throttle() for throttle in operation.throttle_classes]


class DisputeDetailApi(RulingsBaseApi):
    @extend_schema(operation_id="disputes_retrieve", tags=TAGS, summary="A dispute with its statements, rulings "
                                                                         "and appeals",
                   description="For the match's players, its director, staff and the members of its appeals' "
                               "committees; 404 for anyone else.",
                   responses={200: DisputeDetailSerializer, **READ_ERRORS})
    def get(self, request, dispute_id: int):
        return dispute_response(dispute_id, request.user)


class StatementCreateApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="disputes_statements_create", tags=TAGS, summary="Answer a dispute (a party, "
                                                                                   "or the director)",
                   description="Adds a statement; answers with the dispute.",
                   request=StatementInputSerializer, responses={201: DisputeDetailSerializer, **WRITE_ERRORS})
    def post(self, request, dispute_id: int):
        dispute_loaded(dispute_id, request.user)
        data = read_body(StatementInputSerializer, request)
        dispute_answer(dispute_id=dispute_id, user=request.user, text=data["text"])
        return dispute_response(dispute_id, request.user, status.HTTP_201_CREATED)

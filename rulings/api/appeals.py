"""Appeals: one lodged against a ruling (``rulings/<id>/appeal/``), one read (``appeals/<id>/``),
its committee named (``appeals/<id>/committee/``) and its members' votes (``appeals/<id>/votes/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from core import throttles
from rulings import access
from rulings.services.appeals import appeal_lodge, committee_name, vote_cast

from .base import READ_ERRORS, TAGS, WRITE_ERRORS, RulingsBaseApi, appeal_loaded, read_body, ruling_loaded
from .serializers import (
    AppealInputSerializer,
    AppealSerializer,
    CommitteeInputSerializer,
    VoteInputSerializer,
)


def appeal_response(appeal_id: int, user, status_code: int = status.HTTP_200_OK) -> Response:
    appeal = appeal_loaded(appeal_id, user)
    data = AppealSerializer(appeal, context={"sees_votes": access.sees_votes(appeal, user)}).data
    return Response(data, status=status_code)


class AppealLodgeApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="rulings_appeal", tags=TAGS, summary="Appeal a ruling (a player of the match)",
                   description="Within the event's appeal window (appeal_window_closes on the ruling): 409 "
                               "appeal_window_closed after it, already_appealed the second time. Answers with the "
                               "appeal.",
                   request=AppealInputSerializer, responses={201: AppealSerializer, **WRITE_ERRORS})
    def post(self, request, ruling_id: int):
        ruling_loaded(ruling_id, request.user)
        data = read_body(AppealInputSerializer, request)
        appeal = appeal_lodge(ruling_id=ruling_id, user=request.user, grounds=data["grounds"])
        return appeal_response(appeal.pk, request.user, status.HTTP_201_CREATED)


class AppealDetailApi(RulingsBaseApi):
    @extend_schema(operation_id="appeals_retrieve", tags=TAGS, summary="An appeal: grounds, committee, decision",
                   description="Who can see its dispute can see it (404 for anyone else); ``votes`` are shown to "
                               "the committee and the director only, null for the parties.",
                   responses={200: AppealSerializer, **READ_ERRORS})
    def get(self, request, appeal_id: int):
        return appeal_response(appeal_id, request.user)


class CommitteeNameApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="appeals_committee", tags=TAGS, summary="Name the appeal's committee (the director)",
                   description="3 or 5 user ids, none of them the ruling director or a player of the match "
                               "(400 bad_committee naming the member); 409 committee_named the second time.",
                   request=CommitteeInputSerializer, responses={200: AppealSerializer, **WRITE_ERRORS})
    def post(self, request, appeal_id: int):
        appeal_loaded(appeal_id, request.user)
        data = read_body(CommitteeInputSerializer, request)
        committee_name(appeal_id=appeal_id, user=request.user, member_ids=data["members"])
        return appeal_response(appeal_id, request.user)


class VoteCastApi(RulingsBaseApi):
    throttle_classes = throttles.DISPUTES

    @extend_schema(operation_id="appeals_vote", tags=TAGS, summary="Vote on an appeal (a committee member)",
                   description="uphold, overturn, or replace with a new ruling (outcome, params, rule, reasoning). "
                               "A member may change his vote until the appeal is decided: the vote that makes a "
                               "majority decides it at once. Answers with the appeal.",
                   request=VoteInputSerializer, responses={200: AppealSerializer, **WRITE_ERRORS})
    def post(self, request, appeal_id: int):
        appeal_loaded(appeal_id, request.user)
        data = read_body(VoteInputSerializer, request)
        vote_cast(appeal_id=appeal_id, user=request.user, **data)
        return appeal_response(appeal_id, request.user)

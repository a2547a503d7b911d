"""A club's nights (``clubs/<id>/nights/``): the list and a new night, one night read, closed, and a
player checked in."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from core.api import Pagination, paginated_response

from .. import selectors, services
from ..models import Club
from ..permissions import require_club_manager, require_club_member
from .base import MEMBER_READ_ERRORS, READ_ERRORS, TAGS, WRITE_ERRORS, ClubBaseApi, club_by_id, read_body, require_member_reader
from .serializers import (
    CheckInInputSerializer,
    NightBriefSerializer,
    NightOpenSerializer,
    NightSerializer,
    NoBodySerializer,
)


def _night_response(club: Club, night_id: int, code: int = status.HTTP_200_OK) -> Response:
    night = selectors.night_get(club=club, night_id=night_id)
    return Response(NightSerializer(selectors.night_summary(night=night)).data, status=code)


class NightCollectionApi(ClubBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is
    @extend_schema(operation_id="clubs_nights_list", tags=TAGS, summary="The club's nights, newest first",
                   description="Public: date, title, status and how many checked in (the night itself is for members).",
                   responses={200: NightBriefSerializer(many=True), **READ_ERRORS})
    def get(self, request, club_id: int):
        return paginated_response(request=request, view=self, queryset=selectors.night_list(club=club_by_id(club_id)),
                                  serializer_class=NightBriefSerializer)

    @extend_schema(operation_id="clubs_nights_open", tags=TAGS, summary="Open a club night (owners, organisers)",
                   request=NightOpenSerializer, responses={201: NightSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        night = services.night_open(club_id=club.pk, user=request.user, **read_body(NightOpenSerializer, request))
        return _night_response(club, night.pk, status.HTTP_201_CREATED)


class NightDetailApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_nights_retrieve", tags=TAGS, summary="A night's summary (members)",
                   description="Check-ins, the night's matches with their results, its chouette sessions and each "
                               "player's net chouette result. Members only (it holds money amounts).",
                   responses={200: NightSerializer, **MEMBER_READ_ERRORS})
    def get(self, request, club_id: int, night_id: int):
        club = club_by_id(club_id)
        require_member_reader(club, request.user)
        return _night_response(club, night_id)


class NightCloseApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_nights_close", tags=TAGS, summary="Close the night (owners, organisers)",
                   description="No more check-ins. Closing again changes nothing.",
                   request=NoBodySerializer, responses={200: NightSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, night_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        read_body(NoBodySerializer, request)
        services.night_close(club_id=club.pk, night_id=night_id, user=request.user)
        return _night_response(club, night_id)


class NightCheckInApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_nights_check_in", tags=TAGS, summary="Check in to the night",
                   description="A member checks himself in (no body); owners and organisers check in a member by "
                               "``player``. 409 night_closed. Checking in twice changes nothing.",
                   request=CheckInInputSerializer, responses={200: NightSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, night_id: int):
        club = club_by_id(club_id)
        require_club_member(club, request.user)
        body = read_body(CheckInInputSerializer, request)
        services.night_check_in(club_id=club.pk, night_id=night_id, user=request.user, player_id=body.get("player"))
        return _night_response(club, night_id)

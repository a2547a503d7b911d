"""Clubs: the list and a new club (``clubs/``), one club read, changed (``clubs/<id>/``), and its
calendar of events as an iCal feed (``clubs/<id>/calendar.ics``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from core.api import Pagination, paginated_response

from .. import exports, selectors, services
from ..models import Club, Membership
from .base import READ_ERRORS, TAGS, WRITE_ERRORS, ClubBaseApi, FileApi, club_by_id, read_body
from .serializers import (
    ClubCreateSerializer,
    ClubDetailSerializer,
    ClubSerializer,
    ClubUpdateSerializer,
)


class ClubCollectionApi(ClubBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is
    @extend_schema(operation_id="clubs_list", tags=TAGS, summary="Clubs, by name",
                   description="Paginated. Public.", responses={200: ClubSerializer(many=True)})
    def get(self, request):
        return paginated_response(request=request, view=self, queryset=selectors.club_list(),
                                  serializer_class=ClubSerializer)

    @extend_schema(operation_id="clubs_create", tags=TAGS, summary="Create a club (you become its owner)",
                   description="Any logged-in user. The slug comes from the name. 409 name_taken for a name in use.",
                   request=ClubCreateSerializer, responses={201: ClubSerializer, **WRITE_ERRORS})
    def post(self, request):
        club = services.club_create(user=request.user, **read_body(ClubCreateSerializer, request))
        return Response(ClubSerializer(club_by_id(club.pk)).data, status=status.HTTP_201_CREATED)


def _detail(club: Club, user) -> dict:
    today = timezone.localdate()
    own = selectors.membership_of(club=club, user=user)
    return {
        **ClubSerializer(club).data,
        "my_role": own.role if own is not None and own.status == Membership.Status.ACTIVE else None,
        "my_status": own.status if own is not None else None,
        "members": selectors.member_list(club=club),
        "upcoming_nights": selectors.night_list(club=club, upcoming_from=today),
        "upcoming_events": selectors.event_list(club=club, upcoming_from=today),
    }


class ClubDetailApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_retrieve", tags=TAGS, summary="A club: members, upcoming nights and events",
                   description="Public: members' display names, ratings and last results (never an email).",
                   responses={200: ClubDetailSerializer, **READ_ERRORS})
    def get(self, request, club_id: int):
        return Response(ClubDetailSerializer(_detail(club_by_id(club_id), request.user)).data)

    @extend_schema(operation_id="clubs_update", tags=TAGS, summary="Edit the club (owners)",
                   description="Name, city, description, open to requests; the slug stays.",
                   request=ClubUpdateSerializer, responses={200: ClubDetailSerializer, **WRITE_ERRORS})
    def patch(self, request, club_id: int):
        club = club_by_id(club_id)
        body = read_body(ClubUpdateSerializer, request)
        services.club_update(club_id=club.pk, user=request.user, **body)
        return Response(ClubDetailSerializer(_detail(club_by_id(club.pk), request.user)).data)


class CalendarApi(FileApi):
    @extend_schema(operation_id="clubs_calendar", tags=TAGS, summary="The club's nights and events as iCalendar",
                   description="Public; subscribe to it. RFC 5545, all-day items, stable UIDs.",
                   responses={(200, "text/calendar"): OpenApiResponse(OpenApiTypes.STR, description="an iCalendar feed"),
                              **READ_ERRORS})
    def get(self, request, club_id: int):
        club = club_by_id(club_id)
        nights, events = selectors.calendar_items(club=club)
        body = exports.club_calendar(club, nights, events, base_url=f"{request.scheme}://{request.get_host()}")
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{club.slug}.ics"'
        return response

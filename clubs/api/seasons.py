"""A club's seasons (``clubs/<id>/seasons/``) and a season's ladder, as JSON and as CSV."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from .. import exports, selectors, services
from ..permissions import require_club_manager
from .base import READ_ERRORS, TAGS, WRITE_ERRORS, ClubBaseApi, FileApi, club_by_id, read_body
from .serializers import (
    LadderSerializer,
    SeasonInputSerializer,
    SeasonSerializer,
    SeasonUpdateSerializer,
)


class SeasonCollectionApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_seasons_list", tags=TAGS, summary="The club's seasons, latest first",
                   description="Public.", responses={200: SeasonSerializer(many=True), **READ_ERRORS})
    def get(self, request, club_id: int):
        return Response(SeasonSerializer(selectors.season_list(club=club_by_id(club_id)), many=True).data)

    @extend_schema(operation_id="clubs_seasons_create", tags=TAGS, summary="Create a season (owners, organisers)",
                   description="Seasons may overlap. 409 season_name_taken.",
                   request=SeasonInputSerializer, responses={201: SeasonSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        season = services.season_create(club_id=club.pk, user=request.user, **read_body(SeasonInputSerializer, request))
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_seasons_retrieve", tags=TAGS, summary="A season",
                   responses={200: SeasonSerializer, **READ_ERRORS})
    def get(self, request, club_id: int, season_id: int):
        return Response(SeasonSerializer(selectors.season_get(club=club_by_id(club_id), season_id=season_id)).data)

    @extend_schema(operation_id="clubs_seasons_update", tags=TAGS, summary="Edit a season (owners, organisers)",
                   request=SeasonUpdateSerializer, responses={200: SeasonSerializer, **WRITE_ERRORS})
    def patch(self, request, club_id: int, season_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        body = read_body(SeasonUpdateSerializer, request)
        return Response(SeasonSerializer(services.season_update(club_id=club.pk, season_id=season_id,
                                                                user=request.user, **body)).data)

    @extend_schema(operation_id="clubs_seasons_delete", tags=TAGS, summary="Delete a season (owners, organisers)",
                   description="Its matches and results stay.", request=None, responses={204: None, **WRITE_ERRORS})
    def delete(self, request, club_id: int, season_id: int):
        club = club_by_id(club_id)
        services.season_delete(club_id=club.pk, season_id=season_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LadderApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_seasons_ladder", tags=TAGS, summary="The season's ladder",
                   description=f"Public. {selectors.LADDER_DEFINITION}", responses={200: LadderSerializer, **READ_ERRORS})
    def get(self, request, club_id: int, season_id: int):
        season = selectors.season_get(club=club_by_id(club_id), season_id=season_id)
        return Response(LadderSerializer({"season": season, "definition": gettext(selectors.LADDER_DEFINITION),
                                          "rows": selectors.season_ladder(season=season)}).data)


class LadderCsvApi(FileApi):
    @extend_schema(operation_id="clubs_seasons_ladder_csv", tags=TAGS, summary="The season's ladder as CSV",
                   description="Public. UTF-8, a header row (place, player, played, won, lost, points, rating_change), "
                               "RFC 4180 quoting; a shared place is written 3=.",
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="the ladder"),
                              **READ_ERRORS})
    def get(self, request, club_id: int, season_id: int):
        club = club_by_id(club_id)
        season = selectors.season_get(club=club, season_id=season_id)
        response = HttpResponse(exports.ladder_csv(selectors.season_ladder(season=season)),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{club.slug}-season-{season.pk}-ladder.csv"'
        return response

"""API: the organiser puts an entrant in a division of the event
(``tournaments.services.divisions``). The divisions and the handicap table are the event's
settings (``divisions``, ``handicaps`` of the tournament's create and update bodies); each
entrant's division and each match's handicap start are in the entrants and draw reads."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tournaments.services.divisions import entry_set_division

from . import permissions
from .events import TAGS, WRITE_ERRORS, TournamentBaseApi, body_serializer, entrant_in, tournament_or_404
from .serializers.entries import EntrantSerializer, EntryDivisionSerializer


class EntryDivisionApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_division", tags=TAGS,
                   summary="Put an entrant in a division (organiser)",
                   description="Any of the event's divisions, whatever the entrant's rating, until the event ends. "
                               "Matches already made keep their handicap start; those made later follow the new "
                               "division. 400 unknown_division or no_divisions; 409 when the event is over.",
                   request=EntryDivisionSerializer, responses={200: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, entry_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(EntryDivisionSerializer, request)
        entry_set_division(tournament_id=tournament.pk, entry_id=entry_id, user=request.user,
                           division=body.validated_data["division"])
        return Response(EntrantSerializer(entrant_in(tournament, entry_id)).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/division/", EntryDivisionApi.as_view(),
         name="api-tournament-entry-division"),
]

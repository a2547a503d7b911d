"""API: the director re-enters a first-round loser into the main (buy-back,
``tournaments.services.reentry``). Whether the event allows it is its ``reentries`` setting (the
tournament's create and update bodies); a re-entry is an entrant with ``reentry_of`` set."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tournaments.services.reentry import entry_reenter

from . import permissions
from .events import TAGS, WRITE_ERRORS, TournamentBaseApi, body_serializer, entrant_in, tournament_or_404
from .serializers.entries import EntrantSerializer
from .serializers.events import NoBodySerializer


class EntryReenterApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_reenter", tags=TAGS,
                   summary="Re-enter a first-round loser into the main (organiser)",
                   description="A buy-back: the player who lost this entry's main round-1 match "
                               "enters the main again as a new entrant (reentry_of: this entry), the next seed, into "
                               "the first unused bye, while the first round is open. The event must allow it "
                               "(reentries: 1; else 409 reentry_off). Refused with 409 reentry_refused and its "
                               "reason: not_a_first_round_loser, already_reentered, first_round_closed, bracket_full, "
                               "slot_played_on, withdrawn. The body is empty.",
                   request=None, responses={201: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, entry_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body_serializer(NoBodySerializer, request)
        entry = entry_reenter(tournament_id=tournament.pk, entry_id=entry_id, user=request.user)
        return Response(EntrantSerializer(entrant_in(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/reenter/", EntryReenterApi.as_view(),
         name="api-tournament-entry-reenter"),
]

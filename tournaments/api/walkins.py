"""API: the organiser enters a walk-in (a player without an account) in an individual event
(tournaments.services.walkins)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer
from matches.api.invitations import GuestInputSerializer
from tournaments.services.walkins import entry_add_walk_in

from . import permissions
from .events import TAGS, WRITE_ERRORS, TournamentBaseApi, body_serializer, entrant_in, tournament_or_404
from .serializers.entries import EntrantSerializer


class WalkInEntrySerializer(GuestInputSerializer):
    """A walk-in entrant: the guest player's name, email and country, and his seed before the draw."""

    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    help_text="the organiser's seed, before the draw only")

    class Meta:
        ref_name = "TournamentWalkInEntry"


class WalkInEntryApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_walk_in", tags=TAGS, summary="Enter a walk-in (organiser)",
                   description="A player without an account, in an individual event: a guest player is created and "
                               "entered in one transaction (before the draw like an entry, to check in; after it as "
                               "a late entrant). With an email address he is invited to claim the player. A name an "
                               "existing player has is that player: he is entered (409 already_entered if he is); a "
                               "different person of that name needs confirm_namesake and a country or email not "
                               "theirs (409 namesake_exists / namesakes_exist, 400 namesake_needs_detail / "
                               "namesake_not_distinct otherwise, naming the players who have the name). A user "
                               "sends at most CRAWFORD_INVITATIONS_PER_SENDER invitations in 24 hours and an address "
                               "receives at most CRAWFORD_INVITATIONS_PER_ADDRESS: beyond, 429 too_many_invitations / "
                               "address_invited_enough with Retry-After, and nothing is saved.",
                   request=WalkInEntrySerializer, responses={201: EntrantSerializer, **WRITE_ERRORS,
                                                             429: ApiErrorSerializer})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(WalkInEntrySerializer, request)
        entry = entry_add_walk_in(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(entrant_in(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("tournaments/<int:tournament_id>/entries/walk-in/", WalkInEntryApi.as_view(), name="api-tournament-walk-in"),
]

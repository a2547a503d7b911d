"""API: walk-in (guest) players' shared body, and accepting an invitation to claim a guest player
(matches.services.guests). The organisers' endpoints that enter walk-ins are the events' and the
clubs' (tournaments.api.walkins, clubs.api.walkins); they read :class:`GuestInputSerializer`."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.parsers import JSONParser

from ..services.guests import EMAIL_MAX, NAME_MAX, invitation_accept

TAGS = ["players"]


class GuestInputSerializer(StrictInputSerializer):
    """A walk-in player without an account: his name, and optionally his email address (he is
    invited to claim the player) and country, and whether he is a namesake of existing players
    (matches.services.walkins)."""

    name = serializers.CharField(max_length=NAME_MAX, help_text="the player's name as it is shown")
    email = serializers.CharField(max_length=EMAIL_MAX, required=False, allow_blank=True, default="",
                                  help_text="his email address: he is sent an invitation to claim the player")
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="",
                                    help_text="ISO 3166 alpha-2 code (GB, FR...)")
    confirm_namesake = serializers.BooleanField(
        required=False, default=False,
        help_text="he is a different person from the players who already have this name: a new guest player is "
                  "made, told apart by a country or email not theirs. Without it, a name an existing player has "
                  "is that player")

    class Meta:
        ref_name = "GuestPlayerInput"


class InvitationAcceptSerializer(StrictInputSerializer):
    token = serializers.CharField(max_length=128, help_text="the token of the invitation's link")

    class Meta:
        ref_name = "InvitationAccept"


class ClaimedPlayerSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "ClaimedPlayer"


class InvitationAcceptApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(operation_id="invitations_accept", tags=TAGS, summary="Claim a guest player",
                   description="The signed-in user accepts an invitation (the token of its link): the guest "
                               "player, with every result on his record, becomes his. 404 for a token that names "
                               "no invitation; 409 for one expired, used or replaced, a player already held, or a "
                               "user whose own player has matches (one account holds one player).",
                   request=InvitationAcceptSerializer,
                   responses={200: ClaimedPlayerSerializer, 400: ApiErrorSerializer, 401: ApiErrorSerializer,
                              403: ApiErrorSerializer, 404: ApiErrorSerializer, 409: ApiErrorSerializer})
    def post(self, request):
        body = InvitationAcceptSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = invitation_accept(token=body.validated_data["token"], user=request.user)
        return Response(ClaimedPlayerSerializer({"player_id": player.pk, "name": player.display_name}).data,
                        status=status.HTTP_200_OK)


urlpatterns = [
    path("invitations/accept/", InvitationAcceptApi.as_view(), name="api-invitation-accept"),
]

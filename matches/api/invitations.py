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

from ..services.claims import TEXT_LIMIT
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
    statement = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True, default="",
                                      help_text="where you played as this player (optional): shown to the director "
                                                "who decides, when the invitation was sent to another address")

    class Meta:
        ref_name = "InvitationAccept"


class ClaimedPlayerSerializer(serializers.Serializer):
    status = serializers.CharField(help_text='"claimed": the player is yours')
    player_id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "ClaimedPlayer"


class ClaimSentSerializer(serializers.Serializer):
    status = serializers.CharField(help_text='"claim_requested": a director decides')
    claim_id = serializers.IntegerField(help_text="your claim (GET /api/v1/claims/ lists it)")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    detail = serializers.CharField(help_text="what happened, as a sentence")

    class Meta:
        ref_name = "InvitationClaimSent"


class InvitationAcceptApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(operation_id="invitations_accept", tags=TAGS, summary="Claim a guest player",
                   description="The signed-in user accepts an invitation (the token of its link). When one of his "
                               "verified email addresses is the one the invitation was sent to (whatever its case), "
                               "the guest player, with every result on his record, becomes his: 200. Otherwise the "
                               "link only shows that he holds it: his acceptance becomes a claim of the player that "
                               "a director of an event or club the player played in, or staff, approves or refuses "
                               "(the claims flow, /claims/): 202, the player not his yet; asking again answers the "
                               "same claim. 403 email_unverified when the address is his but not verified yet (verify "
                               "it, then accept again); 404 for a token that names no invitation; 409 for one "
                               "expired, used or replaced, a player already held, or a user whose own player has "
                               "matches (one account holds one player).",
                   request=InvitationAcceptSerializer,
                   responses={200: ClaimedPlayerSerializer, 202: ClaimSentSerializer, 400: ApiErrorSerializer,
                              401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
                              409: ApiErrorSerializer})
    def post(self, request):
        body = InvitationAcceptSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        accepted = invitation_accept(token=body.validated_data["token"], user=request.user,
                                     statement=body.validated_data["statement"])
        player = accepted.player
        if accepted.claim is None:
            return Response(ClaimedPlayerSerializer({"status": "claimed", "player_id": player.pk,
                                                     "name": player.display_name}).data, status=status.HTTP_200_OK)
        # 202, not a 4xx: the request was valid and a claim now exists (a 4xx says nothing was saved).
        return Response(ClaimSentSerializer({"status": "claim_requested", "claim_id": accepted.claim.pk,
                                             "player_id": player.pk, "name": player.display_name,
                                             "detail": accepted.text}).data, status=status.HTTP_202_ACCEPTED)


urlpatterns = [
    path("invitations/accept/", InvitationAcceptApi.as_view(), name="api-invitation-accept"),
]

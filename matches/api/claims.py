"""API: claims of players known from imported match files, and merging two players (staff).

A claim names the player and the claimant by name, never an email address; the claimant's
statement and a refusal's reason are his and the director's words.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.parsers import JSONParser

from .. import errors
from ..models import Player, PlayerClaim
from ..selectors.claims import ClaimRow, claim_get, claim_list, open_claim_of
from ..services.claims import TEXT_LIMIT, claim_approve, claim_refuse, claim_request, claim_withdraw, player_merge

WRITE_ERRORS = {400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
                409: ApiErrorSerializer}


class ClaimPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()

    class Meta:
        ref_name = "ClaimPlayer"


class ClaimSerializer(serializers.Serializer):
    """A claim (a :class:`matches.selectors.claims.ClaimRow`, or a bare claim after a change)."""

    id = serializers.IntegerField(source="claim.pk")
    player = ClaimPlayerSerializer(source="claim.player")
    claimant = serializers.CharField(source="claim.user.username", help_text="the claimant's user name")
    status = serializers.ChoiceField(choices=PlayerClaim.Status.choices, source="claim.status")
    status_text = serializers.CharField(source="claim.get_status_display", help_text="the status in words")
    statement = serializers.CharField(source="claim.statement", help_text="what the claimant said")
    reason = serializers.CharField(source="claim.reason_text", help_text="why it was refused, in the request's "
                                   "language when the application refused it (empty otherwise)")
    created_at = serializers.DateTimeField(source="claim.created_at")
    decided_at = serializers.DateTimeField(source="claim.decided_at", allow_null=True)
    may_decide = serializers.BooleanField(help_text="whether you may approve or refuse it now")
    may_withdraw = serializers.BooleanField(help_text="whether you may withdraw it now (your own, waiting)")
    needs_merge_with = serializers.CharField(
        allow_null=True, help_text="the claimant's own player, when it has matches: approving is then refused, "
                                   "staff merge the two players instead")

    class Meta:
        ref_name = "PlayerClaim"


def _answer(claim: PlayerClaim, user, code: int = status.HTTP_200_OK) -> Response:
    waiting = claim.status == PlayerClaim.Status.REQUESTED
    row = ClaimRow(claim=claim, may_decide=False, may_withdraw=waiting and claim.user_id == user.pk,
                   needs_merge_with=None)
    return Response(ClaimSerializer(row).data, status=code)


def _claim_or_404(claim_id: int) -> PlayerClaim:
    try:
        return claim_get(claim_id)
    except PlayerClaim.DoesNotExist:
        raise NotFound(gettext("there is no claim %(id)s") % {"id": claim_id}) from None


class PlayerClaimApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        statement = serializers.CharField(required=False, allow_blank=True, max_length=TEXT_LIMIT, default="",
                                          help_text="why you are this player (where you played as him), for the "
                                                    "director who decides")

        class Meta:
            ref_name = "PlayerClaimRequest"

    @extend_schema(
        operation_id="players_claim", tags=["players"], summary="Claim to be a player known from imported files",
        description="\"This is me\": asks to be a player without a user (a name from imported match files). A director "
                    "of an event or club he played in, or staff, decides. Asking again while the claim waits answers "
                    "it (200). A player who belongs to a user already cannot be claimed (409).",
        request=InputSerializer, responses={200: ClaimSerializer, 201: ClaimSerializer, **WRITE_ERRORS},
    )
    def post(self, request, player_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        existed = open_claim_of(request.user, player_id) is not None
        try:
            claim = claim_request(player_id=player_id, user=request.user,
                                  statement=serializer.validated_data["statement"])
        except Player.DoesNotExist:
            raise NotFound(gettext("there is no player %(id)s") % {"id": player_id}) from None
        return _answer(claim, request.user, status.HTTP_200_OK if existed else status.HTTP_201_CREATED)


class ClaimListApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="claims_list", tags=["players"], summary="The claims you made or may decide",
                   description="Your own claims (every state, newest first), then the claims waiting that you may "
                               "decide: staff all of them, a director those of players of his events and clubs.",
                   responses={200: ClaimSerializer(many=True), 401: ApiErrorSerializer})
    def get(self, request):
        return Response(ClaimSerializer(claim_list(request.user), many=True).data)


class ClaimApproveApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="claims_approve", tags=["players"], summary="Approve a claim",
                   description="The claimant becomes the player's user: his matches and his rating. His own player, "
                               "if it has no matches, is removed; if it has, the claim cannot be approved (409 "
                               "claim_needs_merge): staff merge the two players instead. Staff, or a director of an "
                               "event or club the player played in.",
                   request=None, responses={200: ClaimSerializer, **WRITE_ERRORS})
    def post(self, request, claim_id: int):
        _claim_or_404(claim_id)
        return _answer(claim_approve(claim_id=claim_id, user=request.user), request.user)


class ClaimRefuseApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        reason = serializers.CharField(required=False, allow_blank=True, max_length=TEXT_LIMIT, default="",
                                       help_text="why the claim is refused: required, shown to the claimant")

        class Meta:
            ref_name = "ClaimRefusal"

    @extend_schema(operation_id="claims_refuse", tags=["players"], summary="Refuse a claim, saying why",
                   request=InputSerializer, responses={200: ClaimSerializer, **WRITE_ERRORS})
    def post(self, request, claim_id: int):
        _claim_or_404(claim_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        claim = claim_refuse(claim_id=claim_id, user=request.user, reason=serializer.validated_data["reason"])
        return _answer(claim, request.user)


class ClaimWithdrawApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="claims_withdraw", tags=["players"], summary="Withdraw your claim while it waits",
                   request=None, responses={200: ClaimSerializer, **WRITE_ERRORS})
    def post(self, request, claim_id: int):
        _claim_or_404(claim_id)
        return _answer(claim_withdraw(claim_id=claim_id, user=request.user), request.user)


class MergeOutcomeSerializer(serializers.Serializer):
    source = serializers.CharField(help_text="the player merged away")
    target = serializers.CharField(help_text="the player who remains")
    matches = serializers.IntegerField(help_text="the source's matches, all kept, now the target's")
    sides_folded = serializers.IntegerField(help_text="sides of the source folded into the target's")
    source_rating = serializers.FloatField(help_text="the source's rating before")
    target_rating = serializers.FloatField(help_text="the target's rating before")
    rating = serializers.FloatField(help_text="the merged player's rating after")
    experience = serializers.IntegerField(help_text="the merged player's experience after")
    recomputed = serializers.IntegerField(help_text="rated matches rated again")
    user_moves = serializers.BooleanField(help_text="the source's user becomes the target's")
    applied = serializers.BooleanField(help_text="false for a dry run: nothing was changed")

    class Meta:
        ref_name = "PlayerMerge"


class PlayerMergeApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        source = serializers.IntegerField(min_value=1, help_text="the player merged away (deleted)")
        target = serializers.IntegerField(min_value=1, help_text="the player who remains, with every match")
        dry_run = serializers.BooleanField(required=False, default=False,
                                           help_text="say what the merge would do and change nothing")

        class Meta:
            ref_name = "PlayerMergeRequest"

    @extend_schema(operation_id="players_merge", tags=["players"], summary="Merge two players (staff)",
                   description="One person known as two players: every match of the source becomes the target's, "
                               "the ratings are rated again as one player's, and the source is removed. Refused (409) "
                               "when both belong to users or when they played each other.",
                   request=InputSerializer, responses={200: MergeOutcomeSerializer, **WRITE_ERRORS})
    def post(self, request):
        if not request.user.is_staff:
            raise errors.merge_not_staff()
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            outcome = player_merge(source_id=data["source"], target_id=data["target"], user=request.user,
                                   dry_run=data["dry_run"])
        except Player.DoesNotExist:
            raise NotFound(gettext("there is no such player")) from None
        return Response(MergeOutcomeSerializer(outcome).data)


urlpatterns = [
    path("players/merge/", PlayerMergeApi.as_view(), name="api-player-merge"),
    path("players/<int:player_id>/claim/", PlayerClaimApi.as_view(), name="api-player-claim"),
    path("claims/", ClaimListApi.as_view(), name="api-claims"),
    path("claims/<int:claim_id>/approve/", ClaimApproveApi.as_view(), name="api-claim-approve"),
    path("claims/<int:claim_id>/refuse/", ClaimRefuseApi.as_view(), name="api-claim-refuse"),
    path("claims/<int:claim_id>/withdraw/", ClaimWithdrawApi.as_view(), name="api-claim-withdraw"),
]

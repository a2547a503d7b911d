"""API: a club's owner or organiser adds a walk-in member, who has no account (clubs.services.walkins)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from core.api import ApiErrorSerializer
from matches.api.invitations import GuestInputSerializer

from ..models import Membership
from ..permissions import require_club_manager
from ..services.walkins import membership_add_walk_in
from .base import TAGS, WRITE_ERRORS, ClubBaseApi, club_by_id, read_body
from .serializers import MembershipSerializer


class MembershipWalkInApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_memberships_walk_in", tags=TAGS, summary="Add a walk-in member (owners, organisers)",
                   description="Someone without an account: a guest player is made an active member (the member "
                               "role); with an email address he is invited to claim the player, and his "
                               "membership becomes his account's when he does. A name an existing player has is "
                               "that player (a guest is made a member, an account holder invited to join; 409 "
                               "already_member); a different person of that name needs confirm_namesake and a "
                               "country or email not theirs. A user sends at most CRAWFORD_INVITATIONS_PER_SENDER "
                               "invitations in 24 hours and an address receives at most "
                               "CRAWFORD_INVITATIONS_PER_ADDRESS: beyond, 429 too_many_invitations / "
                               "address_invited_enough with Retry-After, and nothing is saved.",
                   request=GuestInputSerializer, responses={201: MembershipSerializer, **WRITE_ERRORS,
                                                            429: ApiErrorSerializer})
    def post(self, request, club_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        body = read_body(GuestInputSerializer, request)
        membership = membership_add_walk_in(club_id=club.pk, user=request.user, **body)
        fresh = Membership.objects.select_related("user", "invited_by", "player").get(pk=membership.pk)
        return Response(MembershipSerializer(fresh).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("clubs/<int:club_id>/memberships/walk-in/", MembershipWalkInApi.as_view(), name="api-club-membership-walk-in"),
]

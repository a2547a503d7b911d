"""A club's memberships (``clubs/<id>/memberships/``): the list, a request, an invitation and its
acceptance, leaving, and the owner's decisions on one (approve, decline, its role, remove)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response

from .. import services
from ..models import Membership
from ..permissions import require_club_manager, require_club_owner
from .base import MEMBER_READ_ERRORS, TAGS, WRITE_ERRORS, ClubBaseApi, club_by_id, read_body
from .serializers import (
    InviteSerializer,
    MembershipSerializer,
    NoBodySerializer,
    RoleSerializer,
)


class MembershipListApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_memberships_list", tags=TAGS, summary="Every membership (owners, organisers)",
                   description="Active members, requests to join and invitations, with usernames.",
                   responses={200: MembershipSerializer(many=True), **MEMBER_READ_ERRORS})
    def get(self, request, club_id: int):
        club = club_by_id(club_id)
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        require_club_manager(club, request.user)
        memberships = (Membership.objects.filter(club=club).select_related("user", "invited_by", "player")
                       .order_by("status", "role", "user__username"))
        return Response(MembershipSerializer(memberships, many=True).data)


def _membership_response(membership: Membership) -> Response:
    fresh = Membership.objects.select_related("user", "invited_by", "player").get(pk=membership.pk)
    return Response(MembershipSerializer(fresh).data)


def _own_action(name: str, summary: str, description: str, service):
    class OwnMembershipApi(ClubBaseApi):
        @extend_schema(operation_id=f"clubs_memberships_{name}", tags=TAGS, summary=summary, description=description,
                       request=NoBodySerializer, responses={200: MembershipSerializer, **WRITE_ERRORS})
        def post(self, request, club_id: int):
            club = club_by_id(club_id)
            read_body(NoBodySerializer, request)
            return _membership_response(service(club_id=club.pk, user=request.user))

    OwnMembershipApi.__name__ = OwnMembershipApi.__qualname__ = f"Membership{name.title()}Api"
    return OwnMembershipApi


MembershipRequestApi = _own_action(
    "request", "Ask to join", "Any logged-in user, if the club takes requests (409 closed_to_requests). An owner "
    "approves. Asking again changes nothing.", services.membership_request)


MembershipAcceptApi = _own_action(
    "accept", "Accept your invitation", "409 not_pending without an invitation.", services.membership_accept)


class MembershipInviteApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_memberships_invite", tags=TAGS, summary="Invite a user (owners, organisers)",
                   description="By username; the user accepts. 400 unknown_user; 409 already_member.",
                   request=InviteSerializer, responses={200: MembershipSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        body = read_body(InviteSerializer, request)
        return _membership_response(services.membership_invite(club_id=club.pk, user=request.user, **body))


class MembershipLeaveApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_memberships_leave", tags=TAGS, summary="Leave (or withdraw a request, decline "
                   "an invitation)", description="409 last_owner for the club's only owner; 409 no_membership.",
                   request=NoBodySerializer, responses={204: None, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        club = club_by_id(club_id)
        read_body(NoBodySerializer, request)
        services.membership_leave(club_id=club.pk, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class OwnerActionApi(ClubBaseApi):
    """An owner acts on one membership of the club: his right is checked before the body is read."""

    input_serializer = NoBodySerializer

    def act(self, request, club_id: int, membership_id: int, service):
        club = club_by_id(club_id)
        require_club_owner(club, request.user)
        body = read_body(self.input_serializer, request)
        result = service(club_id=club.pk, membership_id=membership_id, user=request.user, **body)
        if result is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return _membership_response(result)


def _owner_schema(name: str, summary: str, description: str, *, request=NoBodySerializer, removes: bool = False):
    responses = {204: None} if removes else {200: MembershipSerializer}
    return extend_schema(operation_id=f"clubs_memberships_{name}", tags=TAGS, summary=summary,
                         description=description, request=request, responses={**responses, **WRITE_ERRORS})


class MembershipApproveApi(OwnerActionApi):
    @_owner_schema("approve", "Approve a request to join (owners)", "409 not_pending for an invitation.")
    def post(self, request, club_id: int, membership_id: int):
        return self.act(request, club_id, membership_id, services.membership_approve)


class MembershipDeclineApi(OwnerActionApi):
    @_owner_schema("decline", "Decline a request or withdraw an invitation (owners)",
                   "The row is deleted. 409 not_pending for an active membership.", removes=True)
    def post(self, request, club_id: int, membership_id: int):
        return self.act(request, club_id, membership_id, services.membership_decline)


class MembershipRoleApi(OwnerActionApi):
    input_serializer = RoleSerializer

    @_owner_schema("role", "Change a member's role (owners)",
                   "owner, organiser or member. 409 last_owner: the club keeps one owner.", request=RoleSerializer)
    def post(self, request, club_id: int, membership_id: int):
        return self.act(request, club_id, membership_id, services.membership_role_change)


class MembershipRemoveApi(OwnerActionApi):
    @_owner_schema("remove", "Remove a member (owners)", "409 last_owner; 409 not_active for a request.",
                   removes=True)
    def post(self, request, club_id: int, membership_id: int):
        return self.act(request, club_id, membership_id, services.membership_remove)

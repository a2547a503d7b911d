"""API views of the clubs app: one class per operation (routes by method share a class, as in the
other apps). Each reads its body with a strict serializer, checks who reads (member-only objects:
:mod:`clubs.permissions`), calls one service or selector and answers with what a selector reads
back. The services check who acts, under the club's row lock.

Status codes: 200 (201 for a created club, season or night; 204 for a declined, removed or left
membership and a deleted season), 400 for a bad body (unknown or read-only field, wrong type,
unknown username, dates out of order), 401 anonymous on writes and member-only reads, 403 for
anyone the operation is not for (``not_club_member``, ``not_club_manager``, ``not_club_owner``),
404 unknown club, membership, season or night (another club's too), 405 wrong method, 409 when the
club's state forbids it (``last_owner``, ``already_member``, ``closed_to_requests``,
``night_closed``, ``name_taken``...). A repeated request, invitation, acceptance, approval,
check-in or close changes nothing and answers 200.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, Pagination, paginated_response

from .. import exports, selectors, services
from ..models import Club, Membership
from ..permissions import require_club_manager, require_club_member, require_club_owner
from .base import ClubBaseApi, read_body, require_member_reader
from .serializers import (
    CheckInInputSerializer,
    ClubCreateSerializer,
    ClubDetailSerializer,
    ClubSerializer,
    ClubUpdateSerializer,
    InviteSerializer,
    LadderSerializer,
    MembershipSerializer,
    NightBriefSerializer,
    NightOpenSerializer,
    NightSerializer,
    NoBodySerializer,
    RoleSerializer,
    SeasonInputSerializer,
    SeasonSerializer,
    SeasonUpdateSerializer,
)

TAGS = ["clubs"]
WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer,
}
MEMBER_READ_ERRORS = {401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer}
READ_ERRORS = {404: ApiErrorSerializer}
def club_by_id(club_id: int) -> Club:
    """The club ``club_id``, with its member count; raises Club.DoesNotExist, which a club's
    endpoint (:class:`~clubs.api.base.ClubBaseApi`) answers with a 404."""
    return selectors.club_get(club_id=club_id)



# --- clubs ----------------------------------------------------------------------------------------


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


# --- memberships ---------------------------------------------------------------------------------


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


# --- seasons and the ladder ------------------------------------------------------------------------


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


class FileApi(ClubBaseApi):
    """A file download: the file's type whatever the Accept header (errors stay JSON)."""

    def perform_content_negotiation(self, request, force=False):
        return super().perform_content_negotiation(request, force=True)


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


# --- nights ------------------------------------------------------------------------------------


def _night_response(club: Club, night_id: int, code: int = status.HTTP_200_OK) -> Response:
    night = selectors.night_get(club=club, night_id=night_id)
    return Response(NightSerializer(selectors.night_summary(night=night)).data, status=code)


class NightCollectionApi(ClubBaseApi):
    pagination_class = Pagination  # the schema shows the page, as the answer is
    @extend_schema(operation_id="clubs_nights_list", tags=TAGS, summary="The club's nights, newest first",
                   description="Public: date, title, status and how many checked in (the night itself is for members).",
                   responses={200: NightBriefSerializer(many=True), **READ_ERRORS})
    def get(self, request, club_id: int):
        return paginated_response(request=request, view=self, queryset=selectors.night_list(club=club_by_id(club_id)),
                                  serializer_class=NightBriefSerializer)

    @extend_schema(operation_id="clubs_nights_open", tags=TAGS, summary="Open a club night (owners, organisers)",
                   request=NightOpenSerializer, responses={201: NightSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        night = services.night_open(club_id=club.pk, user=request.user, **read_body(NightOpenSerializer, request))
        return _night_response(club, night.pk, status.HTTP_201_CREATED)


class NightDetailApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_nights_retrieve", tags=TAGS, summary="A night's summary (members)",
                   description="Check-ins, the night's matches with their results, its chouette sessions and each "
                               "player's net chouette result. Members only (it holds money amounts).",
                   responses={200: NightSerializer, **MEMBER_READ_ERRORS})
    def get(self, request, club_id: int, night_id: int):
        club = club_by_id(club_id)
        require_member_reader(club, request.user)
        return _night_response(club, night_id)


class NightCloseApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_nights_close", tags=TAGS, summary="Close the night (owners, organisers)",
                   description="No more check-ins. Closing again changes nothing.",
                   request=NoBodySerializer, responses={200: NightSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, night_id: int):
        club = club_by_id(club_id)
        require_club_manager(club, request.user)
        read_body(NoBodySerializer, request)
        services.night_close(club_id=club.pk, night_id=night_id, user=request.user)
        return _night_response(club, night_id)


class NightCheckInApi(ClubBaseApi):
    @extend_schema(operation_id="clubs_nights_check_in", tags=TAGS, summary="Check in to the night",
                   description="A member checks himself in (no body); owners and organisers check in a member by "
                               "``player``. 409 night_closed. Checking in twice changes nothing.",
                   request=CheckInInputSerializer, responses={200: NightSerializer, **WRITE_ERRORS})
    def post(self, request, club_id: int, night_id: int):
        club = club_by_id(club_id)
        require_club_member(club, request.user)
        body = read_body(CheckInInputSerializer, request)
        services.night_check_in(club_id=club.pk, night_id=night_id, user=request.user, player_id=body.get("player"))
        return _night_response(club, night_id)

"""API: teams, members, board orders and team match cards (see tournaments.api).

- ``GET /tournaments/{id}/teams/``: the event's teams (captain, members and reserves, board orders).
- ``POST /tournaments/{id}/teams/``: enter a team (the organiser; or the captain himself while
  entries are open): ``{"name", "captain_id", "member_ids", "reserve_ids"}``; 201 with the team.
- ``POST /tournaments/{id}/late-teams/``: the organiser enters a team after the draw (body as
  above); it takes the last seed, checked in, and enters where a late side would (see
  ``entries.team_add_late``); 201 with the team. A round robin or a full bracket: 409
  ``late_entry_closed``; before the draw: 409 ``not_drawn``.
- ``GET /tournaments/{id}/teams/{team_id}/``: one team.
- ``POST /tournaments/{id}/teams/{team_id}/members/``: the captain (or the organiser) adds a member
  or a reserve before the draw: ``{"player_id", "reserve"}``; 201 with the team.
- ``DELETE /tournaments/{id}/teams/{team_id}/members/{player_id}/``: the captain (or the organiser)
  removes a member or reserve (never the captain) before the draw; 200 with the team. The board
  orders naming him are dropped.
- ``POST /tournaments/{id}/teams/{team_id}/board-order/``: the captain (or the organiser) sets the
  team's order for a round: ``{"round_number", "player_ids"}`` (board 1 first); 200 with the team.
- ``GET /tournaments/{id}/team-matches/{pairing_id}/``: the team match card: each board's
  players, status, score and winner, and the team result.

Status codes: 400 bad body or bad input (``bad_board_order`` for a wrong count, ``not_a_member``
naming the player, ``team_too_small``, ``captain_required``...), 401 anonymous on writes, 403
``not_captain`` (another captain, a member, anyone else), 404 unknown tournament, team or team
match, 409 the state forbids it (``board_order_locked``, ``already_drawn``, ``entries_closed``,
``already_in_team``). Reads are public. Views only translate: the services check everything again
under the event's lock.
"""

from __future__ import annotations

from dataclasses import asdict

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.bounds import SMALLINT_MAX
from core.parsers import JSONParser
from matches.services.matches import player_for_user
from tournaments import errors
from tournaments.models import Pairing, Team, Tournament
from tournaments.selectors import event, teams
from tournaments.services import teams as team_services
from tournaments.services.common import require_organiser, runs
from tournaments.services.entries import team_add_late

TAGS = ["teams"]
WRITE_ERRORS = {status_code: ApiErrorSerializer for status_code in (400, 401, 403, 404, 409)}
READ_ERRORS = {404: ApiErrorSerializer}


# --- bodies --------------------------------------------------------------------------------------


class TeamCreateSerializer(StrictInputSerializer):
    name = serializers.CharField(max_length=120)
    captain_id = serializers.IntegerField(min_value=1)
    member_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False, default=list)
    reserve_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False, default=list)


class LateTeamSerializer(StrictInputSerializer):
    """A team entered after the draw: its name, captain, other members and reserves."""

    name = serializers.CharField(max_length=120)
    captain_id = serializers.IntegerField(min_value=1)
    member_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False, default=list)
    reserve_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False, default=list)


class TeamMemberSerializer(StrictInputSerializer):
    """A player joining a team before the draw: as a member, or as a reserve."""

    read_only_names = ("name", "captain")

    player_id = serializers.IntegerField(min_value=1)
    reserve = serializers.BooleanField(required=False, default=False)

    class Meta:
        ref_name = "TeamMemberAdd"


class BoardOrderSerializer(StrictInputSerializer):
    round_number = serializers.IntegerField(min_value=1, max_value=SMALLINT_MAX)
    player_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), help_text="board 1 first")


# --- answers (for the schema; the data is the selectors' dataclasses) ----------------------------


class TeamMemberOut(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    reserve = serializers.BooleanField()
    captain = serializers.BooleanField()


class BoardOrderOut(serializers.Serializer):
    round_number = serializers.IntegerField()
    players = serializers.ListField(child=serializers.ListField(), help_text="[player id, name], board 1 first")
    locked = serializers.BooleanField()


class TeamOut(serializers.Serializer):
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    entry_id = serializers.IntegerField(allow_null=True)
    entry_status = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    captain_id = serializers.IntegerField()
    captain = serializers.CharField()
    members = TeamMemberOut(many=True)
    board_orders = BoardOrderOut(many=True)


class TeamEntrantOut(serializers.Serializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


class BoardOut(serializers.Serializer):
    board = serializers.IntegerField()
    match_id = serializers.IntegerField()
    top_player = serializers.ListField(help_text="[player id, name] of the top team")
    bottom_player = serializers.ListField(help_text="[player id, name] of the bottom team")
    status = serializers.CharField()
    score = serializers.ListField(child=serializers.IntegerField(allow_null=True),
                                  help_text="[top, bottom]; [null, null] until the board has a result")
    winner = serializers.IntegerField(allow_null=True, help_text="the winning team's entry id")


class TeamMatchCardOut(serializers.Serializer):
    pairing_id = serializers.IntegerField()
    key = serializers.CharField()
    flight = serializers.CharField()
    round = serializers.IntegerField()
    length = serializers.IntegerField()
    top = TeamEntrantOut(allow_null=True)
    bottom = TeamEntrantOut(allow_null=True)
    boards = BoardOut(many=True)
    top_points = serializers.IntegerField(help_text="boards won by the top team")
    bottom_points = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True, help_text="the winning team's entry id; null while undecided")
    drawn = serializers.BooleanField()
    decided = serializers.BooleanField()


def _team_data(view: teams.TeamView) -> dict:
    return asdict(view)


def _entrant_data(entrant) -> dict | None:
    if entrant is None:
        return None
    return {"entry_id": entrant.entry_id, "name": entrant.name, "seed": entrant.seed, "status": entrant.status}


def _card_data(card: teams.TeamMatchCard) -> dict:
    data = asdict(card)
    data["top"], data["bottom"] = _entrant_data(card.top), _entrant_data(card.bottom)
    return data


# --- views ---------------------------------------------------------------------------------------


class TeamBaseApi(BaseApi):
    parser_classes = [JSONParser]

    def tournament(self, tournament_id: int) -> Tournament:
        try:
            return event.tournament_get(tournament_id)
        except Tournament.DoesNotExist:
            raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id}) from None

    def team(self, tournament: Tournament, team_id: int) -> teams.TeamView:
        try:
            return teams.team_get(tournament=tournament, team_id=team_id)
        except Team.DoesNotExist:
            raise NotFound(_("there is no team %(id)s in this tournament") % {"id": team_id}) from None

    def handle_exception(self, exc):
        if isinstance(exc, Tournament.DoesNotExist):
            exc = NotFound(f"there is no tournament {self.kwargs.get('tournament_id')}")
        return super().handle_exception(exc)

    def require_captain(self, tournament: Tournament, team: teams.TeamView, user) -> None:
        """The team's captain or the tournament's organiser (or staff), checked before the body is
        read: another captain learns nothing from his body's errors. Raises NotAllowed
        ``not_captain``; the service checks again under the event's lock."""
        player = player_for_user(user)
        if not runs(tournament, user) and (player is None or player.pk != team.captain_id):
            raise errors.not_captain()

    def get_permissions(self):
        write = self.request is not None and self.request.method not in SAFE_METHODS
        return [IsAuthenticated()] if write else [AllowAny()]


def _read(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class TeamCollectionApi(TeamBaseApi):
    @extend_schema(operation_id="teams_list", tags=TAGS, summary="The teams of a team event",
                   description="By name; each with its captain, members (players before reserves) and board orders.",
                   responses={200: TeamOut(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = self.tournament(tournament_id)
        return Response([_team_data(t) for t in teams.team_list(tournament=tournament)])

    @extend_schema(operation_id="teams_create", tags=TAGS, summary="Enter a team",
                   description="The organiser before the draw, or the captain himself while entries are open. The "
                               "team's entry is created with it (it must check in). At least board_count players.",
                   request=TeamCreateSerializer, responses={201: TeamOut, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = self.tournament(tournament_id)
        body = _read(TeamCreateSerializer, request)
        team = team_services.team_create(tournament_id=tournament.pk, user=request.user, **body)
        return Response(_team_data(self.team(tournament, team.pk)), status=status.HTTP_201_CREATED)


class LateTeamApi(TeamBaseApi):
    @extend_schema(operation_id="teams_late_create", tags=TAGS, summary="Enter a team late (after the draw)",
                   description="The organiser only. The team takes the last seed, checked in: a Swiss pairs it from "
                               "the next round on; a bracket places it into the first unused bye while nothing that "
                               "bye fed has started. 409 late_entry_closed for a round robin or a full bracket, "
                               "409 not_drawn before the draw.",
                   request=LateTeamSerializer, responses={201: TeamOut, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = self.tournament(tournament_id)
        # The object permission first: someone else's event tells him nothing about his body.
        require_organiser(tournament, request.user)
        body = _read(LateTeamSerializer, request)
        team = team_add_late(tournament_id=tournament.pk, user=request.user, **body)
        return Response(_team_data(self.team(tournament, team.pk)), status=status.HTTP_201_CREATED)


class TeamDetailApi(TeamBaseApi):
    @extend_schema(operation_id="teams_retrieve", tags=TAGS, summary="A team",
                   responses={200: TeamOut, **READ_ERRORS})
    def get(self, request, tournament_id: int, team_id: int):
        return Response(_team_data(self.team(self.tournament(tournament_id), team_id)))


class BoardOrderApi(TeamBaseApi):
    @extend_schema(operation_id="teams_board_order", tags=TAGS, summary="Set the team's board order for a round",
                   description="The team's captain (or the organiser): exactly board_count different players of the "
                               "team (reserves allowed), board 1 first. 403 not_captain for another captain; 409 "
                               "board_order_locked once the round has started for the team.",
                   request=BoardOrderSerializer, responses={200: TeamOut, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, team_id: int):
        tournament = self.tournament(tournament_id)
        team = self.team(tournament, team_id)
        self.require_captain(tournament, team, request.user)
        body = _read(BoardOrderSerializer, request)
        team_services.board_order_submit(tournament_id=tournament.pk, team_id=team.team_id, user=request.user,
                                         **body)
        return Response(_team_data(self.team(tournament, team.team_id)))


class TeamMemberAddApi(TeamBaseApi):
    @extend_schema(operation_id="teams_members_add", tags=TAGS, summary="Add a member or reserve to a team",
                   description="The team's captain (or the organiser), before the draw: the team list is fixed at "
                               "the draw (409 already_drawn; a reserve substitutes through the board order). 409 "
                               "already_in_team for a player already in a team of the event; 403 not_captain for "
                               "another captain.",
                   request=TeamMemberSerializer, responses={201: TeamOut, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, team_id: int):
        tournament = self.tournament(tournament_id)
        team = self.team(tournament, team_id)
        self.require_captain(tournament, team, request.user)
        body = _read(TeamMemberSerializer, request)
        team_services.team_member_add(tournament_id=tournament.pk, team_id=team.team_id, user=request.user, **body)
        return Response(_team_data(self.team(tournament, team.team_id)), status=status.HTTP_201_CREATED)


class TeamMemberRemoveApi(TeamBaseApi):
    @extend_schema(operation_id="teams_members_remove", tags=TAGS, summary="Remove a member or reserve from a team",
                   description="The team's captain (or the organiser), before the draw (409 already_drawn after "
                               "it). The captain stays (400 captain_required); the team keeps at least board_count "
                               "players (400 team_too_small); 400 not_a_member for a player not in the team. The "
                               "board orders that named him are dropped.",
                   request=None, responses={200: TeamOut, **WRITE_ERRORS})
    def delete(self, request, tournament_id: int, team_id: int, player_id: int):
        tournament = self.tournament(tournament_id)
        team = self.team(tournament, team_id)
        self.require_captain(tournament, team, request.user)
        team_services.team_member_remove(tournament_id=tournament.pk, team_id=team.team_id, user=request.user,
                                         player_id=player_id)
        return Response(_team_data(self.team(tournament, team.team_id)))


class TeamMatchCardApi(TeamBaseApi):
    @extend_schema(operation_id="teams_match_card", tags=TAGS, summary="A team match card",
                   description="Each board's players, status, score and winner, and the team result (boards won; "
                               "the winner once a team has a majority of boards).",
                   responses={200: TeamMatchCardOut, **READ_ERRORS})
    def get(self, request, tournament_id: int, pairing_id: int):
        tournament = self.tournament(tournament_id)
        try:
            card = teams.team_match_card(tournament=tournament, pairing_id=pairing_id)
        except Pairing.DoesNotExist:
            raise NotFound(_("there is no team match %(id)s in this tournament") % {"id": pairing_id}) from None
        return Response(_card_data(card))


urlpatterns = [
    path("tournaments/<int:tournament_id>/teams/", TeamCollectionApi.as_view(), name="api-tournament-teams"),
    path("tournaments/<int:tournament_id>/late-teams/", LateTeamApi.as_view(), name="api-tournament-late-teams"),
    path("tournaments/<int:tournament_id>/teams/<int:team_id>/", TeamDetailApi.as_view(), name="api-tournament-team"),
    path("tournaments/<int:tournament_id>/teams/<int:team_id>/members/", TeamMemberAddApi.as_view(),
         name="api-tournament-team-members"),
    path("tournaments/<int:tournament_id>/teams/<int:team_id>/members/<int:player_id>/", TeamMemberRemoveApi.as_view(),
         name="api-tournament-team-member"),
    path("tournaments/<int:tournament_id>/teams/<int:team_id>/board-order/", BoardOrderApi.as_view(),
         name="api-tournament-team-board-order"),
    path("tournaments/<int:tournament_id>/team-matches/<int:pairing_id>/", TeamMatchCardApi.as_view(),
         name="api-tournament-team-match"),
]

"""API: events, entries, draw, rounds, brackets, standings (see tournaments.api).

One view per operation; each checks who acts (``permissions``), reads the body with a strict
serializer, calls one service (or selector) and answers with what a selector reads back.

Status codes: 200 (201 for a created tournament or entry), 204 for an entry withdrawn before the
draw (it is removed), 400 for a bad body (unknown or read-only field, wrong type, unknown player
or entrant, rules that do not fit the format), 401 anonymous on writes, 403 for anyone the
operation is not for (another organiser, a player acting for someone else's entry), 404 unknown
tournament, 409 when the event's state forbids it (``already_drawn``, ``round_incomplete``,
``entries_closed``...). Reads are public.
"""

from __future__ import annotations

from django.core.cache import cache
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, Pagination, paginated_response
from core.parsers import JSONParser
from matches.services.matches import player_for_user
from tournaments import errors, selectors, services
from tournaments.models import Tournament
from tournaments.services import state

from . import permissions
from .serializers import (
    BracketSerializer,
    DrawInputSerializer,
    EntrantSerializer,
    EntryAddSerializer,
    LateEntrySerializer,
    MyNextMatchSerializer,
    NoBodySerializer,
    PlacingSerializer,
    RoundPairingsSerializer,
    SignUpSerializer,
    StandingSerializer,
    TeamStandingSerializer,
    TournamentCreateSerializer,
    TournamentFilterSerializer,
    TournamentSerializer,
)

TAGS = ["tournaments"]
WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer,
}
READ_ERRORS = {404: ApiErrorSerializer}


def _tournament_or_404(tournament_id: int) -> Tournament:
    try:
        return selectors.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(f"there is no tournament {tournament_id}") from None


def _entrant(tournament: Tournament, entry_id: int) -> selectors.Entrant:
    return next(e for e in selectors.entry_list(tournament=tournament) if e.entry_id == entry_id)


class TournamentBaseApi(BaseApi):
    """The tournaments API's views: JSON bodies; a tournament that vanished between the view's
    read and the service's lock (``Tournament.DoesNotExist``) is a 404 like any unknown one."""

    parser_classes = [JSONParser]

    def handle_exception(self, exc):
        if isinstance(exc, Tournament.DoesNotExist):
            exc = NotFound(f"there is no tournament {self.kwargs.get('tournament_id')}")
        return super().handle_exception(exc)


def _read_body(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer


# --- tournaments ------------------------------------------------------------------------------------


class TournamentListApi(TournamentBaseApi):
    permission_classes = [AllowAny]
    pagination_class = Pagination  # the schema shows the page, as the answer is

    @extend_schema(operation_id="tournaments_list", tags=TAGS, summary="Tournaments, newest start first",
                   description="Paginated; filter by status, organiser (user id) and club. A bad filter value is a "
                               "400 naming the filter.",
                   parameters=[TournamentFilterSerializer],
                   responses={200: TournamentSerializer(many=True), 400: ApiErrorSerializer})
    def get(self, request):
        filters = TournamentFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = filters.validated_data
        queryset = selectors.tournament_list(status=data.get("status"), organiser_id=data.get("organiser"),
                                             club_id=data.get("club"))
        return paginated_response(request=request, view=self, queryset=queryset, serializer_class=TournamentSerializer)


class TournamentCreateApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_create", tags=TAGS, summary="Create a tournament (organisers)",
                   description="The tournament starts in draft, run by the caller, with its published rules. "
                               "Rules a format does not read must stay at their defaults (400 bad_rules naming the "
                               "field).",
                   request=TournamentCreateSerializer, responses={201: TournamentSerializer, **WRITE_ERRORS})
    def post(self, request):
        permissions.check_may_create(request.user)
        body = _read_body(TournamentCreateSerializer, request)
        tournament = services.tournament_create(user=request.user, rules=body.rules())
        return Response(TournamentSerializer(_tournament_or_404(tournament.pk)).data, status=status.HTTP_201_CREATED)


class TournamentCollectionApi(TournamentListApi, TournamentCreateApi):
    """``/tournaments/`` routes by method: GET is :class:`TournamentListApi`, POST
    :class:`TournamentCreateApi` (Django routes by path only)."""

    def get_permissions(self):
        operation = TournamentCreateApi if self.request is not None and self.request.method == "POST" else TournamentListApi
        return [permission() for permission in operation.permission_classes]


class TournamentDetailApi(TournamentBaseApi):
    @extend_schema(operation_id="tournaments_retrieve", tags=TAGS, summary="A tournament with its published rules",
                   description="Its status, rules and, once drawn, the draw's recorded seed (random draws).",
                   responses={200: TournamentSerializer, **READ_ERRORS})
    def get(self, request, tournament_id: int):
        return Response(TournamentSerializer(_tournament_or_404(tournament_id)).data)


# --- organiser actions ------------------------------------------------------------------------------


class OrganiserActionApi(TournamentBaseApi):
    """An action only the event's organiser (or staff) takes; its body is refused if not empty
    (except the draw's seed). Answers with the tournament."""

    permission_classes = [IsAuthenticated]
    input_serializer = NoBodySerializer

    def act(self, request, tournament_id: int, service):
        tournament = _tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = _read_body(self.input_serializer, request)
        service(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(TournamentSerializer(_tournament_or_404(tournament.pk)).data)


def _action_schema(name: str, summary: str, description: str, request=None, responses=None):
    return extend_schema(operation_id=f"tournaments_{name}", tags=TAGS, summary=summary, description=description,
                         request=request, responses=responses or {200: TournamentSerializer, **WRITE_ERRORS})


class TournamentOpenApi(OrganiserActionApi):
    @_action_schema("open", "Open the entries", "From draft (or closed, before the draw): players may sign up.")
    def post(self, request, tournament_id: int):
        return self.act(request, tournament_id, services.tournament_open_entries)


class TournamentCloseApi(OrganiserActionApi):
    @_action_schema("close", "Close the entries", "Sign-ups stop and check-in starts.")
    def post(self, request, tournament_id: int):
        return self.act(request, tournament_id, services.tournament_close_entries)


class TournamentDrawApi(OrganiserActionApi):
    input_serializer = DrawInputSerializer

    @_action_schema("draw", "Make the draw",
                    "Entries must be closed; entrants not checked in drop out. A random draw uses ``seed`` (or a "
                    "fresh one) and publishes it as ``draw_seed``: the same entrants and seed give the same draw. "
                    "409 already_drawn the second time.", request=DrawInputSerializer)
    def post(self, request, tournament_id: int):
        return self.act(request, tournament_id, services.tournament_draw)


class TournamentPairNextRoundApi(OrganiserActionApi):
    @_action_schema("pair_next_round", "Pair the next Swiss round",
                    "From the confirmed results; 409 round_incomplete while a match of the current round has no "
                    "confirmed result. Answers with the new round's pairings.",
                    responses={200: RoundPairingsSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        _read_body(NoBodySerializer, request)
        paired = services.tournament_pair_next_round(tournament_id=tournament.pk, user=request.user)
        rounds = selectors.tournament_rounds(tournament=tournament)
        return Response(RoundPairingsSerializer(next(r for r in rounds if r.number == paired.number)).data)


class TournamentFinishApi(OrganiserActionApi):
    @_action_schema("finish", "Finish the tournament",
                    "Every match must be decided (409 event_unfinished says what is missing); placings are final.")
    def post(self, request, tournament_id: int):
        return self.act(request, tournament_id, services.tournament_finish)


# --- entries ------------------------------------------------------------------------------------------


class EntryListApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_entries_list", tags=TAGS, summary="The entrants",
                   description="By seed once drawn (those not in the draw last), else in entry order.",
                   responses={200: EntrantSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        return Response(EntrantSerializer(selectors.entry_list(tournament=tournament), many=True).data)


class EntryAddApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_create", tags=TAGS, summary="Enter a player or pair (organiser)",
                   description="Before the draw (after it: late-entries). The entry must still check in.",
                   request=EntryAddSerializer, responses={201: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = _read_body(EntryAddSerializer, request)
        entry = services.entry_add(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(_entrant(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


class EntryCollectionApi(EntryListApi, EntryAddApi):
    """``/tournaments/{id}/entries/``: GET is :class:`EntryListApi`, POST :class:`EntryAddApi`."""

    def get_permissions(self):
        operation = EntryAddApi if self.request is not None and self.request.method == "POST" else EntryListApi
        return [permission() for permission in operation.permission_classes]


class SignUpApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_sign_up", tags=TAGS, summary="Sign up (a player)",
                   description="While entries are open; a consultation-pairs event needs partner_id.",
                   request=SignUpSerializer, responses={201: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        body = _read_body(SignUpSerializer, request)
        entry = services.entry_sign_up(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(_entrant(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


class EntryCheckInApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_check_in", tags=TAGS, summary="Check an entry in",
                   description="The entrant's own player or the organiser, while entries are closed and before the "
                               "draw.", request=None, responses={200: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, entry_id: int):
        tournament = _tournament_or_404(tournament_id)
        _read_body(NoBodySerializer, request)
        services.entry_check_in(tournament_id=tournament.pk, entry_id=entry_id, user=request.user)
        return Response(EntrantSerializer(_entrant(tournament, entry_id)).data)


class EntryWithdrawApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_withdraw", tags=TAGS, summary="Withdraw an entry",
                   description="The entrant's own player or the organiser. Before the draw the entry is removed "
                               "(204); after it the entry is marked withdrawn and its open matches are forfeited.",
                   request=None, responses={200: EntrantSerializer, 204: None, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, entry_id: int):
        tournament = _tournament_or_404(tournament_id)
        _read_body(NoBodySerializer, request)
        entry = services.entry_withdraw(tournament_id=tournament.pk, entry_id=entry_id, user=request.user)
        if entry is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(EntrantSerializer(_entrant(tournament, entry.pk)).data)


class LateEntryApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_late_entries_create", tags=TAGS, summary="Add a late entrant (organiser)",
                   description="After the draw, as the last seed, checked in: a Swiss from the next round, a bracket "
                               "only into a bye; refused (409 late_entry_closed) with the reason otherwise.",
                   request=LateEntrySerializer, responses={201: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = _read_body(LateEntrySerializer, request)
        entry = services.entry_add_late(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(_entrant(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


# --- reads --------------------------------------------------------------------------------------------


class BracketApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_bracket", tags=TAGS, summary="The bracket, flight by flight",
                   description="Every match with its entrants, seeds, status, score, winner and match id. 409 "
                               "not_drawn before the draw, not_a_bracket for a Swiss or round robin (see rounds).",
                   responses={200: BracketSerializer, 404: ApiErrorSerializer, 409: ApiErrorSerializer})
    def get(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        if tournament.format not in state.BRACKET_FORMATS:
            raise errors.not_a_bracket()
        bracket = selectors.tournament_bracket(tournament=tournament)
        if bracket is None:
            raise errors.not_drawn()
        return Response(BracketSerializer(bracket).data)


class RoundsApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_rounds", tags=TAGS, summary="Swiss and round-robin rounds",
                   description="Each paired round's pairings and its bye; empty for a bracket or before the draw.",
                   responses={200: RoundPairingsSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        return Response(RoundPairingsSerializer(selectors.tournament_rounds(tournament=tournament), many=True).data)


# Bounds how long a renamed player or team can show under its old name in cached standings.
STANDINGS_CACHE_SECONDS = 300


class StandingsApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_standings", tags=TAGS, summary="Standings with tie-breaks",
                   description="Swiss: wins, Buchholz, median-Buchholz, head-to-head; round robin per group: wins, "
                               "head-to-head, points difference. A team event: team-match wins (a level match "
                               "half), then board points (boards won), then head-to-head; each row then carries "
                               "board_points and board_points_against. Empty for a bracket or before the draw.",
                   responses={200: StandingSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        # Standings are computed from the whole event; they only change with a new event version.
        # created_at keeps a restored or recreated database from meeting an old entry.
        key = f"api:standings:{tournament.pk}:{tournament.created_at.timestamp()}:{tournament.version}"
        data = cache.get(key)
        if data is None:
            if tournament.kind == Tournament.Kind.TEAMS:
                data = TeamStandingSerializer(selectors.team_standings(tournament=tournament), many=True).data
            else:
                data = StandingSerializer(selectors.tournament_standings(tournament=tournament), many=True).data
            cache.set(key, data, STANDINGS_CACHE_SECONDS)
        return Response(data)


class PlacingsApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_placings", tags=TAGS, summary="Final places decided so far",
                   description="Across flights for a bracket; by standings for a Swiss; by place in group for a "
                               "round robin. Shared places carry a label such as 5-8.",
                   responses={200: PlacingSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        return Response(PlacingSerializer(selectors.tournament_placings(tournament=tournament), many=True).data)


class MyNextMatchApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_my_next_match", tags=TAGS, summary="The caller's next match here",
                   description="The authenticated player's (or his pair's) next match; in a team event his "
                               "team's next team match (team_match_id), with his board once the round's board order "
                               "is known. next_match is null when he has nothing to play now (not in the draw, out, "
                               "between Swiss rounds).",
                   responses={200: MyNextMatchSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer,
                              404: ApiErrorSerializer})
    def get(self, request, tournament_id: int):
        tournament = _tournament_or_404(tournament_id)
        player = player_for_user(request.user)
        if player is None:
            raise errors.no_player()
        return Response(MyNextMatchSerializer(
            {"next_match": selectors.player_next_match(tournament=tournament, player=player)}).data)


urlpatterns = [
    path("tournaments/", TournamentCollectionApi.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/open/", TournamentOpenApi.as_view(), name="api-tournament-open"),
    path("tournaments/<int:tournament_id>/close/", TournamentCloseApi.as_view(), name="api-tournament-close"),
    path("tournaments/<int:tournament_id>/draw/", TournamentDrawApi.as_view(), name="api-tournament-draw"),
    path("tournaments/<int:tournament_id>/pair-next-round/", TournamentPairNextRoundApi.as_view(),
         name="api-tournament-pair-next-round"),
    path("tournaments/<int:tournament_id>/finish/", TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("tournaments/<int:tournament_id>/entries/", EntryCollectionApi.as_view(), name="api-tournament-entries"),
    path("tournaments/<int:tournament_id>/sign-up/", SignUpApi.as_view(), name="api-tournament-sign-up"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/check-in/", EntryCheckInApi.as_view(),
         name="api-tournament-entry-check-in"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/withdraw/", EntryWithdrawApi.as_view(),
         name="api-tournament-entry-withdraw"),
    path("tournaments/<int:tournament_id>/late-entries/", LateEntryApi.as_view(), name="api-tournament-late-entries"),
    path("tournaments/<int:tournament_id>/bracket/", BracketApi.as_view(), name="api-tournament-bracket"),
    path("tournaments/<int:tournament_id>/rounds/", RoundsApi.as_view(), name="api-tournament-rounds"),
    path("tournaments/<int:tournament_id>/standings/", StandingsApi.as_view(), name="api-tournament-standings"),
    path("tournaments/<int:tournament_id>/placings/", PlacingsApi.as_view(), name="api-tournament-placings"),
    path("tournaments/<int:tournament_id>/my-next-match/", MyNextMatchApi.as_view(), name="api-tournament-my-next-match"),
]

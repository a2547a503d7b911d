"""API: an event's draw as read: the bracket a page at a time, the Swiss and round-robin rounds,
the standings, the final placings and the caller's next match. Reads are public; the bracket and
rounds answer with an ETag (304 when the client's copy is current)."""

from __future__ import annotations

import hashlib

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from core.api import ApiErrorSerializer, Pagination
from core.cache import cached_answer, conditional_answer
from matches.services.matches import player_for_user
from tournaments import errors, formats
from tournaments.models import Tournament
from tournaments.selectors import brackets, next_match, standings
from tournaments.selectors import rounds as rounds_selectors

from .events import READ_ERRORS, TAGS, TournamentBaseApi, tournament_or_404
from .serializers.rounds import (
    BracketPageSerializer,
    BracketQuerySerializer,
    RoundPageSerializer,
    RoundQuerySerializer,
)
from .serializers.standings import MyNextMatchSerializer, PlacingSerializer, StandingSerializer, TeamStandingSerializer

# --- reads --------------------------------------------------------------------------------------------


class DrawPagination(Pagination):
    """A bracket's or a round's matches: 32 a page (a section of a bracket: 32, 16, 8... matches
    in the rounds after it), ``page_size`` up to 128."""

    page_size = 32
    max_page_size = 128


def _query(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class ETagApi(TournamentBaseApi):
    """A read answered with an ETag of its bytes, and 304 without them for a client that has them
    (``If-None-Match``)."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method != "GET" or response.status_code != 200 or not isinstance(response, Response):
            return response
        response.render()
        return conditional_answer(request, body=response.content, content_type=response["Content-Type"],
                                  response=response)


ETAG_NOTE = (" The answer carries an ETag: a request with If-None-Match naming it is answered 304 without a body "
             "while nothing shown has changed.")
NOT_MODIFIED = {304: OpenApiResponse(description="not modified: the client's copy (If-None-Match) is current")}


class BracketApi(ETagApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_bracket", tags=TAGS, summary="The bracket, by flight and round",
                   description="One page of the matches of one round of one flight (``flight``: the first flight "
                               "when left out; ``round``: 1 when left out; 32 matches a page, page_size up to 128), "
                               "each with its entrants, seeds, status, score, winner and match id, in bracket order "
                               "(where the rounds halve, page k of round r feeds page k of round r+1 at half the "
                               "page size). ``flights`` "
                               "summarises every flight: its rounds, their names, lengths and numbers of matches, its "
                               "source and champion. 400 for a flight or round the bracket does not have; 404 for a "
                               "page past the last; 409 not_drawn before the draw, not_a_bracket for a Swiss or round "
                               "robin (see rounds)." + ETAG_NOTE,
                   parameters=[BracketQuerySerializer],
                   responses={200: BracketPageSerializer, **NOT_MODIFIED, 400: ApiErrorSerializer,
                              404: ApiErrorSerializer, 409: ApiErrorSerializer})
    def get(self, request, tournament_id: int):
        query = _query(BracketQuerySerializer, request)
        tournament = tournament_or_404(tournament_id)
        formats.format_of(tournament).check_bracket()
        number = query.get("round", 1)
        paginator = DrawPagination()

        def pick(flight: str, round_number: int, count: int):
            return paginator.paginate_queryset(range(count), request, view=self)

        try:
            part = brackets.tournament_bracket_part(tournament=tournament, flight=query.get("flight"),
                                                     rounds=range(number, number + 1), pick=pick)
        except KeyError:
            raise ValidationError({"flight": [_("the bracket has no flight %(flight)s") % {
                "flight": query["flight"]}]}) from None
        if part is None:
            raise errors.not_drawn()
        [window] = part.windows
        if not window.rounds:
            last = len(next(f for f in part.flights if f.name == window.name).rounds)
            # Translators: %(flight)s is a flight's name (main, consolation), %(last)d its number of rounds.
            raise ValidationError({"round": [_("the flight %(flight)s has rounds 1 to %(last)d") % {
                "flight": window.name, "last": last}]})
        shown = window.rounds[0]
        data = BracketPageSerializer({
            "count": paginator.page.paginator.count, "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(), "tournament_id": part.tournament_id,
            "draw_seed": part.draw_seed, "finished": part.finished, "flights": part.flights, "flight": window.name,
            "round": shown.number, "round_name": shown.label, "round_kind": shown.name, "length": shown.length,
            "results": shown.matches,
        }).data
        return Response(data)


class RoundsApi(ETagApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_rounds", tags=TAGS, summary="A Swiss or round-robin round",
                   description="One page of the pairings of one round (``round``: the last paired round when left "
                               "out; 32 pairings a page, page_size up to 128), in board order, with the round's bye "
                               "and the list of paired rounds. Only the page's pairings are read. Nothing (round null) "
                               "for a bracket or before the draw; 404 for a round not paired or a page past the "
                               "last." + ETAG_NOTE,
                   parameters=[RoundQuerySerializer],
                   responses={200: RoundPageSerializer, **NOT_MODIFIED, 400: ApiErrorSerializer, **READ_ERRORS})
    def get(self, request, tournament_id: int):
        query = _query(RoundQuerySerializer, request)
        tournament = tournament_or_404(tournament_id)
        paginator = DrawPagination()
        picked = []

        def pick(count: int):
            picked.append(count)
            return paginator.paginate_queryset(range(count), request, view=self)

        page = rounds_selectors.tournament_round_page(tournament=tournament, number=query.get("round"), pick=pick)
        if "round" in query and query["round"] not in page.numbers:
            raise NotFound(_("round %(round)d is not paired") % {"round": query["round"]})
        links = {"count": 0, "next": None, "previous": None}
        if picked:
            links = {"count": page.count, "next": paginator.get_next_link(),
                     "previous": paginator.get_previous_link()}
        return Response(RoundPageSerializer({**links, "number": page.number, "numbers": page.numbers,
                                                     "bye": page.bye, "pairings": page.pairings}).data)


#: The line of an event's table, by its kind of entrant: a team's table counts boards as well.
STANDING_SERIALIZERS = {Tournament.Kind.INDIVIDUAL: StandingSerializer, Tournament.Kind.PAIRS: StandingSerializer,
                        Tournament.Kind.TEAMS: TeamStandingSerializer}


class StandingsApi(TournamentBaseApi):
    permission_classes = [AllowAny]
    pagination_class = Pagination  # the schema shows the page, as the answer is

    @extend_schema(operation_id="tournaments_standings", tags=TAGS, summary="Standings with tie-breaks",
                   description="Paginated (25 a page, page_size up to 100), best first. Swiss: wins, Buchholz, "
                               "median-Buchholz, head-to-head; round robin per group: wins, "
                               "head-to-head, points difference. A team event: team-match wins (a level match "
                               "half), then board points (boards won), then head-to-head; each row then carries "
                               "board_points and board_points_against. Entrants a later tie-break leaves level are "
                               "ranked again from the first, among themselves (their games against each other "
                               "decide); separated_by names the tie-break that put a row ahead of the next. Empty for "
                               "a bracket or before the draw. Each "
                               "page is kept as sent until the event changes (a confirmed result shows at once)."
                               + ETAG_NOTE,
                   responses={200: StandingSerializer(many=True), **NOT_MODIFIED, 400: ApiErrorSerializer,
                              **READ_ERRORS})
    def get(self, request, tournament_id: int):
        if not isinstance(request.accepted_renderer, JSONRenderer):
            return Response(self.page_data(request, tournament_or_404(tournament_id)))
        # A hit reads the event's version and the cached bytes, nothing else.
        try:
            event_key = standings.event_cache_key(tournament_id=tournament_id)
        except Tournament.DoesNotExist:
            raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id}) from None
        # The page's links name the host and the query: the whole address is part of the key.
        address = hashlib.blake2b(request.build_absolute_uri().encode(), digest_size=16).hexdigest()

        def render():
            # Should a change commit after the version was read, the rows answered (and kept under
            # the older key, which no later request asks for) are the newer ones: never stale.
            tournament = tournament_or_404(tournament_id)
            return JSONRenderer().render(self.page_data(request, tournament)), "application/json"

        return cached_answer(request, key=f"api:{event_key}:standings:{address}", render=render,
                             timeout=standings.STANDINGS_CACHE_SECONDS)

    def page_data(self, request, tournament: Tournament) -> dict:
        serializer = STANDING_SERIALIZERS[formats.format_of(tournament).kind]
        paginator = Pagination()
        rows = paginator.paginate_queryset(standings.event_standings_cached(tournament=tournament), request, view=self)
        return paginator.get_paginated_response(serializer(rows, many=True).data).data


class PlacingsApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_placings", tags=TAGS, summary="Final places decided so far",
                   description="Across flights for a bracket; by standings for a Swiss; by place in group for a "
                               "round robin. Shared places carry a label such as 5-8.",
                   responses={200: PlacingSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        return Response(PlacingSerializer(standings.tournament_placings(tournament=tournament), many=True).data)


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
        tournament = tournament_or_404(tournament_id)
        player = player_for_user(request.user)
        if player is None:
            raise errors.no_player()
        return Response(MyNextMatchSerializer(
            {"next_match": next_match.player_next_match(tournament=tournament, player=player)}).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/bracket/", BracketApi.as_view(), name="api-tournament-bracket"),
    path("tournaments/<int:tournament_id>/rounds/", RoundsApi.as_view(), name="api-tournament-rounds"),
    path("tournaments/<int:tournament_id>/standings/", StandingsApi.as_view(), name="api-tournament-standings"),
    path("tournaments/<int:tournament_id>/placings/", PlacingsApi.as_view(), name="api-tournament-placings"),
    path("tournaments/<int:tournament_id>/my-next-match/", MyNextMatchApi.as_view(), name="api-tournament-my-next-match"),
]

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

import hashlib
import uuid

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, Pagination, paginated_response
from core.cache import cached_answer, conditional_answer
from core.parsers import JSONParser
from matches.services.matches import player_for_user
from tournaments import errors, formats, services
from tournaments.models import Tournament
from tournaments.selectors import brackets, event, next_match, standings
from tournaments.selectors import rounds as rounds_selectors
from tournaments.services.acceptance import entry_accept

from . import permissions
from .serializers.entries import EntrantSerializer, EntryAddSerializer, LateEntrySerializer, SignUpSerializer
from .serializers.events import (
    NoBodySerializer,
    TournamentCancelSerializer,
    TournamentCreateSerializer,
    TournamentFilterSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)
from .serializers.rounds import (
    BracketPageSerializer,
    BracketQuerySerializer,
    DrawInputSerializer,
    RoundPageSerializer,
    RoundPairingsSerializer,
    RoundQuerySerializer,
)
from .serializers.standings import MyNextMatchSerializer, PlacingSerializer, StandingSerializer, TeamStandingSerializer

TAGS = ["tournaments"]
WRITE_ERRORS = {
    400: ApiErrorSerializer, 401: ApiErrorSerializer, 403: ApiErrorSerializer, 404: ApiErrorSerializer,
    409: ApiErrorSerializer,
}
READ_ERRORS = {404: ApiErrorSerializer}


def tournament_or_404(tournament_id: int) -> Tournament:
    """The tournament ``tournament_id`` as the event's endpoints read it; NotFound (a 404 saying
    there is no such tournament) for an unknown one."""
    try:
        return event.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id}) from None


def entrant_in(tournament: Tournament, entry_id: int) -> event.Entrant:
    """The entrant of entry ``entry_id`` as the event's entry list shows it (what an entry's
    endpoints answer with once they have changed it). The entry is one of the event's: the caller
    has just read or written it."""
    return next(e for e in event.entry_list(tournament=tournament) if e.entry_id == entry_id)


class TournamentBaseApi(BaseApi):
    """The tournaments API's views: JSON bodies; a tournament that vanished between the view's
    read and the service's lock (``Tournament.DoesNotExist``) is a 404 like any unknown one."""

    parser_classes = [JSONParser]

    def handle_exception(self, exc):
        if isinstance(exc, Tournament.DoesNotExist):
            exc = NotFound(f"there is no tournament {self.kwargs.get('tournament_id')}")
        return super().handle_exception(exc)


def body_serializer(serializer_class, request) -> serializers.Serializer:
    """The request's body in a ``serializer_class`` that has validated it (its ``validated_data``,
    or the methods the serializer offers such as ``rules()``); a 400 naming the field otherwise."""
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
        queryset = event.tournament_list(status=data.get("status"), organiser_id=data.get("organiser"),
                                             club_id=data.get("club"), viewer=request.user)
        return paginated_response(request=request, view=self, queryset=queryset, serializer_class=TournamentSerializer)


class TournamentCreateApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_create", tags=TAGS, summary="Create a tournament (organisers)",
                   description="The tournament starts in draft, run by the caller, with its published rules. "
                               "A club's owner without the organiser role creates one on his club's calendar only "
                               "(403 club_events_only otherwise). "
                               "Rules a format does not read must stay at their defaults (400 bad_rules naming the "
                               "field). With an Idempotency-Key header (a UUID), the same key sent again by the "
                               "same user answers the event it made, never a second one.",
                   parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
                                                description="a UUID: a repeated request makes no second event")],
                   request=TournamentCreateSerializer, responses={201: TournamentSerializer, **WRITE_ERRORS})
    def post(self, request):
        permissions.check_may_create(request.user)
        token = _idempotency_key(request)
        body = body_serializer(TournamentCreateSerializer, request)
        tournament = services.tournament_create(user=request.user, rules=body.rules(), token=token)
        return Response(TournamentSerializer(tournament_or_404(tournament.pk)).data, status=status.HTTP_201_CREATED)


def _idempotency_key(request) -> uuid.UUID | None:
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    try:
        return uuid.UUID(raw.strip())
    except ValueError:
        raise ValidationError({"Idempotency-Key": [_("a UUID, such as 3f2b8c1e-5d4a-4b6f-9e2d-7c1a0b9d8e6f")]}) from None


class TournamentCollectionApi(TournamentListApi, TournamentCreateApi):
    """``/tournaments/`` routes by method: GET is :class:`TournamentListApi`, POST
    :class:`TournamentCreateApi` (Django routes by path only)."""

    def get_permissions(self):
        operation = TournamentCreateApi if self.request is not None and self.request.method == "POST" else TournamentListApi
        return [permission() for permission in operation.permission_classes]


class TournamentDetailApi(TournamentBaseApi):
    """``/tournaments/{id}/``: GET is public (a draft: its organiser and staff only, 404 for
    others), PATCH and DELETE are the organiser's (or staff's)."""

    def get_permissions(self):
        if self.request is not None and self.request.method in ("PATCH", "DELETE"):
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(operation_id="tournaments_retrieve", tags=TAGS, summary="A tournament with its published rules",
                   description="Its status, rules and, once drawn, the draw's recorded seed (random draws).",
                   responses={200: TournamentSerializer, **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        if not event.may_see(tournament, request.user):  # a draft: its organiser's and staff's alone
            raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(operation_id="tournaments_partial_update", tags=TAGS, summary="Change a tournament's settings",
                   description="Only the settings sent. Until the event is finished or cancelled its name and dates; "
                               "before the draw every rule (the kind of entrants only while nobody is entered); "
                               "after it the match lengths of the rounds not begun. Anything else is refused with "
                               "409 not_editable naming the setting and why; rules that do not fit the format are 400 "
                               "bad_rules naming the field. Nothing is saved when refused.",
                   request=TournamentUpdateSerializer, responses={200: TournamentSerializer, **WRITE_ERRORS})
    def patch(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(TournamentUpdateSerializer, request)
        services.tournament_update(tournament_id=tournament.pk, user=request.user, changes=body.changes())
        return Response(TournamentSerializer(tournament_or_404(tournament.pk)).data)

    @extend_schema(operation_id="tournaments_destroy", tags=TAGS, summary="Delete a draft",
                   description="Only a draft nobody has entered (409 not_a_draft otherwise: cancel it instead; 409 "
                               "has_entrants).", request=None, responses={204: None, **WRITE_ERRORS})
    def delete(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body_serializer(NoBodySerializer, request)
        services.tournament_delete(tournament_id=tournament.pk, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- organiser actions ------------------------------------------------------------------------------


class OrganiserActionApi(TournamentBaseApi):
    """An action only the event's organiser (or staff) takes; its body is refused if not empty
    (except the draw's seed). Answers with the tournament."""

    permission_classes = [IsAuthenticated]
    input_serializer = NoBodySerializer

    def act(self, request, tournament_id: int, service):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(self.input_serializer, request)
        service(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(TournamentSerializer(tournament_or_404(tournament.pk)).data)


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
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body_serializer(NoBodySerializer, request)
        paired = services.tournament_pair_next_round(tournament_id=tournament.pk, user=request.user)
        rounds = rounds_selectors.tournament_rounds(tournament=tournament)
        return Response(RoundPairingsSerializer(next(r for r in rounds if r.number == paired.number)).data)


class TournamentCancelApi(OrganiserActionApi):
    input_serializer = TournamentCancelSerializer

    @_action_schema("cancel", "Cancel the tournament",
                    "With the reason, shown on its pages and emailed to every entrant in his language. Its matches "
                    "stay as they are (confirmed results stand) and its draw moves no more. Cancelling a cancelled "
                    "event changes nothing; 409 tournament_finished for a finished one.",
                    request=TournamentCancelSerializer)
    def post(self, request, tournament_id: int):
        return self.act(request, tournament_id, services.tournament_cancel)


class TournamentFinishApi(OrganiserActionApi):
    @_action_schema("finish", "Finish the tournament",
                    "Every match must be decided (409 event_unfinished says what is missing); placings are final.")
    def post(self, request, tournament_id: int):
        return self.act(request, tournament_id, services.tournament_finish)


# --- entries ------------------------------------------------------------------------------------------


class EntryListApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    pagination_class = Pagination  # the schema shows the page, as the answer is

    @extend_schema(operation_id="tournaments_entries_list", tags=TAGS, summary="The entrants",
                   description="Paginated (25 a page, page_size up to 100); by seed once drawn (those not in the "
                               "draw last), else in entry order. Only the page's entries are read.",
                   responses={200: EntrantSerializer(many=True), 400: ApiErrorSerializer, **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        paginator = Pagination()
        page = paginator.paginate_queryset(event.entry_queryset(tournament=tournament), request, view=self)
        return paginator.get_paginated_response(EntrantSerializer(event.entrants_of(page), many=True).data)


class EntryAddApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_create", tags=TAGS, summary="Enter a player or pair (organiser)",
                   description="Before the draw (after it: late-entries). The entry must still check in.",
                   request=EntryAddSerializer, responses={201: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(EntryAddSerializer, request)
        entry = services.entry_add(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(entrant_in(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


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
        tournament = tournament_or_404(tournament_id)
        body = body_serializer(SignUpSerializer, request)
        entry = services.entry_sign_up(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(entrant_in(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


class AcceptanceSerializer(serializers.Serializer):
    """A player's acceptance of an event (``tournaments.models.Acceptance``)."""

    tournament = serializers.IntegerField(source="tournament_id")
    player = serializers.IntegerField(source="player_id")
    how = serializers.CharField(help_text="signed_up, accepted, staff or earlier")
    accepted_at = serializers.DateTimeField(source="created_at")

    class Meta:
        ref_name = "TournamentAcceptance"


class AcceptApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_accept", tags=TAGS, summary="Accept your entry (a player)",
                   description="An organiser's entry of you is an invitation: accepting it puts the event's results "
                               "on your record (rating, page) from now on, its confirmed matches included. Accepting "
                               "twice changes nothing.",
                   request=None, responses={200: AcceptanceSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        body_serializer(NoBodySerializer, request)
        acceptance = entry_accept(tournament_id=tournament.pk, user=request.user)
        return Response(AcceptanceSerializer(acceptance).data)


class EntryCheckInApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_check_in", tags=TAGS, summary="Check an entry in",
                   description="The entrant's own player or the organiser, while entries are closed and before the "
                               "draw.", request=None, responses={200: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, entry_id: int):
        tournament = tournament_or_404(tournament_id)
        body_serializer(NoBodySerializer, request)
        services.entry_check_in(tournament_id=tournament.pk, entry_id=entry_id, user=request.user)
        return Response(EntrantSerializer(entrant_in(tournament, entry_id)).data)


class EntryWithdrawApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_entries_withdraw", tags=TAGS, summary="Withdraw an entry",
                   description="The entrant's own player or the organiser. Before the draw the entry is removed "
                               "(204); after it the entry is marked withdrawn and its open matches are forfeited.",
                   request=None, responses={200: EntrantSerializer, 204: None, **WRITE_ERRORS})
    def post(self, request, tournament_id: int, entry_id: int):
        tournament = tournament_or_404(tournament_id)
        body_serializer(NoBodySerializer, request)
        entry = services.entry_withdraw(tournament_id=tournament.pk, entry_id=entry_id, user=request.user)
        if entry is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(EntrantSerializer(entrant_in(tournament, entry.pk)).data)


class LateEntryApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_late_entries_create", tags=TAGS, summary="Add a late entrant (organiser)",
                   description="After the draw, as the last seed, checked in: a Swiss from the next round, a bracket "
                               "only into a bye; refused (409 late_entry_closed) with the reason otherwise.",
                   request=LateEntrySerializer, responses={201: EntrantSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body = body_serializer(LateEntrySerializer, request)
        entry = services.entry_add_late(tournament_id=tournament.pk, user=request.user, **body.validated_data)
        return Response(EntrantSerializer(entrant_in(tournament, entry.pk)).data, status=status.HTTP_201_CREATED)


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
    path("tournaments/", TournamentCollectionApi.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/open/", TournamentOpenApi.as_view(), name="api-tournament-open"),
    path("tournaments/<int:tournament_id>/close/", TournamentCloseApi.as_view(), name="api-tournament-close"),
    path("tournaments/<int:tournament_id>/draw/", TournamentDrawApi.as_view(), name="api-tournament-draw"),
    path("tournaments/<int:tournament_id>/pair-next-round/", TournamentPairNextRoundApi.as_view(),
         name="api-tournament-pair-next-round"),
    path("tournaments/<int:tournament_id>/finish/", TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("tournaments/<int:tournament_id>/cancel/", TournamentCancelApi.as_view(), name="api-tournament-cancel"),
    path("tournaments/<int:tournament_id>/entries/", EntryCollectionApi.as_view(), name="api-tournament-entries"),
    path("tournaments/<int:tournament_id>/sign-up/", SignUpApi.as_view(), name="api-tournament-sign-up"),
    path("tournaments/<int:tournament_id>/accept/", AcceptApi.as_view(), name="api-tournament-accept"),
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

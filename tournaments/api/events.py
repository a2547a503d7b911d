"""API: events and their organiser's actions (see tournaments.api), and what the event's other
endpoints share (``entries``, ``draws``: bracket, rounds, standings, placings, a player's next match).

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

import uuid

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, Pagination, paginated_response
from core.parsers import JSONParser
from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import event
from tournaments.selectors import rounds as rounds_selectors

from . import permissions
from .serializers.events import (
    NoBodySerializer,
    TournamentCancelSerializer,
    TournamentCreateSerializer,
    TournamentFilterSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)
from .serializers.rounds import (
    DrawInputSerializer,
    RoundPairingsSerializer,
)

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
]

"""API: an event's entries: the list, adding one, signing up, accepting an entry made for you,
checking in, withdrawing and late entries (see tournaments.api and ``events`` for the status codes)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, Pagination
from tournaments import services
from tournaments.selectors import event
from tournaments.services.acceptance import entry_accept

from . import permissions
from .events import READ_ERRORS, TAGS, WRITE_ERRORS, TournamentBaseApi, body_serializer, entrant_in, tournament_or_404
from .serializers.entries import EntrantSerializer, EntryAddSerializer, LateEntrySerializer, SignUpSerializer
from .serializers.events import (
    NoBodySerializer,
)

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


urlpatterns = [
    path("tournaments/<int:tournament_id>/entries/", EntryCollectionApi.as_view(), name="api-tournament-entries"),
    path("tournaments/<int:tournament_id>/sign-up/", SignUpApi.as_view(), name="api-tournament-sign-up"),
    path("tournaments/<int:tournament_id>/accept/", AcceptApi.as_view(), name="api-tournament-accept"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/check-in/", EntryCheckInApi.as_view(),
         name="api-tournament-entry-check-in"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/withdraw/", EntryWithdrawApi.as_view(),
         name="api-tournament-entry-withdraw"),
    path("tournaments/<int:tournament_id>/late-entries/", LateEntryApi.as_view(), name="api-tournament-late-entries"),
]

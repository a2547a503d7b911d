"""API: an ABT-style modified Swiss (``tournaments.services.playoffs``): who is
still in contention, and the playoffs once started; the director starts them."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from tournaments.models import Tournament
from tournaments.selectors.playoffs import tournament_contention
from tournaments.services.playoffs import tournament_playoffs_start

from . import permissions
from .events import READ_ERRORS, TAGS, WRITE_ERRORS, TournamentBaseApi, body_serializer, tournament_or_404
from .serializers.entries import EntrantSerializer
from .serializers.events import NoBodySerializer


class PlayoffMatchSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="the draw's id: playoffs-<round>-<n>")
    round = serializers.IntegerField(help_text="the playoffs' round, 1 first")
    rounds = serializers.IntegerField(help_text="the playoffs' rounds: the last is the final")
    top = EntrantSerializer(allow_null=True, help_text="null while still to be decided")
    bottom = EntrantSerializer(allow_null=True, help_text="null while still to be decided, or for a bye")
    bye = serializers.BooleanField(help_text="the top player goes through without playing")
    winner = EntrantSerializer(allow_null=True)
    length = serializers.IntegerField()
    match_id = serializers.IntegerField(allow_null=True, help_text="the match once both players are known")

    class Meta:
        ref_name = "TournamentPlayoffMatch"


class ContentionSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Swiss rounds paired so far")
    rounds = serializers.IntegerField(help_text="the Swiss rounds published")
    complete = serializers.BooleanField(help_text="the last round paired has all its results")
    paid = serializers.IntegerField(help_text="the paid places counted")
    can_win = EntrantSerializer(many=True, help_text="who can still win (no one already has more wins than they "
                                                     "can reach)")
    cash_only = EntrantSerializer(many=True, help_text="who can still cash but no longer win")
    out = serializers.IntegerField(help_text="how many are out of the money")
    due = serializers.BooleanField(help_text="the round is over and no more can cash than are paid: the playoffs "
                                             "start")
    started = serializers.BooleanField()
    stopped_after = serializers.IntegerField(allow_null=True, help_text="the last Swiss round, once stopped")
    seeds = EntrantSerializer(many=True, help_text="the playoffs' players, best seed first")
    stopped_cash_only = EntrantSerializer(many=True, help_text="who could still cash but no longer win when the "
                                                               "Swiss stopped")
    matches = PlayoffMatchSerializer(many=True)
    champion = EntrantSerializer(allow_null=True, help_text="the playoffs' winner once decided")

    class Meta:
        ref_name = "TournamentContention"


def _contention_or_404(tournament: Tournament):
    found = tournament_contention(tournament=tournament)
    if found is None:
        raise NotFound(_("this event is not a modified Swiss with playoffs, or is not drawn yet"))
    return found


class ContentionApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_contention", tags=TAGS, summary="Who is still in contention",
                   description="An ABT-style modified Swiss (abt_playoffs): after each round, who can still win, "
                               "who can still cash but no longer win, and how many are out of the money (a match "
                               "still to play counts as one the player may win); once no more can cash than there "
                               "are paid places the Swiss stops and they play single-elimination playoffs, seeded "
                               "by the Swiss table (three players: the USBGF's contingent bye into the final for the "
                               "best placed of those with the fewest byes, who is third if he loses it). 404 "
                               "for any other event or before the draw.",
                   responses={200: ContentionSerializer, **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        return Response(ContentionSerializer(_contention_or_404(tournament)).data)


class PlayoffsStartApi(TournamentBaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_playoffs_start", tags=TAGS, summary="Start the playoffs (organiser)",
                   description="Stops a modified Swiss whose round is over and draws its playoffs among the players "
                               "who can still cash (what the round's last confirmation does by itself). 409 "
                               "not_time_for_playoffs while more can cash than are paid, round_incomplete, "
                               "playoffs_started, abt_off, not_swiss. Answers with the contention and the playoffs.",
                   request=NoBodySerializer, responses={200: ContentionSerializer, **WRITE_ERRORS})
    def post(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        permissions.check_runs(tournament, request.user)
        body_serializer(NoBodySerializer, request)
        tournament_playoffs_start(tournament_id=tournament.pk, user=request.user)
        return Response(ContentionSerializer(_contention_or_404(tournament_or_404(tournament.pk))).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/contention/", ContentionApi.as_view(), name="api-tournament-contention"),
    path("tournaments/<int:tournament_id>/playoffs/", PlayoffsStartApi.as_view(), name="api-tournament-playoffs"),
]

"""API: an event's paid places (see tournaments.api): each paying flight's pool,
the share and amount of each paid place, and the prize winners decided so far."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from tournaments.selectors.payouts import tournament_payouts

from .events import READ_ERRORS, TAGS, TournamentBaseApi, tournament_or_404
from .serializers.entries import EntrantSerializer


class PaidPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    percent = serializers.DecimalField(max_digits=5, decimal_places=2, coerce_to_string=True,
                                       help_text="the place's share of the flight's pool")
    amount = serializers.IntegerField(help_text="in cents (the pool's minor unit)")

    class Meta:
        ref_name = "TournamentPaidPlace"


class PrizeSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="the place in the flight, 3-4 when shared")
    entrant = EntrantSerializer()
    percent = serializers.DecimalField(max_digits=5, decimal_places=2, coerce_to_string=True,
                                       help_text="his share of the pool (a tie shares its places' shares)")
    amount = serializers.IntegerField(help_text="in cents; the cents a tie cannot split go to its best seeds")

    class Meta:
        ref_name = "TournamentPrize"


class FlightPayoutsSerializer(serializers.Serializer):
    flight = serializers.CharField(help_text="main, consolation or last_chance (a Swiss or round robin: main)")
    pool = serializers.IntegerField(help_text="the flight's prize pool in cents")
    places = PaidPlaceSerializer(many=True)
    prizes = PrizeSerializer(many=True, help_text="the prizes decided so far, best first")

    class Meta:
        ref_name = "TournamentFlightPayouts"


class PayoutsApi(TournamentBaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_payouts", tags=TAGS, summary="Paid places and prizes",
                   description="Each paying flight's pool and paid places (percentages of the pool, best first), "
                               "and the prizes its placings have won so far: players sharing places share their "
                               "percentages. The playoff for 2nd is paid from the main flight's pool.",
                   responses={200: FlightPayoutsSerializer(many=True), **READ_ERRORS})
    def get(self, request, tournament_id: int):
        tournament = tournament_or_404(tournament_id)
        return Response(FlightPayoutsSerializer(tournament_payouts(tournament=tournament), many=True).data)


urlpatterns = [
    path("tournaments/<int:tournament_id>/payouts/", PayoutsApi.as_view(), name="api-tournament-payouts"),
]

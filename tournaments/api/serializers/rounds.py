"""Serializers of an event's draw and rounds: the draw's seed (input); a match of the draw, a page of
a bracket's round, a page of a Swiss or round-robin round and their queries."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import StrictInputSerializer
from matches.api.serializers import SCORE_SCHEMA
from tournaments.services.draw import MAX_SEED

from .entries import EntrantSerializer
from .events import TOURNAMENT_READ_ONLY

# --- input --------------------------------------------------------------------------------------


class DrawInputSerializer(StrictInputSerializer):
    read_only_names = TOURNAMENT_READ_ONLY

    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED,
                                    help_text="the random seed of a random draw (default: a fresh one, published)")

    class Meta:
        ref_name = "TournamentDraw"


# --- output -------------------------------------------------------------------------------------


class PairingSerializer(serializers.Serializer):
    """A match of the draw (``tournaments.selectors.pairings.PairingView``)."""

    key = serializers.CharField(help_text="the draw's id, e.g. main-2-3 or swiss-4-7")
    flight = serializers.CharField()
    round = serializers.IntegerField()
    length = serializers.IntegerField()
    top = EntrantSerializer(allow_null=True)
    bottom = EntrantSerializer(allow_null=True)
    status = serializers.CharField(help_text="the match's status, or waiting, bye, walkover, not_needed")
    match_id = serializers.IntegerField(allow_null=True)
    score = serializers.SerializerMethodField(help_text="the confirmed score, top's first")
    winner = serializers.IntegerField(allow_null=True, help_text="the winning entry id")
    top_bye = serializers.BooleanField()
    bottom_bye = serializers.BooleanField()
    top_from = serializers.CharField(allow_null=True, help_text="where an unknown top comes from")
    bottom_from = serializers.CharField(allow_null=True)
    pairing_id = serializers.IntegerField(allow_null=True, help_text="a team event: the team match (its card)")
    table = serializers.CharField(help_text="the table it is played at, as the director labels it; empty when not "
                                            "assigned (a round with tables lists its matches by table)")
    handicap = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2,
                                     help_text="the handicap start between divisions, top first: [0, 1] when the "
                                               "bottom starts 1-0; [0, 0] without one")

    class Meta:
        ref_name = "TournamentPairing"

    @extend_schema_field({**SCORE_SCHEMA, "nullable": True})
    def get_score(self, pairing) -> list[int] | None:
        return list(pairing.score) if pairing.score is not None else None


class PageLinksSerializer(serializers.Serializer):
    """The page's place among the others, as DRF's paginated lists give it."""

    count = serializers.IntegerField(help_text="how many items there are in all (matches of the round, entrants...)")
    next = serializers.URLField(allow_null=True, help_text="the next page, null on the last")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, null on the first")


ROUND_KIND_HELP = ("the round's name as a value, the same in every language: final, semi_final, quarter_final, "
                   "round_of (number 16), round (number), winners_round, losers_round (number), winners_final, "
                   "winners_semi_final, winners_quarter_final, losers_final, grand_final, "
                   "reset (the grand final's second match, played only if the losers' bracket winner wins the first)")


class RoundKindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    number = serializers.IntegerField(help_text="the number the kind carries (losers_round 2, round_of 16); 0: none")

    class Meta:
        ref_name = "TournamentRoundKind"


class BracketRoundSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    length = serializers.IntegerField()
    match_count = serializers.IntegerField(help_text="how many matches the round has")
    name = serializers.CharField(source="label", help_text="the round's name in the request's language: Final, "
                                                           "Losers' round 2, Grand final...")
    short_name = serializers.CharField(source="short_label", help_text="the round's name for tight places: F, L2, GF")
    kind = RoundKindSerializer(source="name", allow_null=True, help_text=ROUND_KIND_HELP)

    class Meta:
        ref_name = "TournamentBracketRoundSummary"


class FlightSummarySerializer(serializers.Serializer):
    name = serializers.CharField()
    rounds = BracketRoundSummarySerializer(many=True)
    source = serializers.CharField(allow_null=True, help_text="the flight whose losers feed this one")
    fed_rounds = serializers.ListField(child=serializers.IntegerField())
    champion = EntrantSerializer(allow_null=True)

    class Meta:
        ref_name = "TournamentFlightSummary"


class BracketPageSerializer(PageLinksSerializer):
    """One page of the matches of one round of one flight (``tournaments.selectors.brackets.BracketPart``),
    with every flight summarised."""

    tournament_id = serializers.IntegerField()
    draw_seed = serializers.IntegerField(allow_null=True)
    finished = serializers.BooleanField()
    flights = FlightSummarySerializer(many=True, help_text="every flight, its rounds without their matches")
    flight = serializers.CharField(help_text="the flight shown")
    round = serializers.IntegerField(help_text="the round shown")
    round_name = serializers.CharField(help_text="the round's name in the request's language: Final, Losers' round 2, "
                                                 "Grand final...")
    round_kind = RoundKindSerializer(allow_null=True, help_text=ROUND_KIND_HELP)
    length = serializers.IntegerField(help_text="the round's match length")
    results = PairingSerializer(many=True, help_text="the page's matches, in bracket order")

    class Meta:
        ref_name = "TournamentBracketPage"


class BracketQuerySerializer(StrictInputSerializer):
    allowed_extra = ("format",)

    flight = serializers.CharField(required=False, max_length=24, help_text="a flight of the bracket; the first one "
                                                                            "(main or winners) when left out")
    round = serializers.IntegerField(required=False, min_value=1, max_value=64, help_text="a round of the flight; 1 "
                                                                                          "when left out")
    page = serializers.IntegerField(required=False, min_value=1, help_text="from 1")
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=128, help_text="32 when left out")

    class Meta:
        ref_name = "TournamentBracketQuery"


class RoundPageSerializer(PageLinksSerializer):
    """One page of one Swiss or round-robin round (``tournaments.selectors.rounds.RoundPage``)."""

    round = serializers.IntegerField(allow_null=True, source="number",
                                     help_text="the round shown; null before the first round is paired")
    rounds = serializers.ListField(child=serializers.IntegerField(), source="numbers",
                                   help_text="every paired round")
    bye = EntrantSerializer(allow_null=True, help_text="the round's bye (a Swiss)")
    results = PairingSerializer(many=True, source="pairings", help_text="the page's pairings, in board order")

    class Meta:
        ref_name = "TournamentRoundPage"


class RoundQuerySerializer(StrictInputSerializer):
    allowed_extra = ("format",)

    round = serializers.IntegerField(required=False, min_value=1, max_value=1000,
                                     help_text="a paired round; the last paired round when left out")
    page = serializers.IntegerField(required=False, min_value=1, help_text="from 1")
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=128, help_text="32 when left out")

    class Meta:
        ref_name = "TournamentRoundQuery"


class RoundPairingsSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    pairings = PairingSerializer(many=True)
    bye = EntrantSerializer(allow_null=True)

    class Meta:
        ref_name = "TournamentRound"

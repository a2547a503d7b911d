"""Serializers of the tournaments API's events, entries, draw and reads (``tournaments.api.events``).

Input serializers derive from the matches API's :class:`StrictInputSerializer`: a key the
serializer does not declare is refused with a 400 naming it ("unknown field", or "this field is
read-only" for what a client sees but never sets: ``status``, ``draw_seed``...). The services check
the rules themselves (``bad_rules`` naming the field: a new event's rules are checked by
``EventRules``, which :meth:`TournamentCreateSerializer.rules` builds); these only check shapes and
types.

Output serializers render the selectors' frozen dataclasses (``tournaments.selectors.event``) and the
Tournament row; none exposes an email address.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import PlainOutput, StrictInputSerializer
from matches.api.serializers import SCORE_SCHEMA, ClubBriefSerializer
from tournaments.draw.standings import FIDE_TIEBREAKS, TIEBREAKS
from tournaments.labels import RULE_LABELS
from tournaments.models import Tournament
from tournaments.services.draw import MAX_SEED
from tournaments.services.events import MAX_LENGTH, EventRules, rule_bounds

# --- input --------------------------------------------------------------------------------------

TOURNAMENT_READ_ONLY = ("id", "status", "draw_seed", "drawn_at", "organiser", "created_at", "entries", "rounds")


class TournamentFilterSerializer(StrictInputSerializer):
    allowed_extra = ("page", "page_size", "format")

    status = serializers.ChoiceField(required=False, choices=Tournament.Status.choices)
    organiser = serializers.IntegerField(required=False, min_value=1, help_text="the organiser's user id")
    club = serializers.IntegerField(required=False, min_value=1, help_text="a club id")

    class Meta:
        ref_name = "TournamentFilter"


LENGTH = {"type": "integer", "minimum": 1, "maximum": MAX_LENGTH}


@extend_schema_field({
    "type": "object", "additionalProperties": {"oneOf": [LENGTH, {"type": "array", "items": LENGTH, "minItems": 1}]},
    "example": {"main": [5, 5, 7, 9], "consolation": 3},
    "description": "match length per flight and round; Swiss and round robin use \"rounds\"",
})
class LengthsField(serializers.JSONField):
    """The published lengths as sent; ``tournament_create`` checks them, naming the flight."""


# --- divisions and handicaps ---
DIVISION_SCHEMA = {
    "type": "object", "required": ["name"], "additionalProperties": False,
    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 40},
                   "min_rating": {"type": "number", "nullable": True, "description": "included; null: no bound"},
                   "max_rating": {"type": "number", "nullable": True, "description": "excluded; null: no bound"}},
}
HANDICAP_SCHEMA = {
    "type": "object", "required": ["division", "against", "length", "points"], "additionalProperties": False,
    "properties": {"division": {"type": "string", "description": "the division that starts ahead"},
                   "against": {"type": "string"}, "length": LENGTH,
                   "points": {"type": "integer", "minimum": 1, "description": "less than the length"}},
}


@extend_schema_field({
    "type": "array", "items": DIVISION_SCHEMA, "maxItems": 10,
    "example": [{"name": "Open"}, {"name": "Intermediate", "max_rating": 1650}, {"name": "Novice", "max_rating": 1500}],
    "description": "the divisions, strongest first (empty: none); a player may play in one whose rating range holds "
                   "his rating, and is placed in the weakest of them when he names none",
})
class DivisionsField(serializers.JSONField):
    """The divisions as sent; ``EventRules`` checks them, naming the value."""


@extend_schema_field({
    "type": "array", "items": HANDICAP_SCHEMA, "nullable": True,
    "example": [{"division": "Intermediate", "against": "Open", "length": 7, "points": 1}],
    "description": "handicap starts between divisions: a player of division starts a match of length points "
                   "points ahead of one of against; null: the default table (an Intermediate starts 1-0 against an "
                   "Open player at 7 points, a Novice 1-0 against an Intermediate and 2-0 against an Open player)",
})
class HandicapsField(serializers.JSONField):
    """The handicap table as sent; ``EventRules`` checks it, naming the row and field."""
# --- end divisions ---
# --- paid places per flight ---
PERCENT = {"type": "number", "minimum": 0.01, "maximum": 100}


@extend_schema_field({
    "type": "object",
    "additionalProperties": {
        "type": "object", "required": ["percentages"], "additionalProperties": False,
        "properties": {"pool": {"type": "integer", "minimum": 0, "description": "the flight's prize pool in cents"},
                       "percentages": {"type": "array", "items": PERCENT, "minItems": 1,
                                       "description": "each paid place's share, best place first: summing to 100, "
                                                      "never increasing"}},
    },
    "example": {"main": {"pool": 100000, "percentages": [50, 30, 10, 10]}, "consolation": {"pool": 20000,
                                                                                           "percentages": [70, 30]}},
    "description": "paid places per flight (a single elimination's main, consolation, last_chance; other formats: main)",
})
class PayoutsField(serializers.JSONField):
    """The paid places as sent; ``EventRules`` checks them, naming the flight and the place."""
# --- end of paid places ---


class TournamentCreateSerializer(StrictInputSerializer):
    """A new tournament's published rules (every rule optional except the name). Each field is
    labelled as the event form labels it (an error's ``detail`` names it so)."""

    read_only_names = TOURNAMENT_READ_ONLY

    def get_fields(self):
        fields = super().get_fields()
        for name, field in fields.items():
            if field.label is None and name in RULE_LABELS:
                field.label = RULE_LABELS[name]
        return fields

    name = serializers.CharField(max_length=200)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.SINGLE_ELIMINATION)
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices, default=Tournament.Kind.INDIVIDUAL)
    club = serializers.IntegerField(required=False, allow_null=True, min_value=1, help_text="a club id")
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    lengths = LengthsField(required=False)
    consolation_rounds = serializers.IntegerField(required=False, **rule_bounds("consolation_rounds"))
    last_chance = serializers.BooleanField(required=False)
    swiss_rounds = serializers.IntegerField(required=False, allow_null=True, **rule_bounds("swiss_rounds"))
    max_losses = serializers.IntegerField(required=False, allow_null=True, **rule_bounds("max_losses"))
    groups = serializers.IntegerField(required=False, **rule_bounds("groups"))
    forbid_same_club = serializers.BooleanField(required=False)
    crawford = serializers.BooleanField(required=False)
    move_policy = serializers.ChoiceField(choices=[("legal", "Legal moves"), ("responsible", "Responsible moves")],
                                          required=False)
    premature_roll = serializers.ChoiceField(choices=Tournament.PrematureRoll.choices, required=False)
    clock_seconds_per_point = serializers.IntegerField(required=False, allow_null=True, **rule_bounds("clock_seconds_per_point"))
    penalty_minutes_per_point = serializers.IntegerField(required=False, **rule_bounds("penalty_minutes_per_point"))
    seeding = serializers.ChoiceField(choices=Tournament.Seeding.choices, required=False)
    board_count = serializers.IntegerField(required=False, **rule_bounds("board_count"))
    # divisions and handicaps
    divisions = DivisionsField(required=False)
    handicaps = HandicapsField(required=False, allow_null=True)
    # clocks
    clock_policy = serializers.ChoiceField(
        choices=Tournament.ClockPolicy.choices, required=False,
        help_text="none, allowed, preferred or required; omitted: required when clock_seconds_per_point is given")
    clock_delay_seconds = serializers.IntegerField(required=False, **rule_bounds("clock_delay_seconds"))
    clock_doubling = serializers.BooleanField(required=False, help_text="the doubling variant's longer reserve and delay")
    clock_doubling_seconds_per_point = serializers.IntegerField(required=False,
                                                                **rule_bounds("clock_doubling_seconds_per_point"))
    clock_doubling_delay_seconds = serializers.IntegerField(required=False, **rule_bounds("clock_doubling_delay_seconds"))
    clock_overtime_seconds = serializers.IntegerField(required=False, help_text="0: no overtime",
                                                      **rule_bounds("clock_overtime_seconds"))
    # --- the flights directors use, and paid places ---
    consolation_shifted = serializers.BooleanField(
        required=False, help_text="a shifted progressive consolation: later losers enter sooner, it ends 1-2 rounds sooner")
    playoff_second = serializers.BooleanField(
        required=False, help_text="the main final's loser plays the consolation's winner for 2nd")
    last_chance_open = serializers.BooleanField(
        required=False, help_text="a last-chance flight open to everyone who goes out without cashing")
    payouts = PayoutsField(required=False)
    reentries = serializers.IntegerField(
        required=False, **rule_bounds("reentries"),
        help_text="re-entries (buy-backs) into the main a first-round loser may make while its first round is open: "
                  "0 or 1 (single elimination without a consolation or last chance)")
    # --- end of flights and paid places ---
    # how a Swiss is paired and its table ordered, and the order of a round robin's rounds
    swiss_pairing = serializers.ChoiceField(choices=Tournament.SwissPairing.choices, required=False)
    swiss_tiebreaks = serializers.ChoiceField(choices=Tournament.SwissTiebreaks.choices, required=False)
    round_robin_order = serializers.ChoiceField(choices=Tournament.RoundRobinOrder.choices, required=False)
    # the ABT-style modified Swiss
    abt_playoffs = serializers.BooleanField(
        required=False, help_text="an ABT-style modified Swiss: once a round ends with no more players able to cash "
                                  "than the paid places, the Swiss stops and they play single-elimination playoffs")
    abt_paid_places = serializers.IntegerField(
        required=False, allow_null=True, help_text="the paid places the move to playoffs counts; null: the main "
                                                   "flight's paid places (payouts)", **rule_bounds("abt_paid_places"))
    # how deep GNU Backgammon analyses the event's matches
    analysis_plies = serializers.IntegerField(required=False, min_value=0, max_value=2,
                                              help_text="how deep GNU Backgammon analyses the event's matches: 0, 1 "
                                                        "or 2 plies (default 2)")

    class Meta:
        ref_name = "TournamentCreate"

    def rules(self) -> EventRules:
        """The validated body as the event's rules (``tournament_create``'s; a rule not sent keeps
        its default). Raises DomainError ``bad_rules`` naming the field."""
        data = dict(self.validated_data)
        if "club" in data:
            data["club_id"] = data.pop("club")
        return EventRules(**data)


class TournamentUpdateSerializer(TournamentCreateSerializer):
    """The settings to change (PATCH: only those sent). What may change now is the service's rule
    (``tournaments.services.life.edit_refusal``: 409 not_editable naming the setting and why).
    The club is not changed here."""

    read_only_names = (*TOURNAMENT_READ_ONLY, "club", "cancel_reason")

    name = serializers.CharField(max_length=200, required=False)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices, required=False)
    club = None

    class Meta:
        ref_name = "TournamentUpdate"

    def changes(self) -> dict:
        return dict(self.validated_data)


class TournamentCancelSerializer(StrictInputSerializer):
    read_only_names = TOURNAMENT_READ_ONLY

    reason = serializers.CharField(max_length=1000, help_text="why the event is cancelled: shown on its pages and "
                                                              "emailed to every entrant")

    class Meta:
        ref_name = "TournamentCancel"


class NoBodySerializer(StrictInputSerializer):
    """An action without parameters: any key sent is refused (a read-only name as such)."""

    read_only_names = (*TOURNAMENT_READ_ONLY, "seed", "late", "player", "players")

    class Meta:
        ref_name = "TournamentNoBody"


class DrawInputSerializer(StrictInputSerializer):
    read_only_names = TOURNAMENT_READ_ONLY

    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED,
                                    help_text="the random seed of a random draw (default: a fresh one, published)")

    class Meta:
        ref_name = "TournamentDraw"


class EntryAddSerializer(StrictInputSerializer):
    """The organiser enters a player (or a pair) before the draw."""

    read_only_names = ("id", "entry_id", "status", "late", "name", "players")

    player_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=2,
                                       help_text="one player id, or two for a consultation pair")
    rolls = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                     help_text="a pair: the member who always rolls; null: alternate by game")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    help_text="the organiser's seed (events seeded by the organiser)")
    division = serializers.CharField(required=False, allow_null=True, max_length=40,
                                     help_text="an event with divisions: any of its divisions; else placed by "
                                               "rating")

    class Meta:
        ref_name = "TournamentEntryAdd"


class LateEntrySerializer(StrictInputSerializer):
    """The organiser adds a late entrant after the draw (he takes the last seed)."""

    read_only_names = ("id", "entry_id", "status", "late", "name", "players", "seed")

    player_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=2,
                                       help_text="one player id, or two for a consultation pair")
    rolls = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                     help_text="a pair: the member who always rolls; null: alternate by game")
    division = serializers.CharField(required=False, allow_null=True, max_length=40,
                                     help_text="an event with divisions: any of its divisions; else placed by "
                                               "rating")

    class Meta:
        ref_name = "TournamentLateEntry"


class SignUpSerializer(StrictInputSerializer):
    """A player enters himself (with his partner in a consultation-pairs event)."""

    read_only_names = ("id", "entry_id", "status", "late", "name", "players", "seed", "player_ids")

    partner_id = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                          help_text="consultation pairs: the partner's player id")
    rolls = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                     help_text="a pair: the member who always rolls; null: alternate by game")
    division = serializers.CharField(required=False, allow_null=True, max_length=40,
                                     help_text="an event with divisions: one your rating is eligible for; else "
                                               "placed by rating")

    class Meta:
        ref_name = "TournamentSignUp"


class EntryDivisionSerializer(StrictInputSerializer):
    """The organiser puts an entrant in a division of the event."""

    read_only_names = ("id", "entry_id", "status", "late", "name", "players", "seed")

    division = serializers.CharField(max_length=40, help_text="one of the event's divisions, whatever the rating")

    class Meta:
        ref_name = "TournamentEntryDivision"


# --- output -------------------------------------------------------------------------------------


# An event named in a match's answers (the matches API, through tournaments.hooks). (No docstring:
# it would enter the schema.)
class EventBriefSerializer(PlainOutput, serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "EventBrief"


class OrganiserSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the organiser's user id (the list's organiser filter)")
    display_name = serializers.CharField(help_text="his player's name, else his full name (never his username)")

    class Meta:
        ref_name = "TournamentOrganiser"


class TournamentRulesSerializer(serializers.Serializer):
    """The rules published before play."""

    lengths = serializers.JSONField()
    consolation_rounds = serializers.IntegerField()
    last_chance = serializers.BooleanField()
    swiss_rounds = serializers.IntegerField(allow_null=True)
    max_losses = serializers.IntegerField(allow_null=True)
    groups = serializers.IntegerField()
    forbid_same_club = serializers.BooleanField()
    crawford = serializers.BooleanField()
    move_policy = serializers.CharField()
    premature_roll = serializers.CharField()
    clock_seconds_per_point = serializers.IntegerField(allow_null=True)
    penalty_minutes_per_point = serializers.IntegerField()
    seeding = serializers.CharField()
    board_count = serializers.IntegerField()
    # divisions and handicaps
    divisions = DivisionsField()
    handicaps = HandicapsField()
    # clocks
    clock_policy = serializers.CharField()
    clock_delay_seconds = serializers.IntegerField()
    clock_doubling = serializers.BooleanField()
    clock_doubling_seconds_per_point = serializers.IntegerField()
    clock_doubling_delay_seconds = serializers.IntegerField()
    clock_overtime_seconds = serializers.IntegerField()
    # --- the flights directors use, and paid places ---
    consolation_shifted = serializers.BooleanField()
    playoff_second = serializers.BooleanField()
    last_chance_open = serializers.BooleanField()
    payouts = PayoutsField()
    reentries = serializers.IntegerField(help_text="re-entries a first-round loser may make: 0 or 1")
    # --- end of flights and paid places ---
    # how a Swiss is paired and its table ordered, and the order of a round robin's rounds
    swiss_pairing = serializers.CharField()
    swiss_tiebreaks = serializers.CharField()
    round_robin_order = serializers.CharField()
    # the ABT-style modified Swiss
    abt_playoffs = serializers.BooleanField()
    abt_paid_places = serializers.IntegerField(allow_null=True)
    # how deep GNU Backgammon analyses the event's matches
    analysis_plies = serializers.IntegerField(help_text="the depth of the analysis of the event's matches (plies)")

    class Meta:
        ref_name = "TournamentRules"


class TournamentSerializer(serializers.Serializer):
    """A tournament: who runs it, its state, its published rules and, once drawn, its draw seed
    (null for a draw seeded by rating or by the organiser)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    organiser = OrganiserSerializer()
    club = ClubBriefSerializer(allow_null=True)
    starts_on = serializers.DateField(allow_null=True)
    ends_on = serializers.DateField(allow_null=True)
    format = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.CharField()
    rules = TournamentRulesSerializer(source="*")
    cancel_reason = serializers.CharField(help_text="why it was cancelled (status cancelled), else empty")
    draw_seed = serializers.IntegerField(allow_null=True)
    drawn_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Tournament"


class EntrantPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()

    class Meta:
        ref_name = "TournamentEntrantPlayer"

    def to_representation(self, instance):
        return {"id": instance[0], "display_name": instance[1]}


class EntrantSerializer(serializers.Serializer):
    """An entrant (``tournaments.selectors.event.Entrant``)."""

    id = serializers.IntegerField(source="entry_id", help_text="the entry id")
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="the seed in the draw; null before it or when not in it")
    players = EntrantPlayerSerializer(many=True)
    status = serializers.CharField(help_text="entered, checked_in or withdrawn")
    late = serializers.BooleanField()
    roller = serializers.CharField(allow_null=True, help_text="a pair: a, b (always that member) or alternate")
    division = serializers.CharField(help_text="the entrant's division; empty in an event without divisions")
    reentry_of = serializers.IntegerField(allow_null=True, help_text="a re-entry (buy-back): the "
                                                                     "entry it re-enters for; null for an original entry")

    class Meta:
        ref_name = "TournamentEntrant"


class PairingSerializer(serializers.Serializer):
    """A match of the draw (``tournaments.selectors.event.PairingView``)."""

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
    """One page of the matches of one round of one flight (``tournaments.selectors.event.BracketPart``),
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
    """One page of one Swiss or round-robin round (``tournaments.selectors.event.RoundPage``)."""

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


class StandingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    entrant = EntrantSerializer()
    group = serializers.CharField(allow_null=True)
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    played = serializers.IntegerField()
    score = serializers.FloatField()
    buchholz = serializers.FloatField()
    median_buchholz = serializers.FloatField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    separated_by = serializers.ChoiceField(
        choices=[*TIEBREAKS, *FIDE_TIEBREAKS], allow_null=True,
        help_text="the tie-break that put this entrant ahead of the next row of his table (wins: the score itself); "
                  "null when the next row shares his place or he is last in his table")

    class Meta:
        ref_name = "TournamentStanding"


class TeamStandingSerializer(StandingSerializer):
    """A line of a team table: ``wins``/``losses`` are team matches, ``score`` team-match wins
    (a level match half), and the board points decide between equal scores."""

    board_points = serializers.IntegerField(source="points_for", help_text="boards won")
    board_points_against = serializers.IntegerField(source="points_against", help_text="boards lost")

    class Meta:
        ref_name = "TournamentTeamStanding"


class PlacingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    last_place = serializers.IntegerField()
    label = serializers.CharField(help_text="5-8 when shared")
    entrant = EntrantSerializer()
    flight = serializers.CharField(allow_null=True)

    class Meta:
        ref_name = "TournamentPlacing"


class NextMatchSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    entrant = EntrantSerializer()
    key = serializers.CharField()
    flight = serializers.CharField()
    round = serializers.IntegerField()
    length = serializers.IntegerField()
    opponent = EntrantSerializer(allow_null=True)
    waiting_for = serializers.CharField(allow_null=True, help_text="the match that decides the opponent")
    match_id = serializers.IntegerField(allow_null=True, help_text="a team event: the player's board's match")
    status = serializers.CharField()
    team_match_id = serializers.IntegerField(allow_null=True, help_text="a team event: the team match (its card)")
    board = serializers.IntegerField(allow_null=True, help_text="a team event: the player's board, once the "
                                                                "round's board order is known")
    sits_out = serializers.BooleanField(help_text="a team event: the known board order leaves the player out")

    class Meta:
        ref_name = "TournamentNextMatch"


class MyNextMatchSerializer(serializers.Serializer):
    next_match = NextMatchSerializer(allow_null=True, help_text="null: nothing to play now in this event")

    class Meta:
        ref_name = "TournamentMyNextMatch"

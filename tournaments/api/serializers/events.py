"""Serializers of the tournaments API's events: the rules in, the event out (``tournaments.api.events``).

Input serializers derive from the matches API's :class:`StrictInputSerializer`: a key the
serializer does not declare is refused with a 400 naming it ("unknown field", or "this field is
read-only" for what a client sees but never sets: ``status``, ``draw_seed``...). The services check
the rules themselves (``bad_rules`` naming the field: a new event's rules are checked by
``EventRules``, which :meth:`TournamentCreateSerializer.rules` builds); these only check shapes and
types.

Output serializers render the selectors' frozen dataclasses (``tournaments.selectors``: ``event``,
``pairings``, ``brackets``, ``rounds``, ``standings``, ``next_match``, ``teams``) and the Tournament
row; none exposes an email address.
"""


from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import PlainOutput, StrictInputSerializer
from matches.api.serializers import ClubBriefSerializer
from tournaments.labels import RULE_LABELS
from tournaments.models import Tournament
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

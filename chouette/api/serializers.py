"""Serializers of the chouette API. Inputs are strict (an unknown field is a 400 naming it); the
records themselves are the engine's JSON forms, checked by the services (errors name the field
inside the record). Outputs are plain serializers over chouette.selectors' rows: player ids
and display names, never a user id or an email; amounts in points and in money."""

from __future__ import annotations

import re

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from chouette.services import MAX_AUTOMATIC, MAX_BOX_PARTNER_FROM
from core.api import StrictInputSerializer
from core.bounds import INT_MAX

# --- input ------------------------------------------------------------------------------------------

ROLLOFF_SCHEMA = {
    "type": "array",
    "description": "the opening roll-off: rounds of [player id, die]; the first round has every player, each later "
                   "round the rerolls of exactly the players still tied. The highest is the Box, the next the "
                   "Captain, then the crew.",
    "items": {"type": "array", "items": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": INT_MAX},
                                         "minItems": 2, "maxItems": 2}},
    "example": [[[12, 6], [13, 6], [14, 2]], [[12, 3], [13, 5]]],
}
RECORD_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": 'kind "quick": {"winner": "box" | "team" | null, "level": 1 | 2 | 3, "automatic": 0, '
                   '"cubes": [{"player": 13, "value": 2, "end": "played" | "member_dropped" | "box_dropped"}], '
                   '"box_partner": null, "log": [cube moments, optional], "amounts": [{"player": 12, "points": 3}, '
                   'optional: what the table announced]}; members left out played on the starting cube. kind "full": '
                   '{"board_log": [engine actions, the Box is side 0], "crew_moments": [{"before": 4, "moment": '
                   '{"type": "box_double", "answers": [[14, "take"]]}}], "box_partner": null}.',
    "example": {"winner": "team", "level": 1, "cubes": [{"player": 13, "value": 2, "end": "played"},
                                                        {"player": 14, "value": 1, "end": "member_dropped"}]},
}
VERSION_HELP = ("the table's version your form was built from (optional): if the table has moved on since, the "
                "request is refused with 409 stale_table instead of applying to a line-up you never saw")


#: How a game is recorded: a quick result or the full record (the schema names the choice
#: ``ChouetteRecordKindEnum``, config/settings.py).
RECORD_KINDS = ["quick", "full"]


@extend_schema_field(ROLLOFF_SCHEMA)
class RolloffField(serializers.JSONField):
    """The roll-off as sent; the engine checks its shape and its dice (naming the round)."""


@extend_schema_field(RECORD_SCHEMA)
class RecordField(serializers.JSONField):
    """A game record as sent; the engine checks it (naming the field inside it)."""


class ChouetteStartSerializer(StrictInputSerializer):
    read_only_names = ("id", "status", "version", "started_at", "ended_at", "lineup", "ledger")

    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    night = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                     help_text="the club night it is played at (open), if any")
    rolloff = RolloffField()
    single_cube = serializers.BooleanField(required=False, default=False,
                                           help_text="one cube for the team instead of one per member")
    jacoby = serializers.BooleanField(required=False, default=True)
    beavers = serializers.BooleanField(required=False, default=False)
    raccoons = serializers.BooleanField(required=False, default=False, help_text="needs beavers")
    automatic_doubles = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_AUTOMATIC,
                                                 help_text="the limit; 0: none")
    box_partner_from = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=3,
                                                max_value=MAX_BOX_PARTNER_FROM,
                                                help_text="the Box may take a partner from this many players (3 or more)")
    box_must_take_half = serializers.BooleanField(required=False, default=False)
    lone_taker_must_beaver = serializers.BooleanField(required=False, default=False)
    stake = serializers.DecimalField(max_digits=9, decimal_places=2, required=False, default="1.00",
                                     help_text="money per point")
    currency = serializers.CharField(max_length=3, required=False, default="EUR")
    # The house rules (a game that breaks one is refused with the rule's code).
    three_handed_both_cubes = serializers.BooleanField(
        required=False, default=False,
        help_text="at a table of three, the Box takes both cubes turned at once or passes both "
                  "(refused: three_handed_both_cubes)")
    box_must_take_captain = serializers.BooleanField(
        required=False, default=False,
        help_text="the Box cannot pass the Captain's cube while taking another's at the same moment, unless he took "
                  "another member's cube earlier in the game (refused: box_must_take_captain)")
    take_half_initial_only = serializers.BooleanField(
        required=False, default=False,
        help_text="box_must_take_half applies only to initial cubes, turned from the centre (needs box_must_take_half)")
    captain_alone_must_beaver = serializers.BooleanField(
        required=False, default=False,
        help_text="a Captain doubled with others who alone stays in must beaver (needs beavers; refused: "
                  "captain_alone_must_beaver)")
    box_partner_next_in_line = serializers.BooleanField(
        required=False, default=False,
        help_text="the partner convention: the Box partner is the next in line (the first crew member; refused: "
                  "box_partner_not_next); he stays next in line while the Box wins and captains when it loses")
    jacoby_counts_automatic = serializers.BooleanField(
        required=False, default=False,
        help_text="an automatic double turns the cube for Jacoby; false by default (gnubg's and most clubs' "
                  "convention): a gammon on a cube turned only automatically counts single")

    class Meta:
        ref_name = "ChouetteStart"


class ChouetteRulesInputSerializer(StrictInputSerializer):
    """The house rules to change at an open table; those left out keep their value."""

    box_must_take_half = serializers.BooleanField(required=False)
    lone_taker_must_beaver = serializers.BooleanField(required=False, help_text="needs beavers")
    three_handed_both_cubes = serializers.BooleanField(required=False)
    box_must_take_captain = serializers.BooleanField(required=False)
    take_half_initial_only = serializers.BooleanField(required=False, help_text="needs box_must_take_half")
    captain_alone_must_beaver = serializers.BooleanField(required=False, help_text="needs beavers")
    box_partner_next_in_line = serializers.BooleanField(required=False)
    jacoby_counts_automatic = serializers.BooleanField(required=False)
    version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0,
                                       help_text=VERSION_HELP)

    class Meta:
        ref_name = "ChouetteRulesInput"


class ChouettePlayerSerializer(StrictInputSerializer):
    player = serializers.IntegerField(min_value=1, help_text="a player id (joining: an active member's)")
    version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0,
                                       help_text=VERSION_HELP)

    class Meta:
        ref_name = "ChouettePlayer"


class LaterGameSerializer(StrictInputSerializer):
    """A later game amended with a correction, on the line-up the correction gives it (a 409
    ``later_games_to_amend`` lists each such game and that line-up)."""

    game = serializers.IntegerField(min_value=1, help_text="the later game's number")
    kind = serializers.ChoiceField(choices=RECORD_KINDS, help_text="a quick result or the full record")
    record = RecordField()

    class Meta:
        ref_name = "ChouetteLaterGame"


LATER_HELP = ("later games amended with this correction, each on the line-up the correction gives it: needed for "
              "every game a 409 later_games_to_amend lists (its Box or Captain changed, or its record no longer fits)")


def later_games(items) -> dict[int, tuple[str, dict]]:
    """``later`` as the services take it: game number -> (kind, record); a game named twice is a 400."""
    out: dict[int, tuple[str, dict]] = {}
    for index, item in enumerate(items or ()):
        if item["game"] in out:
            raise serializers.ValidationError({"later": [gettext("later[%(index)s]: game %(game)s is given twice") % {
                    "index": index, "game": item["game"]}]})
        out[item["game"]] = (item["kind"], item["record"])
    return out


class ChouetteGameInputSerializer(StrictInputSerializer):
    read_only_names = ("number", "step", "amounts", "voided", "amended")

    kind = serializers.ChoiceField(choices=RECORD_KINDS, help_text="a quick result or the full record")
    record = RecordField()
    version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0,
                                       help_text=VERSION_HELP)
    later = LaterGameSerializer(many=True, required=False, default=list, help_text=LATER_HELP)

    class Meta:
        ref_name = "ChouetteGameInput"


class ChouetteVoidQuerySerializer(StrictInputSerializer):
    version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0,
                                       help_text=VERSION_HELP)

    class Meta:
        ref_name = "ChouetteVoidQuery"


class ChouetteVoidInputSerializer(StrictInputSerializer):
    """The optional body of a void: the later games amended with it."""

    later = LaterGameSerializer(many=True, required=False, default=list, help_text=LATER_HELP)

    class Meta:
        ref_name = "ChouetteVoidInput"


#: How many of the most recent games a table's state carries unless ``games`` says otherwise.
DEFAULT_STATE_GAMES = 20
GAMES_SCHEMA = {
    "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["all"]}],
    "default": DEFAULT_STATE_GAMES,
}
GAMES_HELP = (f"how many of the most recent games to include (default {DEFAULT_STATE_GAMES}), or all for every game; "
              "game_count says how many there are")


class GamesField(serializers.Field):
    """A number of games (0 or more), or ``all`` (None)."""

    default_error_messages = {"invalid": 'a number of games, 0 or more, or "all"'}

    def to_internal_value(self, data):
        if data == "all":
            return None
        if isinstance(data, str) and re.fullmatch(r"[0-9]+", data):
            try:
                return int(data)
            except ValueError:  # past Python's limit on the digits of an int read from text
                pass
        self.fail("invalid")

    def to_representation(self, value):
        return "all" if value is None else value


class ChouetteStateQuerySerializer(serializers.Serializer):
    """The query of a table's state. Other query parameters are ignored, as they always were here."""

    games = GamesField(required=False, default=DEFAULT_STATE_GAMES, help_text=GAMES_HELP)

    class Meta:
        ref_name = "ChouetteStateQuery"


# --- output -----------------------------------------------------------------------------------------


class ChouetteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="open (playing) or ended")
    night = serializers.IntegerField(source="night_id", allow_null=True)
    stake = serializers.DecimalField(max_digits=9, decimal_places=2, help_text="money per point")
    currency = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    created_by = serializers.CharField(source="created_by.username")
    game_count = serializers.IntegerField(help_text="the games that count (not voided)")

    class Meta:
        ref_name = "Chouette"


class ChouetteSettingsSerializer(serializers.Serializer):
    single_cube = serializers.BooleanField()
    jacoby = serializers.BooleanField()
    beavers = serializers.BooleanField()
    raccoons = serializers.BooleanField()
    automatic_doubles = serializers.IntegerField()
    box_partner_from = serializers.IntegerField(allow_null=True)
    box_must_take_half = serializers.BooleanField()
    lone_taker_must_beaver = serializers.BooleanField()
    three_handed_both_cubes = serializers.BooleanField()
    box_must_take_captain = serializers.BooleanField()
    take_half_initial_only = serializers.BooleanField()
    captain_alone_must_beaver = serializers.BooleanField()
    box_partner_next_in_line = serializers.BooleanField()
    jacoby_counts_automatic = serializers.BooleanField(
        help_text="false: an automatic double does not turn the cube for Jacoby (new tables' default); tables "
                  "started before the setting existed keep true")
    stake = serializers.DecimalField(max_digits=9, decimal_places=2)
    currency = serializers.CharField()

    class Meta:
        ref_name = "ChouetteSettings"


class SeatSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField()
    role = serializers.CharField(help_text="box, captain or crew")
    place = serializers.IntegerField(help_text="0 the Box, 1 the Captain, then the crew (the last is the bottom)")
    points = serializers.IntegerField(help_text="his running total")
    money = serializers.DecimalField(max_digits=14, decimal_places=2)

    class Meta:
        ref_name = "ChouetteSeat"


class CubeRowSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField()
    value = serializers.IntegerField(help_text="the cube's face when his game ended (for a drop: the stake)")
    end = serializers.ChoiceField(choices=["played", "member_dropped", "box_dropped"])

    class Meta:
        ref_name = "ChouetteCube"


class AmountRowSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField()
    role = serializers.CharField(help_text="box, captain, crew or box_partner (the crew member on the Box's side)")
    points = serializers.IntegerField()
    money = serializers.DecimalField(max_digits=14, decimal_places=2)

    class Meta:
        ref_name = "ChouetteAmount"


class GameRowSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="the game's place at the table (voided games keep theirs)")
    step = serializers.IntegerField()
    kind = serializers.CharField(source="entry", help_text="quick or full")
    voided = serializers.BooleanField()
    amended = serializers.IntegerField(help_text="how many times it was amended")
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    box = serializers.IntegerField(source="box_id")
    captain = serializers.IntegerField(source="captain_id")
    box_partner = serializers.IntegerField(source="box_partner_id", allow_null=True)
    winner = serializers.CharField(allow_null=True, help_text="box, team, or null when nobody played to the end")
    level = serializers.IntegerField(help_text="1 single, 2 gammon, 3 backgammon")
    automatic = serializers.IntegerField()
    cubes = CubeRowSerializer(many=True)
    amounts = AmountRowSerializer(many=True, allow_null=True, help_text="null for a voided game")
    captain_won = serializers.BooleanField(allow_null=True, help_text="the original Captain's result (the rotation)")
    record = RecordField(source="entered", help_text="the record as it was entered")

    class Meta:
        ref_name = "ChouetteGame"


class LedgerRowSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField()
    points = serializers.IntegerField()
    money = serializers.DecimalField(max_digits=14, decimal_places=2)
    seated = serializers.BooleanField(help_text="still at the table")

    class Meta:
        ref_name = "ChouetteLedgerRow"


class TransferSerializer(serializers.Serializer):
    payer = serializers.IntegerField(source="payer_id")
    payer_name = serializers.CharField()
    payee = serializers.IntegerField(source="payee_id")
    payee_name = serializers.CharField()
    points = serializers.IntegerField()
    money = serializers.DecimalField(max_digits=14, decimal_places=2)

    class Meta:
        ref_name = "ChouetteTransfer"


class StepRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["start", "join", "leave", "game"])
    player = serializers.IntegerField(source="player_id", allow_null=True)
    display_name = serializers.CharField(allow_null=True)
    voided = serializers.BooleanField()
    amended = serializers.IntegerField()
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ChouetteStep"


class ChouetteStateSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="session.id")
    name = serializers.CharField(source="session.name")
    status = serializers.CharField(source="session.status")
    version = serializers.IntegerField(help_text="moves on with every change: poll it to know when to refresh")
    night = serializers.IntegerField(source="session.night_id", allow_null=True)
    started_at = serializers.DateTimeField(source="session.started_at")
    ended_at = serializers.DateTimeField(source="session.ended_at", allow_null=True)
    settings = ChouetteSettingsSerializer(source="session")
    lineup = SeatSerializer(many=True, help_text="the line-up for the next game: the Box, the Captain, the crew")
    box_partner_allowed = serializers.BooleanField(help_text="the Box may take a partner at this size")
    game_count = serializers.IntegerField(help_text="every game recorded (voided ones too), shown or not")
    games = GameRowSerializer(many=True, help_text="newest first: the most recent ones (the API's games parameter)")
    ledger = LedgerRowSerializer(many=True, help_text="everyone who sat, in order of arrival; sums to zero")
    settlement = TransferSerializer(many=True, help_text="who pays whom, fewest transfers (final once ended)")
    steps = StepRowSerializer(many=True)

    class Meta:
        ref_name = "ChouetteState"


class ChouetteVersionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()

    class Meta:
        ref_name = "ChouetteVersion"


class SettlementSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="the session has ended")
    stake = serializers.DecimalField(max_digits=9, decimal_places=2)
    currency = serializers.CharField()
    transfers = TransferSerializer(many=True)
    ledger = LedgerRowSerializer(many=True)

    class Meta:
        ref_name = "ChouetteSettlement"

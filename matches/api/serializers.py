"""The matches API's serializers.

Input serializers derive from core.api's :class:`StrictInputSerializer`: a field the serializer
does not declare is refused with a 400 naming it. Output serializers are plain (read-only)
serializers over the rows the selectors return; none of them exposes an email address or a user id.

What a match or a player belongs to (an event, a home club) is held by the apps above matches:
their fields come from the contexts they register (``matches.hooks``), placed where they always
were, so requests, answers and the schema do not depend on where the data lives.
"""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import PlainOutput, StrictInputSerializer
from core.bounds import INT_MAX

from .. import hooks
from ..clocks import match_clock_text
from ..models import MAX_SCORE, Match
from ..services.logs import report_games


def fields_with(fields: dict, extra: dict, *, after: str) -> dict:
    """``fields`` with ``extra`` inserted after the field named ``after``."""
    if not extra:
        return fields
    out = {}
    for name, value in fields.items():
        out[name] = value
        if name == after:
            out.update(extra)
    return out


def match_context_fields(kind: str) -> dict:
    """The DRF fields every registered match context gives for ``kind`` (``input_fields``,
    ``filter_fields`` or ``response_fields``), fresh instances, in the contexts' order."""
    fields = {}
    for context in hooks.match_contexts.entries():
        factory = getattr(context, kind)
        if factory is not None:
            fields.update(factory())
    return fields


def player_context_fields(kind: str) -> dict:
    """The DRF fields every registered player context gives for ``kind`` (``filter_fields`` or
    ``response_fields``), fresh instances, in the contexts' order."""
    fields = {}
    for context in hooks.player_contexts.entries():
        factory = getattr(context, kind)
        if factory is not None:
            fields.update(factory())
    return fields


# --- input --------------------------------------------------------------------------------------


def _whole_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


SCORE_SCHEMA = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": MAX_SCORE}, "minItems": 2,
                "maxItems": 2, "example": [5, 3]}
#: Each side's time left on a clock, in seconds.
TIMES_SCHEMA = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": INT_MAX}, "minItems": 2,
                "maxItems": 2, "nullable": True}


@extend_schema_field(SCORE_SCHEMA)
class ScoreField(serializers.Field):
    """A final score: two whole numbers, side 0's first. One clear message for any bad shape.
    Whether the match can end at it is the service's to say (matches.services.reporting), on
    this same field."""

    default_error_messages = {
        "invalid": format_lazy(gettext_lazy("a score is two whole numbers from 0 to {max}, side 0's first, such as "
                                            "[5, 3]"), max=MAX_SCORE),
    }

    def to_internal_value(self, data):
        if (not isinstance(data, (list, tuple)) or len(data) != 2
                or not all(_whole_number(s) and 0 <= s <= MAX_SCORE for s in data)):
            self.fail("invalid")
        return (data[0], data[1])

    def to_representation(self, value):
        return list(value)


@extend_schema_field({"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": INT_MAX}, "minItems": 1,
                      "maxItems": 2,
                      "description": "one player id, or two for a consultation pair", "example": [12]})
class SidePlayersField(serializers.Field):
    """A side given as player ids: ``[id]`` or ``[id, id]`` (a consultation pair)."""

    default_error_messages = {
        "invalid": gettext_lazy("a side is one player id or two different player ids, such as [12] or [12, 15]"),
    }

    def to_internal_value(self, data):
        if (
            not isinstance(data, list) or len(data) not in (1, 2)
            or not all(_whole_number(pk) and 0 < pk <= INT_MAX for pk in data) or len(set(data)) != len(data)
        ):
            self.fail("invalid")
        return list(data)


@extend_schema_field({
    "type": "array",
    "description": "one list of actions per game, in the engine's JSON form "
                   '(e.g. {"type": "roll", "side": 0, "dice": [6, 1]}, {"type": "move", "side": 0, "play": "13/7 8/7"})',
    "items": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
})
class GameLogsField(serializers.JSONField):
    """Game logs as sent; the engine checks their shape and every action (naming game and action)."""


class ClaimJsonInputSerializer(StrictInputSerializer):
    """A result as JSON: the final score, optionally the game logs and a statement."""

    read_only_names = ("status", "winner", "side", "reporter", "confirmed_at")

    score = ScoreField()
    games = GameLogsField(required=False)
    statement = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    # Each side's time left, when the match was played with a clock.
    clock_remaining = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=INT_MAX), min_length=2, max_length=2, required=False,
        help_text="each side's time left on the clock in seconds, side 0's first: only with the games, for a match "
                  "played with a clock, each at most the match's reserve (with its overtime)")

    class Meta:
        ref_name = "ResultClaim"


class ClaimMatInputSerializer(StrictInputSerializer):
    """A result as a multipart form: the final score and a .mat file of the match."""

    read_only_names = ClaimJsonInputSerializer.read_only_names

    score0 = serializers.IntegerField(min_value=0, max_value=MAX_SCORE)
    score1 = serializers.IntegerField(min_value=0, max_value=MAX_SCORE)
    file = serializers.FileField(allow_empty_file=False, help_text="the match as a .mat (Jellyfish) file")
    file_side = serializers.IntegerField(
        min_value=0, max_value=1, required=False,
        help_text="which player of the file is you: 0 its first (left) player, 1 its second (for the organiser: "
                  "which is side 0). Without it the names in the file decide; a file whose names match neither "
                  "side is refused asking for it")
    statement = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    class Meta:
        ref_name = "ResultClaimMatFile"


# --- output -------------------------------------------------------------------------------------


# A club named in answers (an event's club; a player's home club, through clubs' context): kept
# here, below tournaments and clubs, which share it. (No docstring: it would enter the schema.)
class ClubBriefSerializer(PlainOutput, serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "ClubBrief"


class PlayerBriefSerializer(PlainOutput, serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    country = serializers.CharField()
    rating = serializers.FloatField()

    class Meta:
        ref_name = "PlayerBrief"


class SideSerializer(PlainOutput, serializers.Serializer):
    name = serializers.CharField()
    players = PlayerBriefSerializer(many=True)

    class Meta:
        ref_name = "Side"


def score_or_none(score0: int | None, score1: int | None) -> list[int] | None:
    return None if score0 is None or score1 is None else [score0, score1]


class MatchSummarySerializer(PlainOutput, serializers.Serializer):
    """A match in a list: sides, length, status, score and winner (no games, no reports)."""

    id = serializers.IntegerField()
    side0 = SideSerializer()
    side1 = SideSerializer()
    length = serializers.IntegerField(help_text="points to win; 0 for a money session")
    status = serializers.CharField()
    score = serializers.SerializerMethodField(help_text="the confirmed final score, side 0's first")
    winner = serializers.IntegerField(allow_null=True, help_text="0 or 1 once confirmed")
    consent = serializers.SerializerMethodField(
        help_text="each side's consent to the match being on its record (pending, given or declined), side 0's "
                  "first: it counts for ratings and shows on the players' pages once both are given")
    # Here: what the match belongs to (``event``: a brief or null), from the registered contexts.
    scheduled_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "MatchSummary"

    def get_fields(self):
        return fields_with(super().get_fields(), match_context_fields("response_fields"), after="winner")

    @extend_schema_field({**SCORE_SCHEMA, "nullable": True})
    def get_score(self, match) -> list[int] | None:
        return score_or_none(match.score0, match.score1)

    @extend_schema_field({"type": "array", "minItems": 2, "maxItems": 2,
                          "items": {"type": "string", "enum": list(Match.Consent.values)}})
    def get_consent(self, match) -> list[str]:
        return [match.consent0, match.consent1]


class RulesSerializer(PlainOutput, serializers.Serializer):
    length = serializers.IntegerField()
    crawford = serializers.BooleanField()
    move_policy = serializers.CharField()
    jacoby = serializers.BooleanField()
    beavers = serializers.BooleanField()
    raccoons = serializers.BooleanField()
    automatic_doubles = serializers.IntegerField()
    cube_cap = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()

    class Meta:
        ref_name = "MatchRules"


class GameSummarySerializer(PlainOutput, serializers.Serializer):
    number = serializers.IntegerField()
    score_before = serializers.SerializerMethodField()
    crawford = serializers.BooleanField()
    winner = serializers.IntegerField()
    points = serializers.IntegerField()
    cube = serializers.IntegerField()
    ending = serializers.CharField(help_text="single, gammon, backgammon, drop or resign")

    class Meta:
        ref_name = "GameSummary"

    @extend_schema_field(SCORE_SCHEMA)
    def get_score_before(self, game) -> list[int]:
        return [game.score0, game.score1]


class ReportedGameSerializer(GameSummarySerializer):
    """A game of a pending report's logs: as a stored game's summary, with the score after it."""

    score_after = serializers.SerializerMethodField(help_text="the score after the game (not cut at the length)")

    class Meta:
        ref_name = "ReportedGame"

    @extend_schema_field(SCORE_SCHEMA)
    def get_score_after(self, game) -> list[int]:
        return list(game.score_after)


class ReportSerializer(PlainOutput, serializers.Serializer):
    """A live report: which side made it (null: the organiser), what it says, where it stands,
    and, while it awaits the other side, the games its logs hold (what the other side confirms)."""

    side = serializers.IntegerField(allow_null=True, help_text="0 or 1; null for the organiser's result")
    score = serializers.SerializerMethodField()
    status = serializers.CharField()
    with_games = serializers.SerializerMethodField()
    games = serializers.SerializerMethodField(
        help_text="while the report is pending and carries game logs: each game's score before and after, "
                  "Crawford, winner, points, cube and how it ended; null otherwise")
    statement = serializers.CharField(help_text="the reporter's own words")
    contest_statement = serializers.CharField(help_text="the other side's words when it contested the report "
                                                        "(empty otherwise)")
    origin = serializers.CharField(help_text="where the result came from when no person reported it: imported "
                                             "(from a match file), forfeit or flag_fall; empty for a person's report")
    origin_text = serializers.CharField(help_text="the origin as a sentence in the request's language "
                                                  "(\"Imported from final.mat\"); empty for a person's report")
    clock_remaining = serializers.SerializerMethodField(
        help_text="each side's time left on the clock in seconds, side 0's first, when the report gave them")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "MatchReport"

    @extend_schema_field(TIMES_SCHEMA)
    def get_clock_remaining(self, report) -> list[int] | None:
        return score_or_none(report.clock_remaining0, report.clock_remaining1)

    @extend_schema_field(SCORE_SCHEMA)
    def get_score(self, report) -> list[int]:
        return [report.score0, report.score1]

    def get_with_games(self, report) -> bool:
        # match_get annotates this so that the logs themselves are never loaded for it.
        if hasattr(report, "with_games"):
            return report.with_games
        return report.games is not None

    @extend_schema_field(ReportedGameSerializer(many=True, allow_null=True))
    def get_games(self, report) -> list[dict] | None:
        games = report_games(report)
        return None if games is None else ReportedGameSerializer(games, many=True).data


class MatchClockSerializer(PlainOutput, serializers.Serializer):
    """A match's clock: as its event published it when the match was made."""

    policy = serializers.CharField(source="clock_policy", help_text="allowed, preferred or required")
    seconds_per_point = serializers.IntegerField(source="clock_seconds_per_point")
    reserve_seconds = serializers.IntegerField(source="clock_reserve_seconds",
                                               help_text="each side's reserve for the match (reduced when the clock "
                                                         "came in mid-match)")
    delay_seconds = serializers.IntegerField(source="clock_delay_seconds", help_text="the delay per move")
    overtime_seconds = serializers.IntegerField(source="clock_overtime_seconds", help_text="0: no overtime")
    remaining = serializers.SerializerMethodField(
        help_text="each side's time left in seconds, side 0's first, as the confirmed report gave them; null otherwise")
    text = serializers.SerializerMethodField(help_text="the clock as a sentence in the request's language")

    class Meta:
        ref_name = "MatchClock"

    @extend_schema_field(TIMES_SCHEMA)
    def get_remaining(self, match) -> list[int] | None:
        return score_or_none(match.clock_remaining0, match.clock_remaining1)

    def get_text(self, match) -> str:
        return match_clock_text(match)


class MatchDetailSerializer(MatchSummarySerializer):
    """A match with its rules, games and live reports (as ``matches.selectors.match.match_get`` loads it)."""

    rules = RulesSerializer(source="*")
    played_on = serializers.DateField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    games = GameSummarySerializer(many=True, source="games.all")
    reports = ReportSerializer(many=True, source="reports.all")
    clock = serializers.SerializerMethodField(help_text="the clock the match is played with; null: none")

    class Meta:
        ref_name = "MatchDetail"

    @extend_schema_field(MatchClockSerializer(allow_null=True))
    def get_clock(self, match) -> dict | None:
        return MatchClockSerializer(match).data if match.clock_policy else None


class MomentSerializer(serializers.Serializer):
    """One moment of a game (``matches.selectors.match.Moment``): enough to draw the board and its cube."""

    index = serializers.IntegerField(help_text="0-based; moment i is the state before action i")
    position_id = serializers.CharField(help_text="GNU Backgammon Position ID, from the side on roll's view")
    turn = serializers.IntegerField(source="frame.position.turn", help_text="the side on roll")
    cube = serializers.IntegerField(source="frame.cube")
    cube_owner = serializers.IntegerField(source="frame.owner", allow_null=True, help_text="null: centred")
    dice = serializers.ListField(source="frame.dice", child=serializers.IntegerField(), allow_null=True,
                                 help_text="rolled and not yet played")
    phase = serializers.CharField(source="frame.phase")
    to_act = serializers.IntegerField(source="frame.to_act", allow_null=True, help_text="the side expected to act")
    move = serializers.IntegerField(source="frame.move", help_text="the numbered turn line, as in a .mat file")
    action = serializers.DictField(allow_null=True, help_text="the action that follows (null after the last)")

    class Meta:
        ref_name = "GameMoment"


class GameWithMomentsSerializer(serializers.Serializer):
    """``{"game": Game, "moments": [Moment]}``: a game's summary and every moment of it."""

    number = serializers.IntegerField(source="game.number")
    score_before = serializers.SerializerMethodField()
    crawford = serializers.BooleanField(source="game.crawford")
    winner = serializers.IntegerField(source="game.winner")
    points = serializers.IntegerField(source="game.points")
    cube = serializers.IntegerField(source="game.cube")
    ending = serializers.CharField(source="game.ending")
    condoned = serializers.ListField(source="game.condoned", child=serializers.DictField(),
                                     help_text="illegal plays that stood (responsible-moves policy)")
    stood = serializers.ListField(source="game.stood", child=serializers.DictField(),
                                  help_text="illegal plays noticed too late that stood (legal-moves policy)")
    setup = serializers.CharField(source="game.setup", allow_null=True,
                                  help_text="the Position ID the game really started from when it was set up wrongly and "
                                            "stands (its first moment); null: the standard start")
    moments = MomentSerializer(many=True)

    class Meta:
        ref_name = "GameWithMoments"

    @extend_schema_field(SCORE_SCHEMA)
    def get_score_before(self, item) -> list[int]:
        return [item["game"].score0, item["game"].score1]


class PlayerSerializer(serializers.Serializer):
    """A player as the public sees them: never the email address or the user id."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    country = serializers.CharField()
    # Here: what the player belongs to (``club``: his home club, a brief or null), from the contexts.
    rating = serializers.FloatField()
    experience = serializers.IntegerField()

    class Meta:
        ref_name = "Player"

    def get_fields(self):
        extra = {}
        for context in hooks.player_contexts.entries():
            if context.response_fields is not None:
                extra.update(context.response_fields())
        return fields_with(super().get_fields(), extra, after="country")


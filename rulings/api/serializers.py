"""Serializers of the rulings API (``rulings.api``): disputes, statements, rulings, appeals,
committees, votes and an event's public rulings.

Input serializers derive from the matches API's :class:`StrictInputSerializer`: a key they do not
declare is refused with a 400 naming it ("this field is read-only" for what a client sees but never
sets: ``status``, ``director``, ``changes``, ``decision``...). They check shapes only; the services
check the rules (a ruling's details per outcome, the committee's size and who may sit) and name the
field they refuse.

Output serializers name people by username only: never an email address, never a user id.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import StrictInputSerializer
from matches.models import Match
from rulings.models import Appeal, Dispute, Ruling
from rulings.selectors import DisputeFilters, dispute_scores
from rulings.services.appeals import appeal_window_closes
from rulings.services.disputes import MAX_GAME_NUMBER
from rulings.wording import dispute_reason
from tournaments.models import event_of

# --- input --------------------------------------------------------------------------------------

STATEMENT_MAX = 5000
RULE_MAX = 200
REASONING_MAX = 5000

PARAMS_SCHEMA = {
    "type": "object", "additionalProperties": True,
    "description": "the outcome's details, as the outcome needs them (game and move default to the dispute's): "
                   "stands {score?}; score_corrected {score: [side 0, side 1]}; play_corrected {game, move (1-based "
                   "action), play (e.g. \"13/7 8/7\"), noticed_before_next_roll, opponent_demands_replay?, log?}; "
                   "play_condoned (the same without play); game_voided and game_replayed {game}; "
                   "crawford_double_voided {game, log?}; penalty_points {side, points or minutes_late}; "
                   "match_awarded, warning and disqualification {side}; wrong_length {played_length, choice "
                   "(result_stands, won_at_length or continue_to_length, as the rules allow for the match), score? "
                   "(the score as it stands; default: the confirmed or reported one), finished?, crawford_played?}. "
                   "A key the outcome does not read is refused.",
    "example": {"side": 1, "minutes_late": 12},
}


@extend_schema_field(PARAMS_SCHEMA)
class ParamsField(serializers.JSONField):
    """A ruling's details: a JSON object; the ruling service checks it per outcome, naming the key."""

    default_error_messages = {"not_object": "params is an object, such as {{\"side\": 1, \"points\": 2}}"}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            self.fail("not_object")
        return value


@extend_schema_field({
    "type": "array", "items": {"type": "object", "additionalProperties": True},
    "description": "the disputed game as played, when it differs from the record: the engine's JSON actions",
})
class DisputedLogField(serializers.JSONField):
    """A game log as sent; the dispute service replays it and names the action it refuses."""


DISPUTE_READ_ONLY = ("id", "status", "automatic", "opened_by", "side", "position_id", "created_at", "statements",
                     "rulings", "appeals", "moment", "reason", "reported_scores")


class DisputeFilterSerializer(StrictInputSerializer):
    """The disputes list's query: every filter optional; ``filters()`` gives them to
    ``selectors.dispute_list``."""

    allowed_extra = ("page", "page_size", "format")

    status = serializers.ChoiceField(required=False, choices=Dispute.Status.choices)
    category = serializers.ChoiceField(required=False, choices=Dispute.Category.choices)
    event = serializers.IntegerField(required=False, min_value=1, help_text="a tournament id")
    match = serializers.IntegerField(required=False, min_value=1, help_text="a match id")

    class Meta:
        ref_name = "DisputeFilter"

    def filters(self) -> DisputeFilters:
        """The validated filters (call after ``is_valid``)."""
        return DisputeFilters(**self.validated_data)


class DisputeOpenSerializer(StrictInputSerializer):
    """A new dispute: the match, what happened and, for a moment of a game, where."""

    read_only_names = DISPUTE_READ_ONLY

    match = serializers.IntegerField(min_value=1, help_text="the match's id")
    category = serializers.ChoiceField(choices=Dispute.Category.choices)
    statement = serializers.CharField(max_length=STATEMENT_MAX, help_text="what happened, for the director")
    game_number = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_GAME_NUMBER,
                                           help_text="the game; empty: the whole match")
    move_number = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                           help_text="the disputed action of that game's log, 1 for the first "
                                                     "(needs game_number); the position recorded is the one before it")
    log = DisputedLogField(required=False, allow_null=True)

    class Meta:
        ref_name = "DisputeOpen"

    def validate_match(self, value: int) -> int:
        if not Match.objects.filter(pk=value).exists():
            raise serializers.ValidationError(f"there is no match {value}")
        return value

    def validate(self, data):
        if data.get("move_number") is not None and data.get("game_number") is None:
            raise serializers.ValidationError({"game_number": ["a move belongs to a game: give its game_number"]})
        return data


class StatementInputSerializer(StrictInputSerializer):
    read_only_names = ("id", "author", "side", "created_at")

    text = serializers.CharField(max_length=STATEMENT_MAX, help_text="the answer or further statement")

    class Meta:
        ref_name = "DisputeStatementCreate"


class RulingInputSerializer(StrictInputSerializer):
    """The director's ruling: the outcome, its details, the rule applied and why."""

    read_only_names = ("id", "director", "status", "changes", "appeal", "created_at", "dispute")

    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices)
    params = ParamsField(required=False, default=dict)
    rule = serializers.CharField(max_length=RULE_MAX, help_text="the rule applied, e.g. \"RULES 9: a double in the "
                                                                "Crawford game is void\"")
    reasoning = serializers.CharField(max_length=REASONING_MAX)

    class Meta:
        ref_name = "RulingCreate"


class AppealInputSerializer(StrictInputSerializer):
    read_only_names = ("id", "appellant", "side", "status", "decision", "decided_at", "committee", "votes")

    grounds = serializers.CharField(max_length=STATEMENT_MAX, help_text="why the ruling is wrong")

    class Meta:
        ref_name = "AppealCreate"


class CommitteeInputSerializer(StrictInputSerializer):
    read_only_names = ("committee", "votes", "decision", "status")

    members = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=5,
                                    help_text="3 or 5 user ids; not the ruling director, not a player of the match")

    class Meta:
        ref_name = "AppealCommittee"


class VoteInputSerializer(StrictInputSerializer):
    """A committee member's vote; a vote to replace carries the replacement ruling."""

    read_only_names = ("member", "created_at", "status")

    decision = serializers.ChoiceField(choices=Appeal.Decision.choices)
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices, required=False, allow_blank=True, default="",
                                      help_text="replace only: the replacement's outcome")
    params = ParamsField(required=False, default=dict, help_text="replace only: the replacement's details")
    rule = serializers.CharField(max_length=RULE_MAX, required=False, allow_blank=True, default="")
    reasoning = serializers.CharField(max_length=REASONING_MAX, required=False, allow_blank=True, default="")

    class Meta:
        ref_name = "AppealVote"


# --- output -------------------------------------------------------------------------------------


class DisputeMatchSerializer(serializers.Serializer):
    """The disputed match, briefly: its sides by name, its event, status and confirmed score."""

    id = serializers.IntegerField()
    side0 = serializers.CharField(source="side0.name")
    side1 = serializers.CharField(source="side1.name")
    length = serializers.IntegerField()
    status = serializers.CharField(help_text="the match's status: scheduled, in_play, reported, confirmed or disputed")
    score = serializers.SerializerMethodField()
    event = serializers.SerializerMethodField()

    class Meta:
        ref_name = "DisputeMatch"

    @extend_schema_field({"type": "array", "items": {"type": "integer"}, "nullable": True, "example": [5, 3]})
    def get_score(self, match) -> list[int] | None:
        return None if match.score0 is None or match.score1 is None else [match.score0, match.score1]

    @extend_schema_field({"type": "object", "nullable": True,
                          "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}})
    def get_event(self, match) -> dict | None:
        event = event_of(match)
        return {"id": event.pk, "name": event.name} if event is not None else None


class MomentSerializer(serializers.Serializer):
    """Where in the match: the game, the action of its log, and the position then."""

    game = serializers.IntegerField(source="game_number", allow_null=True)
    move = serializers.IntegerField(source="move_number", allow_null=True)
    position_id = serializers.CharField(allow_blank=True, help_text="GNU Backgammon Position ID; empty when unknown")

    class Meta:
        ref_name = "DisputeMoment"


class StatementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField(source="author.username")
    side = serializers.IntegerField(allow_null=True, help_text="the author's side; null for the director")
    text = serializers.CharField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "DisputeStatement"


class RulingSerializer(serializers.Serializer):
    """A ruling: who made it and when, the outcome and its details, the rule applied, the reasoning,
    what applying it changed, and whether it is still in force."""

    id = serializers.IntegerField()
    dispute = serializers.IntegerField(source="dispute_id")
    director = serializers.CharField(source="director.username", help_text="who ruled (a committee member for a "
                                                                            "replacement)")
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices)
    params = serializers.DictField()
    rule = serializers.CharField()
    reasoning = serializers.CharField()
    changes = serializers.DictField(help_text="what applying it changed: before and after")
    status = serializers.CharField(help_text="in_force, overturned or replaced (on appeal)")
    made_on_appeal = serializers.IntegerField(source="appeal_id", allow_null=True,
                                              help_text="the appeal whose committee made this ruling")
    appeal = serializers.SerializerMethodField(help_text="the appeal lodged against it, if any")
    appeal_window_closes = serializers.SerializerMethodField(help_text="until when a party may appeal it")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Ruling"

    def get_appeal(self, ruling) -> int | None:
        try:
            return ruling.appeal_of.pk
        except Appeal.DoesNotExist:
            return None

    @extend_schema_field({"type": "string", "format": "date-time"})
    def get_appeal_window_closes(self, ruling) -> str:
        return serializers.DateTimeField().to_representation(appeal_window_closes(ruling))


class VoteSerializer(serializers.Serializer):
    member = serializers.CharField(source="member.username")
    decision = serializers.ChoiceField(choices=Appeal.Decision.choices)
    outcome = serializers.CharField(allow_blank=True)
    params = serializers.DictField()
    rule = serializers.CharField(allow_blank=True)
    reasoning = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "AppealVoteOut"


class AppealBriefSerializer(serializers.Serializer):
    """An appeal as a dispute lists it: who appealed which ruling, the committee and the decision."""

    id = serializers.IntegerField()
    ruling = serializers.IntegerField(source="ruling_id")
    appellant = serializers.CharField(source="appellant.username")
    side = serializers.IntegerField()
    grounds = serializers.CharField()
    status = serializers.CharField(help_text="open (awaiting the committee) or decided")
    decision = serializers.CharField(allow_blank=True, help_text="uphold, overturn or replace; empty until decided")
    decided_at = serializers.DateTimeField(allow_null=True)
    committee = serializers.SerializerMethodField(help_text="the members' usernames; empty until named")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "AppealBrief"

    def get_committee(self, appeal) -> list[str]:
        return [member.user.username for member in appeal.committee.all()]


class AppealSerializer(AppealBriefSerializer):
    """An appeal with its ruling and, for its committee and the director, every vote (``votes``
    is null for the parties: they see the decision only)."""

    dispute = serializers.IntegerField(source="ruling.dispute_id")
    appealed_ruling = RulingSerializer(source="ruling")
    votes = serializers.SerializerMethodField()

    class Meta:
        ref_name = "Appeal"

    @extend_schema_field(VoteSerializer(many=True, allow_null=True))
    def get_votes(self, appeal):
        if not self.context.get("sees_votes"):
            return None
        return VoteSerializer(appeal.votes.all(), many=True).data


class DisputeSummarySerializer(serializers.Serializer):
    """A dispute in a queue: the match, what and where, its state."""

    id = serializers.IntegerField()
    match = DisputeMatchSerializer()
    category = serializers.ChoiceField(choices=Dispute.Category.choices)
    status = serializers.CharField(help_text="open, ruled, appealed or decided")
    automatic = serializers.BooleanField(help_text="opened by a contested or mismatched report")
    opened_by = serializers.CharField(source="opened_by.username")
    side = serializers.IntegerField(allow_null=True, help_text="the opener's side; null for the director")
    moment = MomentSerializer(source="*")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "DisputeSummary"


class DisputeDetailSerializer(DisputeSummarySerializer):
    statement = serializers.CharField(help_text="the opener's own words (an automatic dispute's may be empty)")
    reason = serializers.SerializerMethodField(
        help_text="an automatic dispute's reason in the request's language, e.g. \"The reports disagree: 5-3 and "
                  "3-5\"; empty for a dispute a person opened")
    reported_scores = serializers.SerializerMethodField(
        help_text="an automatic dispute's reported scores at odds, each [side 0, side 1]: two that disagree or the "
                  "one contested; null for a dispute a person opened")
    log = serializers.JSONField(allow_null=True, help_text="the disputed game as played, when it differs from the "
                                                          "record")
    statements = StatementSerializer(many=True, source="statements.all")
    rulings = RulingSerializer(many=True, source="rulings.all")
    appeals = serializers.SerializerMethodField()

    class Meta:
        ref_name = "DisputeDetail"

    def get_reason(self, dispute) -> str:
        return dispute_reason(dispute.automatic, self._scores(dispute))

    @extend_schema_field({"type": "array", "nullable": True,
                          "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}})
    def get_reported_scores(self, dispute):
        return self._scores(dispute)

    def _scores(self, dispute) -> list | None:
        cache = self.__dict__.setdefault("_scores_of", {})
        if dispute.pk not in cache:
            cache[dispute.pk] = dispute_scores(dispute)
        return cache[dispute.pk]

    @extend_schema_field(AppealBriefSerializer(many=True))
    def get_appeals(self, dispute):
        appeals = []
        for ruling in dispute.rulings.all():
            try:
                appeals.append(ruling.appeal_of)
            except Appeal.DoesNotExist:
                continue
        return AppealBriefSerializer(appeals, many=True).data


class EventRulingSerializer(serializers.Serializer):
    """A ruling of an event as the public sees it: no statement, no reasoning, nobody's email."""

    id = serializers.IntegerField()
    match = serializers.IntegerField(source="dispute.match_id")
    category = serializers.ChoiceField(choices=Dispute.Category.choices, source="dispute.category")
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices)
    rule = serializers.CharField()
    status = serializers.CharField(help_text="in_force, overturned or replaced (on appeal)")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "EventRuling"

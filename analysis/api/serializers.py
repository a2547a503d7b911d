"""What the analysis API answers: the analysis's JSON (analysis.verdict's ``MatchAnalysis.to_json``)
documented field by field, with the words people read (status, failure, gnubg's rating words)."""

from __future__ import annotations

from rest_framework import serializers

from ..texts import luck_text, rating_text

MARKS = ("", "doubtful", "error", "blunder")
KINDS = ("play", "double", "take")
STATUSES = ("none", "queued", "running", "done", "failed")


class SideStatsSerializer(serializers.Serializer):
    decisions = serializers.IntegerField(help_text="checker plays and cube decisions listed for the side")
    unforced = serializers.IntegerField(help_text="gnubg's unforced plays plus its close or actual cube decisions")
    unforced_plays = serializers.IntegerField(default=0, help_text="checker plays with more than one legal result")
    cube_decisions = serializers.IntegerField(default=0, help_text="gnubg's close or actual cube decisions")
    plays = serializers.IntegerField(default=0, help_text="the side's turns, dances included")
    equity_lost = serializers.FloatField(help_text="checker and cube errors, normalised equity (EMG)")
    checker_lost = serializers.FloatField(default=0.0, help_text="checker play errors (EMG)")
    cube_lost = serializers.FloatField(default=0.0, help_text="cube errors (EMG)")
    error_rate = serializers.FloatField(help_text="millipoints per unforced decision")
    pr = serializers.FloatField(help_text="PR: 500 * equity lost per unforced decision")
    doubtful = serializers.IntegerField(help_text="checker plays gnubg marks doubtful")
    errors = serializers.IntegerField(help_text="checker plays gnubg marks bad")
    blunders = serializers.IntegerField(help_text="checker plays gnubg marks very bad")
    luck = serializers.FloatField(help_text="the luck of the side's rolls (EMG)")
    rating = serializers.IntegerField(help_text="the shipped gnubg's rating of the play, 0 (Beginner) to 5 "
                                                "(Super Grandmaster)")
    rating_text = serializers.SerializerMethodField(help_text="gnubg's rating word, in the reader's language; empty "
                                                              "without an unforced decision")
    luck_rating = serializers.IntegerField(help_text="gnubg's rating of the luck, 0 (Go to bed) to 4 (Go to Las Vegas)")
    luck_text = serializers.SerializerMethodField(help_text="gnubg's luck word, in the reader's language")

    class Meta:
        ref_name = "AnalysisSideStats"

    def get_rating_text(self, stats) -> str:
        # With no unforced decision gnubg's rating is that of no error: no rating is shown.
        return rating_text(stats.get("rating")) if stats.get("unforced") else ""

    def get_luck_text(self, stats) -> str:
        return luck_text(stats.get("luck_rating"))


class MatchSideSerializer(SideStatsSerializer):
    side = serializers.IntegerField()
    name = serializers.CharField(help_text="the side's player, or the pair's players")

    class Meta:
        ref_name = "AnalysisMatchSide"


class DecisionSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="the index of the judged action in the game's log")
    move = serializers.IntegerField(help_text="the turn number, as the board stepper shows it")
    side = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS, help_text="play; double: the side on roll's cube decision "
                                                            "(doubled or not); take: the opponent's take or drop")
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    played = serializers.CharField(help_text='"13/7 8/7", "no double", "double", "take", "drop"')
    best = serializers.CharField(help_text="gnubg's best play or cube action, in the same notation")
    equity_played = serializers.FloatField()
    equity_best = serializers.FloatField()
    loss = serializers.FloatField(help_text=">= 0; 0 for the best")
    mark = serializers.ChoiceField(choices=MARKS, help_text="gnubg's mark at its default thresholds")
    forced = serializers.BooleanField()
    luck = serializers.FloatField(allow_null=True, help_text="the luck of the roll before a play")
    position_id = serializers.CharField(help_text="gnubg's Position ID of the position judged")
    match_id = serializers.CharField(help_text="gnubg's Match ID of the position judged")

    class Meta:
        ref_name = "AnalysisDecision"


class GameAnalysisSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField(), help_text="the score before the game")
    crawford = serializers.BooleanField()
    sides = SideStatsSerializer(many=True)
    decisions = DecisionSerializer(many=True)

    class Meta:
        ref_name = "AnalysisGame"


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="decisions analysed so far")
    total = serializers.IntegerField(help_text="decisions to analyse (0 until the run has counted them)")
    percent = serializers.IntegerField()

    class Meta:
        ref_name = "AnalysisProgress"


class FailureSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField(help_text="why, in the reader's language")

    class Meta:
        ref_name = "AnalysisFailure"


class SettingsSerializer(serializers.Serializer):
    depth = serializers.CharField(help_text='gnubg\'s name for the depth: "0-ply", "1-ply", "2-ply"')
    plies = serializers.IntegerField()
    evaluated_plies = serializers.IntegerField(required=False, help_text="the depth gnubg reported for its best plays")
    cubeful = serializers.BooleanField(required=False)
    pruning = serializers.BooleanField(required=False, help_text="gnubg's pruning neural nets")
    noise = serializers.FloatField(required=False)

    class Meta:
        ref_name = "AnalysisSettings"


class MatchAnalysisSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUSES, help_text="none: never asked for")
    status_text = serializers.CharField()
    available = serializers.BooleanField(help_text="GNU Backgammon is installed: an analysis may be asked for")
    plies = serializers.IntegerField(allow_null=True, help_text="the depth run")
    lowered_from = serializers.IntegerField(allow_null=True, help_text="the depth asked for, when a run that "
                                                                      "ran out of time was run one ply lower")
    progress = ProgressSerializer()
    requested_at = serializers.DateTimeField(allow_null=True)
    analysed_at = serializers.DateTimeField(allow_null=True)
    engine = serializers.CharField(help_text="gnubg's version, once done")
    settings = SettingsSerializer(allow_null=True, help_text="how gnubg evaluated, once done (empty for an analysis "
                                                             "made before gnubg's own settings were recorded)")
    failure = FailureSerializer(allow_null=True)
    sides = MatchSideSerializer(many=True, help_text="each side's whole match, once done (else empty)")
    games = GameAnalysisSerializer(many=True, help_text="each game's figures and decisions, once done (else empty)")

    class Meta:
        ref_name = "MatchAnalysis"


class PrPointSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    on = serializers.DateField(help_text="the day the match was played (else confirmed)")
    side = serializers.IntegerField()
    opponent = serializers.CharField()
    pr = serializers.FloatField()
    error_rate = serializers.FloatField()
    unforced = serializers.IntegerField()
    blunders = serializers.IntegerField()
    plies = serializers.IntegerField()

    class Meta:
        ref_name = "AnalysisPrPoint"


class RankedPlayerSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    matches = serializers.IntegerField(help_text="his analysed matches in the event")
    unforced = serializers.IntegerField()
    equity_lost = serializers.FloatField()
    pr = serializers.FloatField(help_text="over all his analysed matches: 500 * equity lost / unforced decisions")
    error_rate = serializers.FloatField()
    errors = serializers.IntegerField()
    blunders = serializers.IntegerField()

    class Meta:
        ref_name = "AnalysisRankedPlayer"


"""Serializers of an event's tables and results: the standings (an entrant's or a team's line),
the final placings and a player's next match."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.draw.standings import FIDE_TIEBREAKS, TIEBREAKS

from .entries import EntrantSerializer


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

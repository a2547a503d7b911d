"""Serializers of an event's entries: the organiser enters a player or a late entrant, a player
signs up, an entrant is put in a division (input); an entrant as every answer shows him (output).
Shapes and types only, as :mod:`tournaments.api.serializers.events` says."""

from __future__ import annotations

from rest_framework import serializers

from core.api import StrictInputSerializer

# --- input --------------------------------------------------------------------------------------


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

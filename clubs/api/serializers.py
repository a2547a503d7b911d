"""Serializers of the clubs API. Inputs derive from the strict serializer (an unknown or
read-only field is a 400 naming it); outputs are plain and never carry an email address or a
user id (a manager sees usernames, which invitations are made with)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import StrictInputSerializer
from matches.api.serializers import SCORE_SCHEMA, MatchSummarySerializer

from ..labels import CLUB_LABELS, NIGHT_LABELS, SEASON_LABELS
from ..models import Membership

# --- input ------------------------------------------------------------------------------------------


class NoBodySerializer(StrictInputSerializer):
    """An action without a body: any field sent is refused."""

    class Meta:
        ref_name = "ClubNoBody"


class ClubCreateSerializer(StrictInputSerializer):
    read_only_names = ("id", "slug", "member_count", "created_at")

    name = serializers.CharField(max_length=120, label=CLUB_LABELS["name"])
    city = serializers.CharField(max_length=120, required=False, allow_blank=True, default="", label=CLUB_LABELS["city"])
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="",
                                        label=CLUB_LABELS["description"])
    open_to_requests = serializers.BooleanField(required=False, default=True, help_text="people may ask to join",
                                                label=CLUB_LABELS["open_to_requests"])

    class Meta:
        ref_name = "ClubCreate"


class ClubUpdateSerializer(StrictInputSerializer):
    read_only_names = ClubCreateSerializer.read_only_names

    name = serializers.CharField(max_length=120, required=False, label=CLUB_LABELS["name"])
    city = serializers.CharField(max_length=120, required=False, allow_blank=True, label=CLUB_LABELS["city"])
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True,
                                        label=CLUB_LABELS["description"])
    open_to_requests = serializers.BooleanField(required=False, label=CLUB_LABELS["open_to_requests"])

    class Meta:
        ref_name = "ClubUpdate"


class InviteSerializer(StrictInputSerializer):
    username = serializers.CharField(max_length=150, help_text="the username of the user to invite")

    class Meta:
        ref_name = "ClubInvite"


class RoleSerializer(StrictInputSerializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)

    class Meta:
        ref_name = "ClubRole"


class SeasonInputSerializer(StrictInputSerializer):
    read_only_names = ("id",)

    name = serializers.CharField(max_length=80, label=SEASON_LABELS["name"])
    starts_on = serializers.DateField(help_text="first day (YYYY-MM-DD)", label=SEASON_LABELS["starts_on"])
    ends_on = serializers.DateField(help_text="last day, included (YYYY-MM-DD)", label=SEASON_LABELS["ends_on"])

    class Meta:
        ref_name = "SeasonInput"

    def validate(self, data):
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and starts > ends:
            raise serializers.ValidationError({"ends_on": [_("the season ends before it starts")]})
        return data


class SeasonUpdateSerializer(SeasonInputSerializer):
    name = serializers.CharField(max_length=80, required=False, label=SEASON_LABELS["name"])
    starts_on = serializers.DateField(required=False, help_text="first day (YYYY-MM-DD)",
                                      label=SEASON_LABELS["starts_on"])
    ends_on = serializers.DateField(required=False, help_text="last day, included (YYYY-MM-DD)",
                                    label=SEASON_LABELS["ends_on"])

    class Meta:
        ref_name = "SeasonUpdate"


class NightOpenSerializer(StrictInputSerializer):
    read_only_names = ("id", "status", "opened_at", "closed_at")

    date = serializers.DateField(help_text="YYYY-MM-DD", label=NIGHT_LABELS["date"])
    title = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                  label=NIGHT_LABELS["title"])

    class Meta:
        ref_name = "NightOpen"


class CheckInInputSerializer(StrictInputSerializer):
    player = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                      help_text="a member's player id (owners and organisers); empty: yourself")

    class Meta:
        ref_name = "NightCheckIn"


# --- output -----------------------------------------------------------------------------------------


class ClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    city = serializers.CharField()
    description = serializers.CharField()
    open_to_requests = serializers.BooleanField()
    member_count = serializers.IntegerField(help_text="active members")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Club"


class RecentResultSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    opponent = serializers.CharField()
    won = serializers.BooleanField()
    score = serializers.SerializerMethodField(help_text="the member's score first")
    length = serializers.IntegerField()
    on = serializers.DateField(allow_null=True)

    class Meta:
        ref_name = "ClubMemberResult"

    @extend_schema_field(SCORE_SCHEMA)
    def get_score(self, result) -> list[int]:
        return list(result.score)


class MemberSerializer(serializers.Serializer):
    membership_id = serializers.IntegerField()
    player_id = serializers.IntegerField(allow_null=True)
    display_name = serializers.CharField()
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    rating = serializers.FloatField(allow_null=True)
    joined_at = serializers.DateTimeField(allow_null=True)
    recent = RecentResultSerializer(many=True, help_text="the last confirmed matches, newest first")

    class Meta:
        ref_name = "ClubMember"


class NightBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    title = serializers.CharField()
    status = serializers.CharField()
    check_in_count = serializers.IntegerField()

    class Meta:
        ref_name = "ClubNightBrief"


class ClubEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    ends_on = serializers.DateField(allow_null=True)

    class Meta:
        ref_name = "ClubEvent"


class ClubDetailSerializer(ClubSerializer):
    my_role = serializers.CharField(allow_null=True, help_text="your role here; null if you are not an active member")
    my_status = serializers.CharField(allow_null=True, help_text="requested, invited, active, or null")
    members = MemberSerializer(many=True)
    upcoming_nights = NightBriefSerializer(many=True)
    upcoming_events = ClubEventSerializer(many=True)

    class Meta:
        ref_name = "ClubDetail"


class MembershipSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username", allow_null=True, default=None,
                                     help_text="null for a walk-in member without an account")
    name = serializers.CharField(source="member_name", help_text="the username, or a walk-in's player name")
    player_id = serializers.IntegerField(allow_null=True, default=None,
                                         help_text="a walk-in member's guest player; null for a user's membership")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    status = serializers.CharField(help_text="requested, invited or active")
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    joined_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "ClubMembership"


class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()

    class Meta:
        ref_name = "Season"


class LadderRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="the place is shared with equal rows")
    player_id = serializers.IntegerField()
    display_name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    points = serializers.IntegerField(help_text="match points scored (sum of the player's final scores)")
    rating_change = serializers.FloatField(help_text="sum of the FIBS rating changes of these matches")

    class Meta:
        ref_name = "LadderRow"


class LadderSerializer(serializers.Serializer):
    season = SeasonSerializer()
    definition = serializers.CharField()
    rows = LadderRowSerializer(many=True)

    class Meta:
        ref_name = "Ladder"


class CheckInSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    display_name = serializers.CharField()
    at = serializers.DateTimeField()

    class Meta:
        ref_name = "ClubCheckIn"


class ChouetteBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    stake = serializers.DecimalField(max_digits=9, decimal_places=2)
    currency = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "ClubNightChouette"


class ChouetteTotalSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    display_name = serializers.CharField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, help_text="net over the night's sessions")

    class Meta:
        ref_name = "ClubNightChouetteTotal"


class NightSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="night.id")
    date = serializers.DateField(source="night.date")
    title = serializers.CharField(source="night.title")
    status = serializers.CharField(source="night.status")
    opened_at = serializers.DateTimeField(source="night.opened_at")
    closed_at = serializers.DateTimeField(source="night.closed_at", allow_null=True)
    check_ins = CheckInSerializer(many=True)
    matches = MatchSummarySerializer(many=True)
    chouettes = ChouetteBriefSerializer(many=True)
    chouette_totals = ChouetteTotalSerializer(many=True, allow_null=True,
                                              help_text="each player's net chouette result; null if not available")

    class Meta:
        ref_name = "ClubNight"

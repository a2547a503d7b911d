"""API: players (see matches.api). Read-only and public: name, country, club, rating and
experience, never a user id; a player's email address and real name only when he chose to show
them (``accounts.User.email_public``, ``real_name_public``: null otherwise)."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, Pagination, StrictInputSerializer, paginated_response

from ..models import Player
from ..selectors.directory import player_directory
from ..selectors.players import player_get, player_public, player_rating_corrections, player_rating_history
from .serializers import PlayerSerializer, fields_with, player_context_fields


class PlayerListApi(BaseApi):
    pagination_class = Pagination

    class FilterSerializer(StrictInputSerializer):
        allowed_extra = ("page", "page_size", "format")

        q = serializers.CharField(required=False, max_length=120, allow_blank=True,
                                  help_text="words of the name, in any order, each anywhere in it; accents, case "
                                            "and the Romanian comma or cedilla do not matter")
        country = serializers.RegexField(r"^[A-Za-z]{2}$", required=False,
                                         help_text="ISO 3166 alpha-2 code (any case)",
                                         error_messages={
                                             "invalid": gettext_lazy("country is a two-letter code (ISO 3166), e.g. RO")})
        # Here: what players belong to (``club``: its members and the players whose home club it is).

        class Meta:
            ref_name = "PlayerFilter"

        def get_fields(self):
            return fields_with(super().get_fields(), player_context_fields("filter_fields"), after="country")

    class OutputSerializer(PlayerSerializer):
        class Meta:
            ref_name = "PlayerListItem"

    @extend_schema(operation_id="players_list", tags=["players"], summary="Players, by name",
                   description="Paginated, by name (with ``q``: those whose name starts with its first word "
                               "first). Filter by words of the name, country and club; a bad filter value is a "
                               "400 naming the filter.",
                   parameters=[FilterSerializer],
                   responses={200: OutputSerializer(many=True), 400: ApiErrorSerializer})
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = dict(filters.validated_data)
        contexts = {name: data.pop(name) for name in list(data) if name not in ("q", "country")}
        return paginated_response(request=request, view=self, queryset=player_directory(**data, contexts=contexts),
                                  serializer_class=self.OutputSerializer)


class RatingChangeSerializer(serializers.Serializer):
    """One rated match of a player: ``context["player_id"]`` says whose, to name the opponent."""

    match = serializers.IntegerField(source="match_id")
    date = serializers.DateTimeField(source="created_at", help_text="when the change was applied")
    opponent = serializers.SerializerMethodField()
    before = serializers.FloatField(source="rating_before")
    after = serializers.FloatField(source="rating_after")
    delta = serializers.FloatField()

    class Meta:
        ref_name = "RatingChange"

    def get_opponent(self, change) -> str:
        match = change.match
        mine = self.context["player_id"] in (match.side0.player_a_id, match.side0.player_b_id)
        return (match.side1 if mine else match.side0).name


class RatingCorrectionSerializer(serializers.Serializer):
    """What a correction changed in a player's rating history (``matches.selectors.players.RatingCorrection``)."""

    match = serializers.IntegerField(source="match_id")
    date = serializers.DateTimeField(source="on", help_text="when the correction was made")
    kind = serializers.ChoiceField(
        choices=["result", "removed", "recomputed"],
        help_text="result: this match's result was corrected; removed: it no longer counts for the rating; "
                  "recomputed: rated again after an earlier result was corrected",
    )
    won = serializers.BooleanField(allow_null=True, help_text="his result now (null when removed)")
    was = serializers.FloatField(help_text="his rating after the match before the correction")
    now = serializers.FloatField(allow_null=True, help_text="his rating after the match now (null when removed)")
    sentence = serializers.CharField(help_text="the correction in a sentence, in the request's language")

    class Meta:
        ref_name = "RatingCorrection"


class PlayerDetailApi(BaseApi):
    class OutputSerializer(PlayerSerializer):
        email = serializers.SerializerMethodField(help_text="only when he chose to show it; else null")
        real_name = serializers.SerializerMethodField(help_text="only when he chose to show it; else null")
        rating_history = serializers.SerializerMethodField(help_text="oldest first, corrections applied")
        rating_corrections = serializers.SerializerMethodField(help_text="newest first")

        class Meta:
            ref_name = "PlayerDetail"

        def get_email(self, player) -> str | None:
            return player_public(player).email

        def get_real_name(self, player) -> str | None:
            return player_public(player).real_name

        @extend_schema_field(RatingChangeSerializer(many=True))
        def get_rating_history(self, player) -> list:
            return RatingChangeSerializer(self.context["history"], many=True, context={"player_id": player.pk}).data

        @extend_schema_field(RatingCorrectionSerializer(many=True))
        def get_rating_corrections(self, player) -> list:
            return RatingCorrectionSerializer(self.context["corrections"], many=True).data

    @extend_schema(operation_id="players_retrieve", tags=["players"], summary="A player and his rating history",
                   responses={200: OutputSerializer, 404: ApiErrorSerializer})
    def get(self, request, player_id: int):
        try:
            player = player_get(player_id)
        except Player.DoesNotExist:
            raise NotFound(gettext("there is no player %(id)s") % {"id": player_id}) from None
        context = {"history": player_rating_history(player), "corrections": player_rating_corrections(player)}
        return Response(self.OutputSerializer(player, context=context).data)


urlpatterns = [
    path("players/", PlayerListApi.as_view(), name="api-player-list"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="api-player-detail"),
]

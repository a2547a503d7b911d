"""API: the signed-in user's own profile, ``/api/v1/players/me/`` (GET, PATCH): his player's
display name and country, his preferred language, and whether his email address and real name
are public. The answer carries his choices, never the email address itself (the account's own
endpoints show it to him).

(``/api/v1/auth/...`` and ``accounts.api`` are the account's: sign-up, sign-in, the email
address. This is the player's side of the same user.)"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.parsers import JSONParser

from ..selectors.players import profile_get
from ..services.profile import NAME_MAX, player_profile_update

TAGS = ["players"]
LANGUAGES = get_user_model().Language


class ProfileSerializer(serializers.Serializer):
    """A user's own profile, as he sees and changes it."""

    player = serializers.IntegerField(allow_null=True, help_text="his player's id (null: he has no player page yet)")
    display_name = serializers.CharField(allow_null=True, help_text="the name others see (null: no player yet)")
    country = serializers.CharField(allow_blank=True, help_text="ISO 3166-1 alpha-2 code, or empty")
    preferred_language = serializers.ChoiceField(choices=LANGUAGES.choices)
    email_public = serializers.BooleanField(help_text="his email address is shown on his player page")
    real_name_public = serializers.BooleanField(help_text="his first and last name are shown on his player page")

    class Meta:
        ref_name = "Profile"


class ProfileUpdateSerializer(StrictInputSerializer):
    """What a user may change of his profile; only the fields sent change."""

    read_only_names = ("player",)

    display_name = serializers.CharField(max_length=NAME_MAX, required=False,
                                         help_text="the name others see; giving one makes a player page if he has none")
    country = serializers.CharField(max_length=2, required=False, allow_blank=True,
                                    help_text="ISO 3166-1 alpha-2 code (GB, KR, RO...), or empty to say none")
    preferred_language = serializers.ChoiceField(
        choices=LANGUAGES.choices, required=False,
        help_text="browser (as his browser says: the client's Accept-Language), en, ko, ar or ro",
        error_messages={"invalid_choice": gettext_lazy("“{input}” is not a language Crawford speaks: en, ko, ar or ro, "
                                                       "or browser to follow the browser's")},
    )
    email_public = serializers.BooleanField(required=False)
    real_name_public = serializers.BooleanField(required=False)

    class Meta:
        ref_name = "ProfileUpdate"


def _profile(user) -> dict:
    # Read again: the service changed the rows, not the request's user.
    user, player = profile_get(user)
    return {"player": player.pk if player else None, "display_name": player.display_name if player else None,
            "country": player.country if player else "", "preferred_language": user.preferred_language,
            "email_public": user.email_public, "real_name_public": user.real_name_public}


class ProfileApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(operation_id="players_me_retrieve", tags=TAGS, summary="Your own profile",
                   responses={200: ProfileSerializer, 401: ApiErrorSerializer})
    def get(self, request):
        return Response(ProfileSerializer(_profile(request.user)).data)

    @extend_schema(operation_id="players_me_update", tags=TAGS, summary="Change your own profile",
                   description="Only the fields sent change. 400 bad_profile names the field refused (an unknown "
                               "country code or language, an empty or too long name); nothing is saved then.",
                   request=ProfileUpdateSerializer,
                   responses={200: ProfileSerializer, 400: ApiErrorSerializer, 401: ApiErrorSerializer,
                              409: ApiErrorSerializer})
    def patch(self, request):
        serializer = ProfileUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player_profile_update(user=request.user, **serializer.validated_data)
        return Response(ProfileSerializer(_profile(request.user)).data)


urlpatterns = [
    path("players/me/", ProfileApi.as_view(), name="api-player-me"),
]

"""The signed-in user's own account: ``GET``/``PATCH me/``, ``POST me/delete/``, his API tokens
(``GET me/tokens/``, ``DELETE me/tokens/<id>/``) and ``POST me/sign-out-everywhere/``."""

from __future__ import annotations

from django.contrib.auth import logout
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.errors import DomainError
from core.parsers import JSONParser
from core.text import name_clean

from .. import hooks
from ..forms import DISPLAY_NAME_MAX
from ..models import ApiToken
from ..selectors import account_emails, api_tokens_of
from ..services import api_token_revoke, user_credentials_revoke, user_email_request_change, user_erase
from .base import http_request, password_field


class MeApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        display_name = serializers.CharField()
        email = serializers.CharField(help_text="yours, shown to you alone")
        email_verified = serializers.BooleanField()
        email_pending = serializers.CharField(help_text="the address you asked to change to, not verified yet; "
                                                        "empty when none")

        class Meta:
            ref_name = "Me"

    class InputSerializer(StrictInputSerializer):
        display_name = serializers.CharField(max_length=DISPLAY_NAME_MAX, required=False)
        email = serializers.EmailField(max_length=254, required=False,
                                       help_text="a new address: it replaces yours once you follow the link "
                                                 "emailed to it")
        read_only_names = ("username", "email_verified", "email_pending")

        class Meta:
            ref_name = "MeUpdate"

    def _out(self, user):
        email, verified, pending = account_emails(user)
        return self.OutputSerializer({"username": user.get_username(), "display_name": user.display_name,
                                      "email": email, "email_verified": verified, "email_pending": pending}).data

    @extend_schema(operation_id="me_read", tags=["auth"], summary="Your account", responses={200: OutputSerializer})
    def get(self, request):
        return Response(self._out(request.user))

    @extend_schema(operation_id="me_update", tags=["auth"], summary="Change your display name or email address",
                   request=InputSerializer, responses={200: OutputSerializer, 400: ApiErrorSerializer})
    def patch(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            if "display_name" in data:
                name = name_clean(data["display_name"], field="display_name")
                if not name:
                    raise DomainError(_("give the name other players will see"), code="blank", field="display_name")
                hooks.display_name_set.send(user=request.user, display_name=name)
            if "email" in data:
                user_email_request_change(request=http_request(request), user=request.user, email=data["email"])
        request.user.refresh_from_db()
        return Response(self._out(request.user))


class MeDeleteApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        password = password_field(help_text="yours, to show it is you")

        class Meta:
            ref_name = "MeDeleteRequest"

    @extend_schema(operation_id="me_delete", tags=["auth"], summary="Delete your account",
                   description="Your email address, names and password are deleted and you can no longer sign in; "
                               "your matches stay under your player's display name.",
                   request=InputSerializer, responses={204: None, 400: ApiErrorSerializer})
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user_erase(user_id=request.user.pk, password=serializer.validated_data["password"])
        logout(http_request(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeTokensApi(BaseApi):
    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField(help_text="your name for it; empty when you gave none")
        created_at = serializers.DateTimeField()
        last_used_at = serializers.DateTimeField(allow_null=True, help_text="to within a few minutes; null when "
                                                                            "never used")
        current = serializers.BooleanField(help_text="the token this request came with")

        class Meta:
            ref_name = "ApiToken"

    @extend_schema(operation_id="me_tokens_list", tags=["auth"], summary="Your API tokens",
                   description="Never their keys: a key is shown once, when POST auth/token/ makes it.",
                   responses={200: OutputSerializer(many=True)})
    def get(self, request):
        current = request.auth.pk if isinstance(request.auth, ApiToken) else None
        rows = [{"id": token.pk, "name": token.name, "created_at": token.created_at,
                 "last_used_at": token.last_used_at, "current": token.pk == current}
                for token in api_tokens_of(request.user)]
        return Response(self.OutputSerializer(rows, many=True).data)


class MeTokenApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_tokens_delete", tags=["auth"], summary="Revoke one of your API tokens",
                   description="It signs no request in from now on (the one this request came with too).",
                   responses={204: None, 404: OpenApiResponse(ApiErrorSerializer, description="you have no such "
                                                                                             "token")})
    def delete(self, request, token_id: int):
        try:
            api_token_revoke(user=request.user, token_id=token_id)
        except ApiToken.DoesNotExist:
            raise exceptions.NotFound(_("you have no such token")) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeSignOutEverywhereApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_sign_out_everywhere", tags=["auth"],
                   summary="Sign out everywhere: end every session and every API token of yours",
                   description="A browser session asking keeps signed in (its session renewed); every other "
                               "session ends, and every API token is revoked, the one asking too. Ask POST "
                               "auth/token/ for a new one.",
                   request=None, responses={204: None})
    def post(self, request):
        user_credentials_revoke(user=request.user, request=http_request(request),
                                reason="signed_out_everywhere")
        return Response(status=status.HTTP_204_NO_CONTENT)

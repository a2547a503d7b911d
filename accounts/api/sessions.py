"""Signing in through the API: ``POST auth/login/`` and ``POST auth/logout/`` (a session, for a
browser's client) and ``POST auth/token/`` (a new token for ``Authorization: Token …``)."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.errors import DomainError, NotAllowed

from ..lockout import LockedOut, seconds_left
from ..selectors import email_unverified
from ..services import api_token_create
from .base import ERRORS, UNVERIFIED, AccountApi, http_request, password_field


class TokenObtainApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        username = serializers.CharField(max_length=150, help_text="the username or the email address")
        password = password_field()
        name = serializers.CharField(max_length=100, required=False, allow_blank=True,
                                     help_text="your name for the token (the script or device), shown in "
                                               "your list of tokens")

        class Meta:
            ref_name = "TokenRequest"

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

        class Meta:
            ref_name = "TokenResponse"

    @extend_schema(
        operation_id="auth_token_create", tags=["auth"], summary="Get a new API token with your password",
        description="Every call makes a new token (its key is shown this once; only its digest is kept); "
                    "your tokens are listed at GET me/tokens/. A password reset or change, an email change "
                    "and sign-out-everywhere end them all.",
        request=InputSerializer,
        responses={200: OutputSerializer, 400: ApiErrorSerializer,
                   403: OpenApiResponse(ApiErrorSerializer, description="email_unverified: the account's email "
                                                                         "address is not verified yet"),
                   429: OpenApiResponse(ApiErrorSerializer, description="too many failed sign-ins for this username "
                                                                         "from this address (code locked_out, with "
                                                                         "Retry-After), or too many requests")},
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = _authenticated(request, username=data["username"], password=data["password"])
        user_logged_in.send(sender=type(user), request=request, user=user)
        _token, key = api_token_create(user=user, name=data.get("name", ""))
        return Response(self.OutputSerializer({"token": key}).data)


def _authenticated(request, *, username: str, password: str):
    """The user whose username (or email address) and password these are, checked through
    django-axes. Raises LockedOut, DomainError (``invalid_credentials``) or NotAllowed
    (``email_unverified``)."""
    user = authenticate(request=request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            raise LockedOut(wait=seconds_left(request, {"username": username}))
        raise DomainError(_("unable to sign in with these credentials"), code="invalid_credentials")
    if email_unverified(user):
        raise NotAllowed(str(UNVERIFIED), code="email_unverified")
    return user


class SessionLoginApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        username = serializers.CharField(max_length=150, help_text="the username or the email address")
        password = password_field()

        class Meta:
            ref_name = "SessionLoginRequest"

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        display_name = serializers.CharField()

        class Meta:
            ref_name = "SessionLoginResponse"

    @extend_schema(
        operation_id="auth_login", tags=["auth"], summary="Sign in with a session cookie (a browser's client)",
        description="Needs the CSRF token (the csrftoken cookie in the X-CSRFToken header), as every "
                    "session-authenticated write does. The answer sets the session cookie.",
        request=InputSerializer,
        responses={200: OutputSerializer, **ERRORS,
                   403: OpenApiResponse(ApiErrorSerializer, description="email_unverified, or the CSRF token missing"),
                   429: OpenApiResponse(ApiErrorSerializer, description="locked_out (with Retry-After), or too many "
                                                                         "requests")},
    )
    def post(self, request):
        SessionAuthentication().enforce_csrf(request)  # no signing in someone's browser into another account
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _authenticated(request, **serializer.validated_data)
        login(http_request(request), user)
        return Response(self.OutputSerializer({"username": user.get_username(), "display_name": user.display_name}).data)


class SessionLogoutApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="auth_logout", tags=["auth"], summary="Sign out of this session", request=None,
                   responses={204: None})
    def post(self, request):
        logout(http_request(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

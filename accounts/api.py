"""API: accounts. Thin views over allauth's own forms and flows, so allauth still makes and checks
the verification keys and reset links, counts its per-address email limits and sends its emails
(through the outbox: accounts/adapter.py), while the API keeps the house's schema, strict request
bodies and error body (core/api.py). allauth's headless API was not taken: it has its own error
shape and its own OpenAPI document.

- ``POST auth/signup/``: a new account (and its player); a verification link is emailed.
- ``POST auth/email/verify/``: the key of that link (the last part of its path).
- ``POST auth/email/resend/``: the link again.
- ``POST auth/login/`` and ``POST auth/logout/``: a session (a browser's client); ``POST
  auth/token/``: a new token for ``Authorization: Token …`` (each call another, kept hashed).
- ``POST auth/password/reset/`` and ``POST auth/password/reset/confirm/``: a reset link emailed,
  then the new password with the link's key.
- ``GET``/``PATCH me/``: his username, display name and email address; ``POST me/delete/``.
- ``GET me/tokens/``, ``DELETE me/tokens/<id>/``: his API tokens (never their keys), one revoked;
  ``POST me/sign-out-everywhere/``: every session and token of his ended (this browser's session
  kept). A password reset or change and an email change end them too (accounts/receivers.py).

Every password is checked by ``django.contrib.auth.authenticate`` with the request, so the sign-in
lockout (django-axes) counts failures here exactly as on the sign-in page: after too many for one
username from one address, even the right password gets a 429 ``locked_out`` until the cool-off
ends. The endpoints that sign in, make accounts or send emails are throttled per address (scope
``accounts``). Answers never tell whether an address has an account (sign-up with a taken address,
reset, resend all answer the same; the address's owner gets an email that says so).
"""

from __future__ import annotations

import contextlib

from allauth.account.forms import ResetPasswordKeyForm, UserTokenForm
from allauth.account.internal import flows
from allauth.account.models import EmailAddress, get_emailconfirmation_model
from allauth.core import ratelimit
from allauth.core.exceptions import ImmediateHttpResponse
from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from core import throttles
from core.api import ApiErrorSerializer, BaseApi, StrictInputSerializer
from core.errors import Conflict, DomainError, NotAllowed
from core.parsers import JSONParser
from core.text import name_clean

from . import hooks
from .forms import DISPLAY_NAME_MAX, PasswordResetForm, SignUpForm
from .lockout import LockedOut, seconds_left
from .models import ApiToken
from .selectors import account_emails, api_tokens_of, email_unverified
from .services import api_token_create, api_token_revoke, user_credentials_revoke, user_email_request_change, user_erase

PASSWORD_MAX = 4096
SENT = gettext_lazy("if the address belongs to an account, an email with a link is on its way to it")
UNVERIFIED = gettext_lazy("your email address is not verified yet: follow the link we emailed you, or ask for it "
                          "again")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="what happened, as a sentence")

    class Meta:
        ref_name = "AccountDetail"


def _password(**options):
    return serializers.CharField(max_length=PASSWORD_MAX, trim_whitespace=False, style={"input_type": "password"},
                                 **options)


def _form_errors(form, names: dict[str, str] | None = None) -> exceptions.ValidationError:
    """A form's refusal as the API's: field -> messages, allauth's field names given ours."""
    names = names or {}
    errors = {}
    for field, messages in form.errors.items():
        key = "non_field_errors" if field == "__all__" else names.get(field, field)
        errors.setdefault(key, []).extend(str(message) for message in messages)
    return exceptions.ValidationError(errors)


def _django_request(request):
    return getattr(request, "_request", request)


def _allauth_limit(request, action: str, key: str) -> None:
    """allauth's per-address email limit (``ACCOUNT_RATE_LIMITS``), as the API's 429."""
    if not ratelimit.consume(_django_request(request), action=action, key=key.lower()):
        raise exceptions.Throttled(detail=_("too many emails asked for this address; try again later"))


class AccountApi(BaseApi):
    """The accounts' views: no authentication needed, throttled per address (``accounts``)."""

    permission_classes = [AllowAny]
    throttle_classes = throttles.ACCOUNTS
    parser_classes = [JSONParser, FormParser, MultiPartParser]


ERRORS = {400: ApiErrorSerializer,
          429: OpenApiResponse(ApiErrorSerializer, description="too many requests from this address")}


class TokenObtainApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        username = serializers.CharField(max_length=150, help_text="the username or the email address")
        password = _password()
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
        password = _password()

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
        login(_django_request(request), user)
        return Response(self.OutputSerializer({"username": user.get_username(), "display_name": user.display_name}).data)


class SessionLogoutApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="auth_logout", tags=["auth"], summary="Sign out of this session", request=None,
                   responses={204: None})
    def post(self, request):
        logout(_django_request(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignUpApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        username = serializers.CharField(max_length=150, help_text="letters, digits and @ . + - _ only")
        display_name = serializers.CharField(max_length=DISPLAY_NAME_MAX,
                                             help_text="the name other players see in draws and results")
        email = serializers.CharField(max_length=254)
        password = _password(help_text="at least 10 characters, not a common password, not all digits")

        class Meta:
            ref_name = "SignUpRequest"

    @extend_schema(
        operation_id="auth_signup", tags=["auth"], summary="Make an account (and its player)",
        description="The account signs in once its email address is verified: the link emailed to it "
                    "(POST auth/email/verify/ with its key). A taken address gets the same answer, and its "
                    "owner an email saying he has an account already.",
        request=InputSerializer, responses={202: DetailSerializer, **ERRORS,
                                            409: OpenApiResponse(ApiErrorSerializer, description="already signed in")},
    )
    def post(self, request):
        if request.user.is_authenticated:
            raise Conflict(_("sign out before you make another account"), code="signed_in")
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data["password1"] = data["password2"] = data.pop("password")
        django_request = _django_request(request)
        form = SignUpForm(data=data)
        if not form.is_valid():
            raise _form_errors(form, {"password1": "password", "password2": "password"})
        with transaction.atomic():
            user, response = form.try_save(django_request)
        if response is None and user is not None:
            with contextlib.suppress(ImmediateHttpResponse):  # its page's redirect: no page here
                flows.signup.complete_signup(django_request, user=user)  # sends the verification email
        return Response({"detail": _("the account is made: follow the link we emailed to your address, then sign in")},
                        status=status.HTTP_202_ACCEPTED)


class EmailVerifyApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        key = serializers.CharField(max_length=200, help_text="the last part of the link's path")

        class Meta:
            ref_name = "EmailVerifyRequest"

    @extend_schema(operation_id="auth_email_verify", tags=["auth"], summary="Verify an email address with the "
                   "key of the link emailed to it", request=InputSerializer,
                   responses={200: DetailSerializer, **ERRORS})
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        confirmation = get_emailconfirmation_model().from_key(serializer.validated_data["key"])
        if confirmation is None or confirmation.key_expired():
            raise DomainError(_("this verification link is not valid: it was used already, has expired or was "
                                "mistyped; ask for a new one"), code="invalid_key", field="key")
        if not confirmation.email_address.can_set_verified():
            raise DomainError(_("this address is another account's now"), code="email_taken", field="key")
        with transaction.atomic():
            confirmation.confirm(_django_request(request))
        return Response({"detail": _("the email address is verified: you can sign in")})


class EmailResendApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        email = serializers.EmailField(max_length=254)

        class Meta:
            ref_name = "EmailResendRequest"

    @extend_schema(operation_id="auth_email_resend", tags=["auth"], summary="Send the verification link again",
                   description="At most one email per address every few minutes (a second ask in that time sends "
                               "nothing; the first link still works).",
                   request=InputSerializer, responses={202: DetailSerializer, **ERRORS})
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        address = (EmailAddress.objects.filter(email__iexact=serializer.validated_data["email"], verified=False,
                                               user__is_active=True).select_related("user").first())
        if address is not None:
            with transaction.atomic():
                flows.email_verification.send_verification_email_to_address(_django_request(request), address)
        return Response({"detail": str(SENT)}, status=status.HTTP_202_ACCEPTED)


class PasswordResetApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        email = serializers.EmailField(max_length=254)

        class Meta:
            ref_name = "PasswordResetRequest"

    @extend_schema(operation_id="auth_password_reset", tags=["auth"], summary="Email a password reset link",
                   request=InputSerializer, responses={202: DetailSerializer, **ERRORS})
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        form = PasswordResetForm(data=serializer.validated_data)
        if not form.is_valid():
            raise _form_errors(form)
        _allauth_limit(request, "reset_password", form.cleaned_data["email"])
        with transaction.atomic():
            form.save(_django_request(request))
        return Response({"detail": str(SENT)}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        key = serializers.CharField(max_length=200, help_text="the last part of the reset link's path")
        password = _password(help_text="the new password")

        class Meta:
            ref_name = "PasswordResetConfirmRequest"

    @extend_schema(operation_id="auth_password_reset_confirm", tags=["auth"],
                   summary="Set a new password with the key of the reset link", request=InputSerializer,
                   responses={200: DetailSerializer, **ERRORS})
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        uidb36, _dash, key = serializer.validated_data["key"].partition("-")
        token = UserTokenForm(data={"uidb36": uidb36, "key": key})
        if not token.is_valid():
            raise DomainError(_("this password reset link is not valid: it was used already, has expired or was "
                                "mistyped; ask for a new one"), code="invalid_key", field="key")
        password = serializer.validated_data["password"]
        form = ResetPasswordKeyForm(data={"password1": password, "password2": password}, user=token.reset_user,
                                    temp_key=key)
        if not form.is_valid():
            raise _form_errors(form, {"password1": "password", "password2": "password"})
        with transaction.atomic():
            form.save()
            flows.password_reset.finalize_password_reset(_django_request(request), token.reset_user)
        return Response({"detail": _("your password is changed: sign in with it")})


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
                user_email_request_change(request=_django_request(request), user=request.user, email=data["email"])
        request.user.refresh_from_db()
        return Response(self._out(request.user))


class MeDeleteApi(BaseApi):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    class InputSerializer(StrictInputSerializer):
        password = _password(help_text="yours, to show it is you")

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
        logout(_django_request(request))
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
        user_credentials_revoke(user=request.user, request=_django_request(request),
                                reason="signed_out_everywhere")
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("auth/token/", TokenObtainApi.as_view(), name="api-token"),
    path("auth/login/", SessionLoginApi.as_view(), name="api-login"),
    path("auth/logout/", SessionLogoutApi.as_view(), name="api-logout"),
    path("auth/signup/", SignUpApi.as_view(), name="api-signup"),
    path("auth/email/verify/", EmailVerifyApi.as_view(), name="api-email-verify"),
    path("auth/email/resend/", EmailResendApi.as_view(), name="api-email-resend"),
    path("auth/password/reset/", PasswordResetApi.as_view(), name="api-password-reset"),
    path("auth/password/reset/confirm/", PasswordResetConfirmApi.as_view(), name="api-password-reset-confirm"),
    path("me/", MeApi.as_view(), name="api-me"),
    path("me/delete/", MeDeleteApi.as_view(), name="api-me-delete"),
    path("me/tokens/", MeTokensApi.as_view(), name="api-me-tokens"),
    path("me/tokens/<int:token_id>/", MeTokenApi.as_view(), name="api-me-token"),
    path("me/sign-out-everywhere/", MeSignOutEverywhereApi.as_view(), name="api-me-sign-out-everywhere"),
]

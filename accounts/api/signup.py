"""A new account through the API: ``POST auth/signup/``, then its email address verified (``POST
auth/email/verify/``) by the key of the link emailed, sent again on ``POST auth/email/resend/``."""

from __future__ import annotations

import contextlib

from allauth.account.internal import flows
from allauth.account.models import EmailAddress, get_emailconfirmation_model
from allauth.core.exceptions import ImmediateHttpResponse
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from core.api import ApiErrorSerializer, StrictInputSerializer
from core.errors import Conflict, DomainError

from ..forms import DISPLAY_NAME_MAX, SignUpForm
from .base import ERRORS, SENT, AccountApi, form_errors, http_request, password_field
from .serializers import DetailSerializer


class SignUpApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        username = serializers.CharField(max_length=150, help_text="letters, digits and @ . + - _ only")
        display_name = serializers.CharField(max_length=DISPLAY_NAME_MAX,
                                             help_text="the name other players see in draws and results")
        email = serializers.CharField(max_length=254)
        password = password_field(help_text="at least 10 characters, not a common password, not all digits")

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
        django_request = http_request(request)
        form = SignUpForm(data=data)
        if not form.is_valid():
            raise form_errors(form, {"password1": "password", "password2": "password"})
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
            confirmation.confirm(http_request(request))
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
                flows.email_verification.send_verification_email_to_address(http_request(request), address)
        return Response({"detail": str(SENT)}, status=status.HTTP_202_ACCEPTED)

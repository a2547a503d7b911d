"""A forgotten password through the API: ``POST auth/password/reset/`` emails a reset link,
``POST auth/password/reset/confirm/`` sets the new password with the link's key."""

from __future__ import annotations

from allauth.account.forms import ResetPasswordKeyForm, UserTokenForm
from allauth.account.internal import flows
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from core.api import StrictInputSerializer
from core.errors import DomainError

from ..forms import PasswordResetForm
from .base import ERRORS, SENT, AccountApi, allauth_limit, form_errors, http_request, password_field
from .serializers import DetailSerializer


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
            raise form_errors(form)
        allauth_limit(request, "reset_password", form.cleaned_data["email"])
        with transaction.atomic():
            form.save(http_request(request))
        return Response({"detail": str(SENT)}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmApi(AccountApi):
    class InputSerializer(StrictInputSerializer):
        key = serializers.CharField(max_length=200, help_text="the last part of the reset link's path")
        password = password_field(help_text="the new password")

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
            raise form_errors(form, {"password1": "password", "password2": "password"})
        with transaction.atomic():
            form.save()
            flows.password_reset.finalize_password_reset(http_request(request), token.reset_user)
        return Response({"detail": _("your password is changed: sign in with it")})

"""API routes of the accounts app, mounted under /api/v1/ (config/urls.py)."""

from __future__ import annotations

from django.urls import path

from .me import MeApi, MeDeleteApi, MeSignOutEverywhereApi, MeTokenApi, MeTokensApi
from .passwords import PasswordResetApi, PasswordResetConfirmApi
from .sessions import SessionLoginApi, SessionLogoutApi, TokenObtainApi
from .signup import EmailResendApi, EmailVerifyApi, SignUpApi

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

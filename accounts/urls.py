"""The account pages: allauth's (sign-in, sign-up, email verification, password reset and change,
email change), the POSTs that send emails or check passwords throttled (accounts/views.py), and the
deletion of one's account. ``login`` and ``logout`` keep the names the rest of the site uses."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views

urlpatterns = [
    # Before allauth's own routes of the same paths: these answer them (throttled).
    path("login/", views.SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.SignUpView.as_view(), name="account_signup"),
    path("password/reset/", views.PasswordResetView.as_view(), name="account_reset_password"),
    path("email/", views.EmailView.as_view(), name="account_email"),
    path("delete/", views.account_delete, name="account_delete"),
    path("", include("allauth.account.urls")),
]

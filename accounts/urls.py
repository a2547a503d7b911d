"""The account pages: allauth's (sign-in, sign-up, email verification, password reset and change, email
change), the POSTs that send emails or check passwords throttled (accounts/views.py), the deletion of
one's account, his API tokens revoked one by one and signing out everywhere. ``login`` and ``logout``
keep the names the rest of the site uses; ``account_login`` and ``account_logout`` are the same pages
under the names allauth uses. Only the routes of the flows switched on are here (no sign-in by code, no
reauthentication by code)."""

from allauth.account import views as allauth_views
from django.urls import path, re_path

from . import views

urlpatterns = [
    path("login/", views.SignInView.as_view(), name="login"),
    path("login/", views.SignInView.as_view(), name="account_login"),
    # allauth's: a GET (the address typed in) asks on a page whether to sign out; its form posts.
    path("logout/", allauth_views.LogoutView.as_view(), name="logout"),
    path("logout/", allauth_views.LogoutView.as_view(), name="account_logout"),
    path("signup/", views.SignUpView.as_view(), name="account_signup"),
    path("inactive/", allauth_views.account_inactive, name="account_inactive"),
    path("reauthenticate/", allauth_views.reauthenticate, name="account_reauthenticate"),
    path("email/", views.EmailView.as_view(), name="account_email"),
    path("confirm-email/", allauth_views.email_verification_sent, name="account_email_verification_sent"),
    re_path(r"^confirm-email/(?P<key>[-:\w]+)/$", allauth_views.confirm_email, name="account_confirm_email"),
    path("password/change/", allauth_views.password_change, name="account_change_password"),
    path("password/set/", allauth_views.password_set, name="account_set_password"),
    path("password/reset/", views.PasswordResetView.as_view(), name="account_reset_password"),
    path("password/reset/done/", allauth_views.password_reset_done, name="account_reset_password_done"),
    re_path(r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$", allauth_views.password_reset_from_key,
            name="account_reset_password_from_key"),
    path("password/reset/key/done/", allauth_views.password_reset_from_key_done,
         name="account_reset_password_from_key_done"),
    path("delete/", views.account_delete, name="account_delete"),
    path("sign-out-everywhere/", views.account_sign_out_everywhere, name="account_sign_out_everywhere"),
    path("tokens/<int:token_id>/revoke/", views.account_token_revoke, name="account_token_revoke"),
]

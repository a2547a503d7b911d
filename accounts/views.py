"""The account pages: allauth's views (templates in templates/account/), their POSTs throttled as
the API is (accounts/throttling.py), and the page that deletes one's account."""

from __future__ import annotations

from allauth.account import views as allauth_views
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError

from .models import ApiToken
from .selectors import api_tokens_of
from .services import api_token_revoke, user_credentials_revoke, user_erase
from .throttling import ThrottledPostMixin


class SignInView(ThrottledPostMixin, allauth_views.LoginView):
    pass


class SignUpView(ThrottledPostMixin, allauth_views.SignupView):
    """Sign-up; someone signed in is sent to his matches (one account each)."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect(settings.LOGIN_REDIRECT_URL)
        return super().dispatch(request, *args, **kwargs)


class PasswordResetView(ThrottledPostMixin, allauth_views.PasswordResetView):
    pass


class EmailView(ThrottledPostMixin, allauth_views.EmailView):
    """His account: his email address (change it, or send its verification email again), his API
    tokens and the button that signs him out everywhere."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "api_tokens": api_tokens_of(self.request.user)}


@login_required
@require_POST
def account_sign_out_everywhere(request):
    """End every other session and every API token of his (accounts.services.user_credentials_revoke);
    this browser stays signed in."""
    user_credentials_revoke(user=request.user, request=request, reason="signed_out_everywhere")
    messages.success(request, _("You are signed out everywhere else, and your API tokens are revoked."))
    return redirect("account_email")


@login_required
@require_POST
def account_token_revoke(request, token_id: int):
    """Revoke one of his API tokens (accounts.services.api_token_revoke); another's is a 404."""
    try:
        api_token_revoke(user=request.user, token_id=token_id)
    except ApiToken.DoesNotExist:
        raise Http404("no such token") from None
    messages.success(request, _("The API token is revoked."))
    return redirect("account_email")


class AccountDeleteForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), max_length=4096, strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request):
    """Delete one's own account after typing one's password (accounts.services.user_erase)."""
    form = AccountDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user_erase(user_id=request.user.pk, password=form.cleaned_data["password"])
        except DomainError as error:
            form.add_error("password", _("This is not your password."))
            status = error.status
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Your match records stay under your player's name."))
            return redirect("login")
    else:
        status = 400 if request.method == "POST" else 200
    return render(request, "account/delete.html", {"form": form}, status=status)

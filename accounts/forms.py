"""The sign-up and sign-in forms: allauth's, with the player's display name asked at sign-up and
the sign-in field named ``username`` (it takes the username or the email address) as the sign-in
page always had it."""

from __future__ import annotations

import unicodedata

from allauth.account.forms import LoginForm, SignupForm
from django import forms
from django.utils.translation import gettext_lazy as _

from core.text import name_problem

DISPLAY_NAME_MAX = 120  # matches.Player.display_name


class SignUpForm(SignupForm):
    """allauth's sign-up (username, email address, password twice) and the display name of the
    player made for the new account (accounts/adapter.py, through accounts.hooks)."""

    display_name = forms.CharField(
        label=_("Display name"), max_length=DISPLAY_NAME_MAX,
        help_text=_("The name other players see in draws and results, e.g. your first and last name."))
    field_order = ["username", "display_name", "email", "password1", "password2"]

    def clean_display_name(self) -> str:
        problem = name_problem(self.cleaned_data["display_name"])
        if problem:
            raise forms.ValidationError(problem, code="bad_name")
        name = " ".join(unicodedata.normalize("NFC", self.cleaned_data["display_name"]).split())
        if not name:
            raise forms.ValidationError(_("Give the name other players will see."), code="required")
        return name


class SignInForm(LoginForm):
    """allauth's sign-in form with its field ``login`` named ``username``: the field django-axes
    reads for the lockout, and the name every client of the sign-in page has posted."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields = {("username" if name == "login" else name): field for name, field in self.fields.items()}
        self.fields["username"].label = _("Username or email")

    def clean_username(self) -> str:
        login = self.cleaned_data["username"].strip()
        self.cleaned_data["login"] = login  # what allauth's form reads
        return login

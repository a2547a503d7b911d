"""allauth's forms, the house's way: the player's display name asked at sign-up; the sign-in field
named ``username`` (it takes the username or the email address) as the sign-in page always had it;
a password reset link sent only to an address that signs its account in; an email change that
tells the current address. Every label is the project's (its catalogs), not allauth's."""

from __future__ import annotations

import unicodedata

from allauth.account.forms import (
    AddEmailForm,
    ChangePasswordForm,
    LoginForm,
    ReauthenticateForm,
    ResetPasswordForm,
    ResetPasswordKeyForm,
    SetPasswordForm,
    SignupForm,
)
from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from core.text import name_problem

from .notices import email_change_notice
from .selectors import account_emails, address_signs_in

DISPLAY_NAME_MAX = 120  # matches.Player.display_name

#: What allauth's forms say in words they raise themselves: marked here, word for word, so that each
#: is translated in the project's catalogs, which come before allauth's for the same sentence.
ALLAUTH_SENTENCES = (
    gettext_noop("You must type the same password each time."),
)


def labelled(form: forms.Form, **labels) -> None:
    """Give ``form``'s fields our labels (``name=label``), and the same as their placeholder where
    allauth shows one (it copies its own label there)."""
    for name, label in labels.items():
        field = form.fields[name]
        field.label = label
        if "placeholder" in field.widget.attrs:
            field.widget.attrs["placeholder"] = label


class SignUpForm(SignupForm):
    """allauth's sign-up (username, email address, password twice) and the display name of the
    player made for the new account (accounts/adapter.py, through accounts.hooks)."""

    display_name = forms.CharField(
        label=_("Display name"), max_length=DISPLAY_NAME_MAX,
        help_text=_("The name other players see in draws and results, e.g. your first and last name."))
    field_order = ["username", "display_name", "email", "password1", "password2"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labelled(self, username=_("Username"), email=_("Email"), password1=_("Password"),
                 password2=_("Password (again)"))

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
        labelled(self, password=_("Password"))

    def clean_username(self) -> str:
        login = self.cleaned_data["username"].strip()
        self.cleaned_data["login"] = login  # what allauth's form reads
        return login


class PasswordResetForm(ResetPasswordForm):
    """allauth's password reset, whose link goes only to an address that signs its account in
    (accounts.selectors.address_signs_in): not to one he asked to change to and has not verified,
    whose holder would otherwise set the account's password before the address is proven his."""

    def clean_email(self) -> str:
        email = super().clean_email()
        self.users = [user for user in self.users if address_signs_in(user, email)]
        return email


class EmailChangeForm(AddEmailForm):
    """allauth's email change (the new address kept beside his, unverified, and emailed a link),
    which also tells his current address that a change was asked
    (accounts.notices.email_change_notice), while he can still undo it."""

    def save(self, request):
        current, new = account_emails(self.user)[0], self.cleaned_data["email"]
        # Before the link to the new address: that one stays the last email sent.
        if current and current.casefold() != new.casefold():
            email_change_notice(request=request, user=self.user, old=current, new=new)
        return super().save(request)


class PasswordChangeForm(ChangePasswordForm):
    """allauth's password change, in our words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labelled(self, oldpassword=_("Your current password"), password1=_("New password"),
                 password2=_("New password (again)"))


class PasswordSetForm(SetPasswordForm):
    """allauth's first password of an account that has none, in our words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labelled(self, password1=_("Password"), password2=_("Password (again)"))


class PasswordResetKeyForm(ResetPasswordKeyForm):
    """allauth's new password chosen from a reset link, in our words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labelled(self, password1=_("New password"), password2=_("New password (again)"))


class ConfirmPasswordForm(ReauthenticateForm):
    """allauth's asking his password again before a sensitive change, in our words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labelled(self, password=_("Your password"))

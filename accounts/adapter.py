"""allauth's adapter: how allauth creates an account and sends its emails, the house's way.

- A new account gets its player (the display name asked at sign-up) in the sign-up's transaction,
  through :data:`accounts.hooks.user_signed_up` (matches, above, makes the player).
- Every email allauth sends (verification, password reset, email change, "you already have an
  account") is rendered in the request, where its links are built, and handed to the task outbox
  (:func:`accounts.services.account_email_queue`): the request never waits on the mail server,
  and with the broker down the email waits in the outbox like every other. It is written in the
  recipient's language (his account's; a new account takes the language he signed up in). Its
  links are on the site's address (``core.links.absolute_url``: ``CRAWFORD_SITE_URL``, else this
  request's host), not on whichever host allauth read from the request. It greets its reader by
  his display name (never his username), and its words are the project's own
  (templates/account/email/, every one of allauth's overridden; its page messages are
  templates/account/messages/).
- The client's address is the throttles' and the lockout's (``core.throttles.client_ip``).
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django.contrib.sites.shortcuts import get_current_site
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.i18n import language_known, languages_of
from core.links import absolute_url, site_url
from core.throttles import client_ip

from . import hooks
from .models import User
from .selectors import address_holder
from .services import account_email_queue

#: allauth's email verification stage, for the accounts that signed up (accounts/stages.py).
STAGE = "accounts.stages.SignUpEmailVerificationStage"

MISMATCH = _("Please enter a correct username and password (or email address and password). Both may be "
             "case-sensitive.")


def _on_site(value, request):
    """``value`` (a value of an email's context) with a link allauth built on the request's host
    moved to the site's address (core.links.absolute_url); anything else as it is."""
    if not isinstance(value, str) or request is None:
        return value
    bits = urlsplit(value)
    if bits.scheme not in ("http", "https") or bits.netloc != request.get_host():
        return value
    return absolute_url(urlunsplit(("", "", bits.path, bits.query, bits.fragment)))


def user_display(user) -> str:
    """How allauth names a user on its pages and in its messages (ACCOUNT_USER_DISPLAY): his
    display name, never his username."""
    return user.display_name if isinstance(user, User) else ""


def addressee(user, email: str) -> str:
    """The display name an email greets its reader by: of ``user`` (the account the email is
    about), else of the account holding ``email``; "" for an address no account holds. In a
    right-to-left language the name is isolated (U+2068 … U+2069), so a Latin name does not run
    into the words around it."""
    if not isinstance(user, User) or user.pk is None:
        user = address_holder(email)
    if user is None:
        return ""
    name = user.display_name
    return f"\u2068{name}\u2069" if translation.get_language_bidi() else name


class AccountAdapter(DefaultAccountAdapter):
    # Every refusal allauth's forms and views can say, in the project's words (its catalogs), not
    # allauth's; a code allauth adds later falls back to its own until it is worded here.
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        # The wording the sign-in page always had, whichever of the two he typed.
        "username_password_mismatch": MISMATCH,
        "email_password_mismatch": MISMATCH,
        "phone_password_mismatch": MISMATCH,
        "invalid_or_expired_key": _("This link is not valid: it was used already, has expired or was mistyped. "
                                    "Ask for a new one."),
        "invalid_password_reset": _("This password reset link is not valid: it was used already, has expired or "
                                    "was mistyped. Ask for a new one."),
        "account_inactive": _("This account does not sign in."),
        "cannot_remove_primary_email": _("This is the address your account signs in with: it cannot be removed."),
        "duplicate_email": _("This is your account's address already."),
        "email_taken": _("Another account has this email address."),
        "enter_current_password": _("This is not your current password."),
        "incorrect_code": _("This code is not right."),
        "incorrect_password": _("This is not your password."),
        "invalid_login": _("This sign-in is no longer valid: start again."),
        "max_email_addresses": _("An account has at most %d email addresses."),
        "phone_taken": _("Another account has this phone number."),
        "too_many_login_attempts": _("Too many failed sign-ins: try again later."),
        "unknown_email": _("No account has this email address."),
        "unknown_phone": _("No account has this phone number."),
        "unverified_primary_email": _("Confirm the email address first: your account signs in only with a "
                                      "confirmed address."),
        "username_blacklisted": _("This username cannot be used: choose another."),
        "select_only_one": _("Choose only one."),
        "same_as_current": _("The new value is the same as the current one."),
        "rate_limited": _("Too many requests: wait a moment and try again."),
    }

    def save_user(self, request, user, form, commit=True):
        """Save the new user and make his player (display name from the form), in one
        transaction: a refused player leaves no user behind."""
        # He signed up in the language the page spoke to him: his emails and pages keep to it.
        if language_known(translation.get_language()):
            user.preferred_language = translation.get_language()
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=True)
            hooks.user_signed_up.send(user=user, display_name=form.cleaned_data.get("display_name") or user.username)
        return user

    def send_mail(self, template_prefix: str, email: str, context_data: dict) -> None:
        """Render the email now (its links are built from this request, on the site's address) and
        queue it in the outbox."""
        request = context.request
        data = {"request": request, "email": email, "current_site": get_current_site(request),
                "site_url": site_url(), "account_url": absolute_url(reverse("account_email")),
                **{key: _on_site(value, request) for key, value in context_data.items()}}
        # In the recipient's language (his account's, else the page's: core/i18n.py).
        with translation.override(languages_of([email], default=translation.get_language())[email]):
            data["addressee"] = addressee(context_data.get("user"), email)
            message = self.render_mail(template_prefix, email, data)
        html = ""
        for content, mimetype in getattr(message, "alternatives", []):
            if mimetype == "text/html":
                html = content
        account_email_queue(subject=message.subject, body=message.body, html=html, to=list(message.to))

    def get_client_ip(self, request) -> str:
        return client_ip(request)

    def get_login_stages(self) -> list[str]:
        return [STAGE if stage.endswith(".EmailVerificationStage") else stage
                for stage in super().get_login_stages()]


"""The emails accounts sends of its own accord (allauth sends the others: accounts/adapter.py).
Each goes through allauth's adapter, hence through the outbox, rendered in the recipient's language
with its links on the site's address."""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.urls import reverse

from core.i18n import in_language_of
from core.links import absolute_url

from .models import User


def email_change_notice(*, request, user: User, old: str, new: str) -> None:
    """Email ``old`` (his address until ``new`` is verified) that a change to ``new`` was asked, in
    his language, with the absolute link of his account page, where he can cancel it and sign out
    everywhere else. Queued in the outbox, sent after the commit. Raises nothing."""
    with in_language_of(user):
        get_adapter(request).send_mail("account/email/email_change_asked", old, {
            "user": user, "old_email": old, "new_email": new, "account_url": absolute_url(reverse("account_email")),
        })

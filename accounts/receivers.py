"""What accounts does when allauth changes a credential (connected in AccountsConfig.ready()):
a password reset, changed or set, and an email address changed (the new one verified, or made
primary), end every API token and every other session of the account
(accounts.services.user_credentials_revoke). The request that made the change keeps its session
when it is his, signed in."""

from __future__ import annotations

from allauth.account import signals

from audit.hooks import sentences

from . import wording
from .services import user_credentials_revoke


def _revoke(request, user, reason: str) -> None:
    user_credentials_revoke(user=user, request=request, reason=reason)


def password_reset(sender, request, user, **kwargs) -> None:
    _revoke(request, user, "password_reset")


def password_changed(sender, request, user, **kwargs) -> None:
    _revoke(request, user, "password_changed")


def password_set(sender, request, user, **kwargs) -> None:
    _revoke(request, user, "password_set")


def email_changed(sender, request, user, **kwargs) -> None:
    # Also when allauth had no row of his address before (an account made by staff, the demo or
    # a director: his account's address changed all the same), and for a new account's first
    # verification, which has nothing to end yet.
    _revoke(request, user, "email_changed")


def connect() -> None:
    sentences.register(wording.WORDING)
    signals.password_reset.connect(password_reset, dispatch_uid="accounts.password_reset")
    signals.password_changed.connect(password_changed, dispatch_uid="accounts.password_changed")
    signals.password_set.connect(password_set, dispatch_uid="accounts.password_set")
    signals.email_changed.connect(email_changed, dispatch_uid="accounts.email_changed")

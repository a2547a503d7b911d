"""What accounts does when allauth changes a credential (connected in AccountsConfig.ready()):
a password reset, changed or set, and an email address changed (the new one verified, or made
primary), end every API token and every other session of the account
(accounts.services.user_credentials_revoke). The request that made the change keeps its session
when it is his, signed in."""

from __future__ import annotations

from allauth.account import signals

from .services import user_credentials_revoke


def _revoke(request, user) -> None:
    user_credentials_revoke(user=user, request=request)


def credentials_changed(sender, request, user, **kwargs) -> None:
    _revoke(request, user)


def email_changed(sender, request, user, **kwargs) -> None:
    # Also when allauth had no row of his address before (an account made by staff, the demo or
    # a director: his account's address changed all the same), and for a new account's first
    # verification, which has nothing to end yet.
    _revoke(request, user)


def connect() -> None:
    for name in ("password_reset", "password_changed", "password_set"):
        getattr(signals, name).connect(credentials_changed, dispatch_uid=f"accounts.{name}")
    signals.email_changed.connect(email_changed, dispatch_uid="accounts.email_changed")

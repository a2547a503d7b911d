"""The sign-in backend: allauth's (a username, or an email address in its place), which only takes
an address that is the account's own: not one he asked to change to and has not verified."""

from __future__ import annotations

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from allauth.account.internal.userkit import filter_users_by_email

from .selectors import address_signs_in


class AuthenticationBackend(AllauthBackend):
    def _authenticate_by_email(self, email, password):
        """The user whose address ``email`` signs him in (accounts.selectors.address_signs_in) and
        whose password this is, else None. allauth's own also takes an address still waiting for
        its verification, which would let whoever holds it sign in before it is proven his."""
        if not email or "@" not in email:
            return None
        for user in filter_users_by_email(email, prefer_verified=True, for_login=True):
            if address_signs_in(user, email) and self._check_password(user, password):
                return user
        return None

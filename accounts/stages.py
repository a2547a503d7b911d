"""The sign-in stage that waits for a verified email address (allauth's, narrowed)."""

from __future__ import annotations

from allauth.account.stages import EmailVerificationStage

from .selectors import email_unverified


class SignUpEmailVerificationStage(EmailVerificationStage):
    """allauth's stage that holds a sign-in until the email address is verified, for the accounts
    that signed up (they have allauth's address rows). Accounts made by staff, the demo or a
    director before sign-up existed have none and sign in as they always have."""

    def handle(self):
        if not email_unverified(self.login.user):
            return None, True
        return super().handle()

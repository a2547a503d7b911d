"""The sign-in stage that waits for a verified email address (allauth's, narrowed)."""

from __future__ import annotations

from allauth.account.stages import EmailVerificationStage

from .selectors import email_unverified


class SignUpEmailVerificationStage(EmailVerificationStage):
    """allauth's stage that holds a sign-in until the email address is verified, for the accounts
    that signed up (accounts.selectors.email_unverified). Accounts made by staff, the demo or a
    director sign in as they always have."""

    def handle(self):
        # No user: the make-believe sign-in of a sign-up with a taken address (allauth answers it as
        # it would a new one); its own stage handles it.
        if self.login.user is not None and not email_unverified(self.login.user):
            return None, True
        return super().handle()

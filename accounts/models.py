"""Users and their role. A user's player profile is ``matches.Player`` (players from imported
match files exist without a user)."""

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class User(AbstractUser):
    class Role(models.TextChoices):
        PLAYER = "player", gettext_lazy("Player")
        # Translators: the role that creates and runs events (KO 주최자, never 오거나이저; AR منظِّم; RO organizator).
        ORGANISER = "organiser", gettext_lazy("Organiser")

    class Language(models.TextChoices):
        # No language of his own: his pages speak what his browser asks for (Accept-Language,
        # else the switcher's choice on this browser), his emails the site's language or the one
        # of the page that sent them (core/i18n.py). Every account starts so.
        BROWSER = "browser", gettext_lazy("As my browser says")
        # Each language named in itself: whoever reads the list finds his own.
        ENGLISH = "en", "English"
        KOREAN = "ko", "한국어"
        ARABIC = "ar", "العربية"
        ROMANIAN = "ro", "Română"

    # Staff is Django's is_staff; an organiser runs events and matches and acts as their director.
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    # The user's own choices (his profile: matches.services.profile). What others may see of him
    # is his to choose: his email address and his real name are private unless he shows them.
    # Defaults in the database too: a row written without them (an older migration's state, raw
    # SQL) follows the browser and is private.
    preferred_language = models.CharField(max_length=8, choices=Language.choices, default=Language.BROWSER,
                                          db_default=Language.BROWSER)
    email_public = models.BooleanField(default=False, db_default=False,
                                       help_text="his email address is shown on his player page")
    real_name_public = models.BooleanField(default=False, db_default=False,
                                           help_text="his first and last name are shown on his player page")
    # Raised to end every session of his (accounts.services.user_credentials_revoke): it is part of
    # the session's auth hash, as the password is, so Django's own check on every request ends them.
    sessions_generation = models.PositiveIntegerField(default=0, db_default=0)

    def _get_session_auth_hash(self, secret=None):
        # Generation 0 keeps Django's own hash: the sessions made before this field existed stay.
        if not self.sessions_generation:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac("accounts.User.get_session_auth_hash", f"{self.sessions_generation}:{self.password}",
                           secret=secret, algorithm="sha256").hexdigest()

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER or self.is_staff

    @property
    def public_email(self) -> str | None:
        """His email address when he chose to show it (and has one), else None."""
        return self.email if self.email_public and self.email else None

    @property
    def public_real_name(self) -> str | None:
        """His full name when he chose to show it (and gave one), else None."""
        return (self.get_full_name() or None) if self.real_name_public else None

    @property
    def display_name(self) -> str:
        """The name others see: his player's display name, else his full name, else "user N".
        Never his username: it is half of what signs him in."""
        try:
            player = self.player  # matches.Player, the app above: a reverse relation, no import
        except ObjectDoesNotExist:
            player = None
        if player is not None:
            return player.display_name
        return self.get_full_name() or _("user %(id)s") % {"id": self.pk}

from .models_requests import OrganiserRequest  # noqa: E402,F401  (the model lives in its own module)
from .models_tokens import ApiToken  # noqa: E402,F401

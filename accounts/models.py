"""Users and their role. A user's player profile is ``matches.Player`` (players from imported
match files exist without a user)."""

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils.translation import gettext as _


class User(AbstractUser):
    class Role(models.TextChoices):
        PLAYER = "player", "Player"
        ORGANISER = "organiser", "Organiser"

    # Staff is Django's is_staff; an organiser runs events and matches and acts as their director.
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER or self.is_staff

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

"""Users and their role. A user's player profile is ``matches.Player`` (players from imported
match files exist without a user)."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    class Role(models.TextChoices):
        PLAYER = "player", "Player"
        ORGANISER = "organiser", "Organiser"

    # Staff is Django's is_staff; an organiser runs events and matches and acts as their director.
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER or self.is_staff

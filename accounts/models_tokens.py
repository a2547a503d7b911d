"""A user's API tokens (``Authorization: Token <key>``): as many as he asks for, each with a name,
when it was made and last used; only the key's SHA-256 is kept, so a copy of the database signs
no one in. The key is shown once, when the token is made (accounts.services.api_token_create)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone


def key_digest(key: str) -> str:
    """The SHA-256 of a token's key, as stored. The key is 160 random bits: a fast hash is enough
    (no one guesses such a key from its digest), and every API request computes it."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, help_text="his name for it (the script or device)")
    key_digest = models.CharField(max_length=64, unique=True, help_text="the SHA-256 of the key (hex)")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True, help_text="to within a few minutes (not on "
                                                                          "every request)")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name or f"token {self.pk}"

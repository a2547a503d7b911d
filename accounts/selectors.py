"""Reads of the accounts app."""

from __future__ import annotations

from .models import User


def user_by_username(username: str) -> User | None:
    """The user signing in as ``username`` (the exact name), or None."""
    return User.objects.filter(username=username).first()

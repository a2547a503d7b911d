"""A person's account and his player: the player made at sign-up, let go of when the account is
deleted. Called through accounts.hooks (registered in MatchesConfig.ready), inside the account
service's transaction."""

from __future__ import annotations

from django.utils.translation import gettext

from core.text import name_clean

from .. import errors
from ..models import Player
from .matches import player_create


def player_for_new_user(*, user, display_name: str) -> Player:
    """Make the new user's player, named ``display_name`` (with its solo side). Raises
    DomainError for an empty name (the sign-up then rolls back)."""
    return player_create(display_name=display_name, user=user)


def player_release(*, user) -> int:
    """Let go of the user's player (its ``user`` emptied): the player, his matches, entries and
    ratings stay under his display name. Returns how many players were let go of (0 or 1)."""
    return Player.objects.filter(user=user).update(user=None)


def player_rename(*, user, display_name: str) -> int:
    """Give the user's player the name ``display_name`` (the name others see in draws and results;
    his past matches show it too). Returns how many players were renamed (0: he has none). Raises
    DomainError ``bad_name`` for a name :func:`core.text.name_clean` refuses, or an empty one."""
    name = name_clean(display_name or "", field="display_name")
    if not name:
        raise errors.bad_sides(gettext("a player needs a display name"))
    return Player.objects.filter(user=user).update(display_name=name[:120])

"""How matches listens to accounts, below it (``accounts.hooks``), connected by
:class:`matches.apps.MatchesConfig`: a new account gets its player, a renamed one renames him, and a
deleted one lets go of him (his matches stay, under his display name)."""

from __future__ import annotations

from accounts import hooks as account_hooks
from audit.hooks import sentences

from . import wording
from .services.accounts import player_for_new_user, player_release, player_rename


def connect() -> None:
    sentences.register(wording.WORDING)
    account_hooks.user_signed_up.connect(player_for_new_user, name="matches.player")
    account_hooks.user_erased.connect(player_release, name="matches.player")
    account_hooks.display_name_set.connect(player_rename, name="matches.player")

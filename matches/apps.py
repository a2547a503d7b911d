from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"

    def ready(self):
        # accounts, below, tells us of a new account (its player is made) and of one deleted (its
        # player is let go of, his matches kept under his display name): accounts/hooks.py.
        from accounts import hooks as account_hooks

        from . import wording
        from .services.accounts import player_for_new_user, player_release, player_rename

        wording.register()
        account_hooks.user_signed_up.connect(player_for_new_user, name="matches.player")
        account_hooks.user_erased.connect(player_release, name="matches.player")
        account_hooks.display_name_set.connect(player_rename, name="matches.player")

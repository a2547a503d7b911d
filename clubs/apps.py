from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"

    def ready(self):
        from matches import hooks as match_hooks

        from . import hooks, wording
        from .services.walkins import membership_guest_claimed

        hooks.register()
        wording.register()
        # A walk-in member's membership follows his guest player to the user who claims him.
        match_hooks.player_claimed_register(match_hooks.PlayerClaimed(name="clubs.membership",
                                                                      claimed=membership_guest_claimed))

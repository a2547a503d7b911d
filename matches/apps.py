from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"

    def ready(self):
        # accounts, below, tells us of a new account (its player is made) and of one deleted (its
        # player is let go of, his matches kept under his display name): matches/receivers.py.
        from . import receivers

        receivers.connect()

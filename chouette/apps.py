from django.apps import AppConfig


class ChouetteConfig(AppConfig):
    name = "chouette"
    verbose_name = "Chouette tables"

    def ready(self):
        # clubs never imports this app: it asks through clubs.hooks, answered here.
        from clubs import hooks

        from .hooks import CLUB_LINK, night_chouettes

        hooks.register_club_link(CLUB_LINK)
        hooks.register_night_chouettes(night_chouettes)

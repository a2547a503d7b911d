from django.apps import AppConfig


class ChouetteConfig(AppConfig):
    name = "chouette"
    verbose_name = "Chouette tables"

    def ready(self):
        # clubs never imports this app: it asks through clubs.hooks, answered here.
        from . import hooks, wording

        hooks.register()
        wording.register()

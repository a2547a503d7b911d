from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from . import hooks, wording

        hooks.register()
        wording.register()

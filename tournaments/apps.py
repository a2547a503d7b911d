from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from . import desk_audit, hooks

        hooks.register()
        desk_audit.register()

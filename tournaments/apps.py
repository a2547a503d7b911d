from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from . import desk_audit, receivers

        receivers.connect()
        desk_audit.register()

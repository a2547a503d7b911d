from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = "Disputes, rulings, appeals and the audit log"

    def ready(self):
        from . import receivers

        receivers.connect()

from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = "Disputes, rulings, appeals and the audit log"

    def ready(self):
        from . import hooks, wording

        hooks.register()
        wording.register()

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        # The apps below never import this one: it listens to their hooks (webhooks/hooks.py).
        from . import hooks, wording

        hooks.register()
        wording.register()

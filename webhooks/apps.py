from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self):
        # The apps below never import this one: it listens to their hooks (webhooks/receivers.py).
        from . import receivers

        receivers.connect()

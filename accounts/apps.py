from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        # The account emails' task, known to this process's Celery app (a worker finds it by
        # autodiscovery; a web process that runs an outbox row itself needs it too).
        from . import receivers, tasks, wording  # noqa: F401

        receivers.connect()
        wording.register()

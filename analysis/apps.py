from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self):
        # The task is written in the outbox by name (analysis.services.TASK, tasks import the
        # services): its module is imported here so that every process knows it (a local worker
        # runs it by name, and the outbox gives its time limits to the message).
        from . import receivers, tasks  # noqa: F401

        receivers.connect()

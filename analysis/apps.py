from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self):
        # The task is written in the outbox by name (analysis.services.TASK, tasks import the
        # services): its module is imported here so that every process knows it (a local worker
        # runs it by name, and the outbox gives its time limits to the message).
        from core.health import health_section_register

        from . import pages, receivers, selectors, tasks, wording  # noqa: F401

        receivers.register()
        pages.register()
        wording.register()
        health_section_register("analysis", selectors.analysis_health)

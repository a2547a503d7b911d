from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The house's bottom layer; its only tables are the task outbox and the workers' heartbeats."""

    name = "core"
    default_auto_field = "django.db.models.BigAutoField"

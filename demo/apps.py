from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo data (``manage.py demo_data``): above every app, it fills them all through their
    services. No models."""

    name = "demo"

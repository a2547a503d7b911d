"""Page routes of the webhooks (mounted at the root, config/urls.py): /events/<id>/webhooks/,
/clubs/<slug>/webhooks/ and the forms' actions under /webhooks/<id>/."""

from .views import app_name, urlpatterns

__all__ = ["app_name", "urlpatterns"]

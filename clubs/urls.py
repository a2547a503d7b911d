"""Page routes of the clubs app (mounted at /clubs/)."""

from .views import app_name, urlpatterns

__all__ = ["app_name", "urlpatterns"]

"""Page routes of the clubs app (mounted at /clubs/). The chouette tables' pages, under
/clubs/<slug>/chouettes/, are the chouette app's (chouette/urls.py), mounted beside these."""

from . import views_walkins
from .views import app_name, urlpatterns

urlpatterns = [*urlpatterns, *views_walkins.urlpatterns]

__all__ = ["app_name", "urlpatterns"]

"""Page routes of the clubs app (mounted at /clubs/): the club pages (clubs.views) and the chouette
tables (clubs.views_chouette)."""

from .views import app_name
from .views import urlpatterns as club_urlpatterns
from .views_chouette import urlpatterns as chouette_urlpatterns

urlpatterns = [*club_urlpatterns, *chouette_urlpatterns]

__all__ = ["app_name", "urlpatterns"]

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import schema  # noqa: F401 - registers the schema's extension before the schema is made
from config.front import front
from config.views import RedocView, favicon, javascript_catalog, language_set
from core.health import health

urlpatterns = [
    # For load balancers and people: what is up (core/health.py); no authentication, no throttle.
    path("health/", health, name="health"),
    # Browsers ask every site for this: the icon the pages name (static/favicon.svg).
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # The language switcher's form posts here (Django's set_language, and the profile's language).
    path("i18n/setlang/", language_set, name="set_language"),
    # The scripts' translations (static/*.js: gettext, ngettext, interpolate), loaded by base.html.
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", include("accounts.api.urls")),
    path("api/v1/", include("accounts.organiser.api")),
    path("api/v1/", include("matches.api.urls")),
    path("api/v1/", include("analysis.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("clubs.api.urls")),
    path("api/v1/", include("chouette.api.urls")),
    path("api/v1/", include("rulings.api.urls")),
    path("api/v1/", include("webhooks.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    # ReDoc with a policy that keeps the browser on this site (its bundle would fetch a logo elsewhere).
    path("api/redoc/", RedocView.as_view(url_name="schema"), name="api-redoc"),
    path("organiser/", include("accounts.organiser.views")),
    path("", include("rulings.urls")),
    path("", include("webhooks.urls")),
    path("", include("analysis.urls")),
    path("events/", include("tournaments.urls")),
    path("clubs/", include("clubs.urls")),
    path("clubs/", include("chouette.urls")),
    # Visitors' front page; a signed-in user's own page (matches:mine, also at "/") for him.
    path("", front, name="front"),
    path("", include("matches.urls")),
]

handler404 = "config.views.not_found"
handler500 = "config.views.server_failure"

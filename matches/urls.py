"""Page routes of the matches app."""

from django.urls import include, path

app_name = "matches"

urlpatterns = [
    path("", include("matches.views.claims")),
    path("", include("matches.views.match")),
    path("", include("matches.views.imports")),
    path("", include("matches.views.players")),
    path("", include("matches.views.walkins")),
    path("", include("matches.views.directory")),
    path("", include("matches.views.paper")),
    path("", include("matches.views.clocks")),  # flag fall, a clock brought in mid-match
    path("", include("matches.views.penalties")),  # penalty points given mid-match
    path("", include("matches.views.ratings")),  # how ratings are computed
]

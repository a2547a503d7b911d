"""Page routes of the matches app."""

from django.urls import include, path

app_name = "matches"

urlpatterns = [
    path("", include("matches.views_claims")),
    path("", include("matches.views")),
    path("", include("matches.views_imports")),
    path("", include("matches.views_players")),
    path("", include("matches.views_walkins")),
    path("", include("matches.views_directory")),
    path("", include("matches.views_paper")),
    path("", include("matches.views_clocks")),  # flag fall, a clock brought in mid-match
    path("", include("matches.views_penalties")),  # penalty points given mid-match
    path("", include("matches.views_ratings")),  # how ratings are computed
]

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
    path("", include("matches.views_clocks")),  # issue 17 point 1 (clocks17)
    path("", include("matches.views_penalties")),  # issue 17 point 2
    path("", include("matches.views_ratings")),  # issue 17 point 9
]

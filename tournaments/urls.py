"""Page routes of the tournaments app."""

from django.urls import include, path

app_name = "tournaments"

urlpatterns = [
    path("", include("tournaments.views")),
    path("", include("tournaments.views_teams")),
    path("", include("tournaments.views_analysis")),  # issue 18 point 3 (analysisui18): players by PR
    path("", include("tournaments.views_audit")),
    path("", include("tournaments.views_corrections")),
    path("", include("tournaments.views_walkins")),
    path("", include("tournaments.views_paper")),
    path("", include("tournaments.views_display")),
    path("", include("tournaments.views_live")),
    path("", include("tournaments.views_desk")),
    path("", include("tournaments.views_life")),
    path("", include("tournaments.views_divisions")),  # issue 17 point 5
    path("", include("tournaments.views_payouts")),  # issue 17 point 4 (flights17)
    path("", include("tournaments.views_reentry")),  # issue 17 point 4 (reentry17)
    path("", include("tournaments.views_playoffs")),  # issue 17 point 6 (abt17)
]

"""Page routes of the tournaments app."""

from django.urls import include, path

app_name = "tournaments"

urlpatterns = [
    path("", include("tournaments.views")),
    path("", include("tournaments.views_teams")),
    path("", include("tournaments.views_analysis")),  # players ranked by PR
    path("", include("tournaments.views_audit")),
    path("", include("tournaments.views_corrections")),
    path("", include("tournaments.views_walkins")),
    path("", include("tournaments.views_paper")),
    path("", include("tournaments.views_display")),
    path("", include("tournaments.views_live")),
    path("", include("tournaments.views_desk")),
    path("", include("tournaments.views_life")),
    path("", include("tournaments.views_divisions")),  # an entrant's division
    path("", include("tournaments.views_payouts")),  # paid places
    path("", include("tournaments.views_reentry")),  # re-entry (buy-back)
    path("", include("tournaments.views_playoffs")),  # a modified Swiss's playoffs
]

"""API routes of the tournaments app, mounted under /api/v1/."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.api.events")),
    path("", include("tournaments.api.teams")),
    path("", include("tournaments.api.audit")),
    path("", include("tournaments.api.corrections")),
    path("", include("tournaments.api.walkins")),
    path("", include("tournaments.api.divisions")),  # issue 17 point 5
    path("", include("tournaments.api.payouts")),  # issue 17 point 4 (flights17)
    path("", include("tournaments.api.reentry")),  # issue 17 point 4 (reentry17)
    path("", include("tournaments.api.playoffs")),  # issue 17 point 6 (abt17)
    path("", include("tournaments.api.analysis")),  # issue 18: players ranked by PR (analysisapp18)
]

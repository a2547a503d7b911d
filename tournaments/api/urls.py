"""API routes of the tournaments app, mounted under /api/v1/."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.api.events")),
    path("", include("tournaments.api.entries")),
    path("", include("tournaments.api.draws")),
    path("", include("tournaments.api.teams")),
    path("", include("tournaments.api.audit")),
    path("", include("tournaments.api.corrections")),
    path("", include("tournaments.api.walkins")),
    path("", include("tournaments.api.divisions")),  # an entrant's division
    path("", include("tournaments.api.payouts")),  # paid places
    path("", include("tournaments.api.reentry")),  # re-entry (buy-back)
    path("", include("tournaments.api.playoffs")),  # a modified Swiss's playoffs
    path("", include("tournaments.api.analysis")),  # players ranked by PR
]

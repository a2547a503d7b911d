"""Page routes of the tournaments app."""

from django.urls import include, path

app_name = "tournaments"

urlpatterns = [
    path("", include("tournaments.views.event")),  # events, entries, a player's next matches
    path("", include("tournaments.views.draws")),  # bracket, rounds, standings
    path("", include("tournaments.views.manage")),  # the organiser's control page
    path("", include("tournaments.views.teams")),
    path("", include("tournaments.views.analysis")),  # players ranked by PR
    path("", include("tournaments.views.audit")),
    path("", include("tournaments.views.corrections")),
    path("", include("tournaments.views.walkins")),
    path("", include("tournaments.views.paper")),
    path("", include("tournaments.views.display")),
    path("", include("tournaments.views.live")),
    path("", include("tournaments.views.desk")),
    path("", include("tournaments.views.life")),
    path("", include("tournaments.views.divisions")),  # an entrant's division
    path("", include("tournaments.views.payouts")),  # paid places
    path("", include("tournaments.views.reentry")),  # re-entry (buy-back)
    path("", include("tournaments.views.playoffs")),  # a modified Swiss's playoffs
]

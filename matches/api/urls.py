"""API routes of the matches app, mounted under /api/v1/."""

from django.urls import include, path

urlpatterns = [
    path("", include("matches.api.profile")),
    path("", include("matches.api.claims")),
    path("", include("matches.api.players")),
    path("", include("matches.api.matches")),
    path("", include("matches.api.imports")),
    path("", include("matches.api.invitations")),
    path("", include("matches.api.clocks")),  # flag fall, a clock brought in mid-match
    path("", include("matches.api.penalties")),  # penalty points given mid-match
]

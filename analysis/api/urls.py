"""API routes of the analysis app, mounted under /api/v1/ (an event's ranking is tournaments':
tournaments/api/analysis.py)."""

from django.urls import include, path

urlpatterns = [
    path("", include("analysis.api.matches")),
]

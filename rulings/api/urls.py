"""API routes of the rulings app, mounted under /api/v1/ (one include line per module)."""

from django.urls import include, path

urlpatterns = [
    path("", include("rulings.api.views")),
]

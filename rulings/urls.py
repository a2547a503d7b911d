"""Page routes of the rulings app, mounted under /events/ next to the tournaments' pages."""

from django.urls import include, path

app_name = "rulings"

urlpatterns = [
    path("", include("rulings.views_audit")),
]

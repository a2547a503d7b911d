"""Page routes of the rulings app, mounted at the site's root: the disputes, rulings and appeals
under /rulings/ (the emails link to /rulings/disputes/<id>/ and /rulings/appeals/<id>/), an
event's audit log under /events/ next to the tournaments' pages. One namespace, ``rulings``."""

from django.urls import include, path

app_name = "rulings"

urlpatterns = [
    path("rulings/", include("rulings.views")),
    path("events/", include("rulings.views_audit")),
]

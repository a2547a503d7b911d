"""Page routes of the rulings app, mounted at the site's root: the disputes, rulings and appeals
under /rulings/ (the emails link to /rulings/disputes/<id>/ and /rulings/appeals/<id>/). One
namespace, ``rulings``."""

from django.urls import include, path

app_name = "rulings"

urlpatterns = [
    path("rulings/", include("rulings.views")),
]

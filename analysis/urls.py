"""Page routes of the analysis (mounted at the root, beside the match pages)."""

from django.urls import path

from . import views

app_name = "analysis"

urlpatterns = [
    path("matches/<int:match_id>/analysis.json", views.analysis_json, name="export"),
    path("matches/<int:match_id>/analysis/live/", views.analysis_live, name="live"),
    path("matches/<int:match_id>/analysis/request/", views.analysis_request, name="request"),
]

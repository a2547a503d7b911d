"""API routes of the rulings app, mounted under /api/v1/ (config/urls.py)."""

from __future__ import annotations

from django.urls import path

from .appeals import AppealDetailApi, AppealLodgeApi, CommitteeNameApi, VoteCastApi
from .disputes import DisputeCollectionApi, DisputeDetailApi, StatementCreateApi
from .rulings import EventRulingsApi, RulingCreateApi, RulingDetailApi

urlpatterns = [
    path("disputes/", DisputeCollectionApi.as_view(), name="api-disputes"),
    path("disputes/<int:dispute_id>/", DisputeDetailApi.as_view(), name="api-dispute"),
    path("disputes/<int:dispute_id>/statements/", StatementCreateApi.as_view(), name="api-dispute-statements"),
    path("disputes/<int:dispute_id>/rulings/", RulingCreateApi.as_view(), name="api-dispute-rulings"),
    path("rulings/<int:ruling_id>/", RulingDetailApi.as_view(), name="api-ruling"),
    path("rulings/<int:ruling_id>/appeal/", AppealLodgeApi.as_view(), name="api-ruling-appeal"),
    path("appeals/<int:appeal_id>/", AppealDetailApi.as_view(), name="api-appeal"),
    path("appeals/<int:appeal_id>/committee/", CommitteeNameApi.as_view(), name="api-appeal-committee"),
    path("appeals/<int:appeal_id>/votes/", VoteCastApi.as_view(), name="api-appeal-votes"),
    path("tournaments/<int:tournament_id>/rulings/", EventRulingsApi.as_view(), name="api-tournament-rulings"),
]

"""API: players (see matches.api)."""

urlpatterns = []

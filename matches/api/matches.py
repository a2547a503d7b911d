"""API: matches (see matches.api)."""

urlpatterns = []

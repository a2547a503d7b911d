"""API: imports (see matches.api)."""

urlpatterns = []

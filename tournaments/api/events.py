"""API: events, entries, draw, rounds, brackets, standings (see tournaments.api)."""

urlpatterns = []

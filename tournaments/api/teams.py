"""API: teams, members and board orders (see tournaments.api)."""

urlpatterns = []

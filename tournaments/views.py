"""Pages: events, entries, brackets, Swiss rounds, standings, the organiser's control page."""

urlpatterns = []

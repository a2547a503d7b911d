"""Pages: matches and players."""

urlpatterns = []

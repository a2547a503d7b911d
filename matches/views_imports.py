"""Pages: .mat imports with their progress."""

urlpatterns = []

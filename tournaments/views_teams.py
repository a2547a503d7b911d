"""Pages: team match cards and board orders."""

urlpatterns = []

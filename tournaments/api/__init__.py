"""The tournaments app's REST API (mounted under /api/v1/): one module per area, each with its
``urlpatterns``; ``tournaments.api.urls`` joins them."""

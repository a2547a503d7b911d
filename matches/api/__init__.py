"""The matches app's REST API (mounted under /api/v1/): one module per area, each with its
``urlpatterns``; ``matches.api.urls`` joins them."""

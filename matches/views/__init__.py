"""The matches app's pages: one module per area (the match page, claims, clocks, the directory,
imports, paper, penalties, players, ratings, walk-ins), each with its ``urlpatterns``;
``matches.urls`` joins them."""

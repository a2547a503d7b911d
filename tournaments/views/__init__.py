"""An event's server-rendered pages, one module per area: the event's own pages (event), the round
desk, the display screens, the printed sheets, the live page, teams, walk-ins, divisions, re-entry,
payouts, playoffs, corrections, the audit page and the analysis ranking. Each module carries its own
``urlpatterns``, which ``tournaments/urls.py`` includes."""

"""The names people read for a club's, a season's and a night's fields (core.labels): the clubs
forms' labels, which the services' refusals and the API's error ``detail`` name a field by (its
``field`` keeps the API's name). A test keeps them the forms' own words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

CLUB_LABELS = {
    "name": _("Name"),
    "city": _("City"),
    "description": _("Description"),
    "open_to_requests": _("People may ask to join"),
}

SEASON_LABELS = {
    "name": _("Name"),
    "starts_on": _("First day"),
    "ends_on": _("Last day"),
}

NIGHT_LABELS = {
    "date": _("Date"),
    "title": _("Title"),
}

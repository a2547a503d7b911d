"""The names people read for a chouette table's settings (core.labels): the table form's labels,
which a refused setting is named by ("Currency: three letters, such as EUR"); the refusal's
``field`` keeps the API's name. A test keeps them the form's own words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

TABLE_LABELS = {
    "name": _("Name"),
    "stake": _("Stake per point"),
    "currency": _("Currency"),
    "automatic_doubles": _("Automatic doubles (limit; 0: none)"),
    "box_partner_from": _("Box partner from this many players"),
}

"""How the audit log says what webhooks writes: a webhook added, changed (switched off or on, told
of other things), removed, a delivery sent again. Registered on ``audit.hooks.sentences`` by
:class:`webhooks.apps.WebhooksConfig`.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from audit.describe import Sides, data, ltr, who
from audit.hooks import Wording
from core.text import join_list


def _events(values: dict) -> str:
    names = {"results": gettext("results"), "pairings": gettext("pairings"), "rulings": gettext("rulings")}
    chosen = [names[event] for event in values.get("events") or [] if event in names]
    return join_list(chosen) if chosen else gettext("nothing")


def _values(entry) -> dict:
    shown = data(entry.after) or data(entry.before)
    return {"who": who(entry), "host": ltr(shown.get("host") or gettext("an address")), "events": _events(shown)}


def created_sentence(entry, sides: Sides) -> str:
    if not (data(entry.after) or data(entry.before)).get("events"):
        return gettext("%(who)s added a webhook to %(host)s.") % _values(entry)
    return gettext("%(who)s had the %(events)s sent to %(host)s.") % _values(entry)


def changed_sentence(entry, sides: Sides) -> str:
    """Switched off, switched on, or told of other things."""
    before, after = data(entry.before), data(entry.after)
    values = _values(entry)
    if after.get("active") is False and before.get("active") is not False:
        return gettext("%(who)s switched off the webhook to %(host)s.") % values
    if after.get("active") and before.get("active") is False:
        return gettext("%(who)s switched on the webhook to %(host)s.") % values
    if not after.get("events"):
        return gettext("%(who)s changed the webhook to %(host)s.") % values
    return gettext("%(who)s changed the webhook: the %(events)s now go to %(host)s.") % values


def deleted_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s removed the webhook to %(host)s.") % _values(entry)


def redelivered_sentence(entry, sides: Sides) -> str:
    return gettext("%(who)s sent a delivery to %(host)s again.") % _values(entry)


WORDING = Wording("webhooks", {
    "webhook.created": (gettext_lazy("Webhook added"), created_sentence),
    "webhook.changed": (gettext_lazy("Webhook changed"), changed_sentence),
    "webhook.deleted": (gettext_lazy("Webhook removed"), deleted_sentence),
    "webhook.redelivered": (gettext_lazy("Webhook delivery sent again"), redelivered_sentence),
})

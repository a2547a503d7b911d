"""How webhooks listens to the apps below it (connected by :class:`webhooks.apps.WebhooksConfig`):
a confirmed result (``matches.hooks.result_confirmed``), a paired round or a draw
(``tournaments.hooks.round_paired``) and a ruling (``rulings.hooks.ruling_made``) each write
their deliveries in the change's own transaction, after every other callback (``ORDER_TOLD``): a
change that any of them refuses rolls back with its deliveries, and nothing is sent.

And the sentences of its audit actions (audit.describe)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from audit import describe
from matches import hooks
from rulings import hooks as rulings_hooks
from tournaments import hooks as tournaments_hooks

from . import services

#: After the match's records (10) and what builds on the result (20): the change is whole then.
ORDER_TOLD = 90


def _result_confirmed(*, match, actor, ruled_dispute) -> None:
    services.deliveries_for_result(match=match)


def _round_paired(*, tournament, round_number, pairings, actor) -> None:
    services.deliveries_for_round(tournament=tournament, round_number=round_number, pairings=pairings)


def _ruling_made(*, ruling, match) -> None:
    services.deliveries_for_ruling(ruling=ruling, match=match)


# --- the audit log's sentences ----------------------------------------------------------------------


def _events(values: dict) -> str:
    names = {"results": gettext("results"), "pairings": gettext("pairings"), "rulings": gettext("rulings")}
    chosen = [names[event] for event in values.get("events") or [] if event in names]
    return ", ".join(chosen) if chosen else gettext("nothing")


def _host(values: dict) -> str:
    return describe.ltr(values.get("host") or gettext("an address"))


def webhook_sentence(entry, sides) -> str:
    before, after = describe.data(entry.before), describe.data(entry.after)
    values = {"who": describe.who(entry), "host": _host(after or before), "events": _events(after or before)}
    if entry.action == "webhook.created":
        if not (after or before).get("events"):
            return gettext("%(who)s added a webhook to %(host)s.") % values
        return gettext("%(who)s had the %(events)s sent to %(host)s.") % values
    if entry.action == "webhook.deleted":
        return gettext("%(who)s removed the webhook to %(host)s.") % values
    if entry.action == "webhook.redelivered":
        return gettext("%(who)s sent a delivery to %(host)s again.") % values
    if after.get("active") is False and before.get("active") is not False:
        return gettext("%(who)s switched off the webhook to %(host)s.") % values
    if after.get("active") and before.get("active") is False:
        return gettext("%(who)s switched on the webhook to %(host)s.") % values
    if not after.get("events"):
        return gettext("%(who)s changed the webhook to %(host)s.") % values
    return gettext("%(who)s changed the webhook: the %(events)s now go to %(host)s.") % values


AUDIT_ACTIONS = {
    "webhook.created": gettext_lazy("Webhook added"),
    "webhook.changed": gettext_lazy("Webhook changed"),
    "webhook.deleted": gettext_lazy("Webhook removed"),
    "webhook.redelivered": gettext_lazy("Webhook delivery sent again"),
}


def connect() -> None:
    describe.describers_register({action: (label, webhook_sentence) for action, label in AUDIT_ACTIONS.items()})
    hooks.result_confirmed.connect(_result_confirmed, name="webhooks.result_confirmed", order=ORDER_TOLD)
    tournaments_hooks.round_paired.connect(_round_paired, name="webhooks.round_paired", order=ORDER_TOLD)
    rulings_hooks.ruling_made.connect(_ruling_made, name="webhooks.ruling_made", order=ORDER_TOLD)

"""How webhooks listens to the apps below it (connected by :class:`webhooks.apps.WebhooksConfig`):
a confirmed result (``matches.hooks.result_confirmed``), a paired round or a draw
(``tournaments.hooks.round_paired``) and a ruling (``rulings.hooks.ruling_made``) each write
their deliveries in the change's own transaction, after every other callback (``ORDER_TOLD``): a
change that any of them refuses rolls back with its deliveries, and nothing is sent."""

from __future__ import annotations

from audit.hooks import sentences
from matches import hooks
from rulings import hooks as rulings_hooks
from tournaments import hooks as tournaments_hooks

from . import services, wording

#: After the match's records (10) and what builds on the result (20): the change is whole then.
ORDER_TOLD = 90


def _result_confirmed(*, match, actor, ruled_dispute) -> None:
    services.deliveries_for_result(match=match)


def _round_paired(*, tournament, round_number, pairings, actor) -> None:
    services.deliveries_for_round(tournament=tournament, round_number=round_number, pairings=pairings)


def _ruling_made(*, ruling, match) -> None:
    services.deliveries_for_ruling(ruling=ruling, match=match)


def connect() -> None:
    sentences.register(wording.WORDING)
    hooks.result_confirmed.connect(_result_confirmed, name="webhooks.result_confirmed", order=ORDER_TOLD)
    tournaments_hooks.round_paired.connect(_round_paired, name="webhooks.round_paired", order=ORDER_TOLD)
    rulings_hooks.ruling_made.connect(_ruling_made, name="webhooks.ruling_made", order=ORDER_TOLD)

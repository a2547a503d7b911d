"""What rulings does when a match's result changes (see ``matches.hooks``), registered by
:class:`rulings.apps.RulingsConfig` when the app is ready.

Both run first (``ORDER_MATCH_RECORDS``), before an event's draw builds on the result.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from matches import hooks

from .models import Dispute
from .services.disputes import dispute_open_automatic, disputes_settle_automatic


def _result_confirmed(*, match, actor, ruled_dispute) -> None:
    # A score dispute the reports opened ends with a confirmed result (agreed, or entered by the director).
    disputes_settle_automatic(match=match, actor=actor, ruled=ruled_dispute)


def _result_disputed(*, match, user, statement) -> None:
    dispute_open_automatic(match=match, user=user, statement=statement)


#: A dispute keeps its match for good (``Dispute.match`` is PROTECT): a match with one has started.
DISPUTE_RECORD = hooks.MatchRecord(
    name="dispute", why="a dispute was opened on it",
    exists=lambda: Exists(Dispute.objects.filter(match_id=OuterRef("pk"))),
)


def register() -> None:
    hooks.match_record_register(DISPUTE_RECORD)
    hooks.result_confirmed.connect(_result_confirmed, name="rulings.disputes_settle_automatic",
                                   order=hooks.ORDER_MATCH_RECORDS)
    hooks.result_disputed.connect(_result_disputed, name="rulings.dispute_open_automatic",
                                  order=hooks.ORDER_MATCH_RECORDS)

"""What rulings does when a match's result changes (see ``matches.hooks``), registered by
:class:`rulings.apps.RulingsConfig` when the app is ready.

Both run first (``ORDER_MATCH_RECORDS``), before an event's draw builds on the result.
"""

from __future__ import annotations

from matches import hooks

from .services.disputes import dispute_open_automatic, disputes_settle_automatic


def _result_confirmed(*, match, actor, ruled_dispute) -> None:
    # A score dispute the reports opened ends with a confirmed result (agreed, or entered by the director).
    disputes_settle_automatic(match=match, actor=actor, ruled=ruled_dispute)


def _result_disputed(*, match, user, statement) -> None:
    dispute_open_automatic(match=match, user=user, statement=statement)


def register() -> None:
    hooks.result_confirmed.connect(_result_confirmed, name="rulings.disputes_settle_automatic",
                                   order=hooks.ORDER_MATCH_RECORDS)
    hooks.result_disputed.connect(_result_disputed, name="rulings.dispute_open_automatic",
                                  order=hooks.ORDER_MATCH_RECORDS)

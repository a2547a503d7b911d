"""What tournaments does when a match's result changes (see ``matches.hooks``), registered by
:class:`tournaments.apps.TournamentsConfig` when the app is ready.

A confirmed, overridden or reopened result of an event's match syncs the event's draw in the
same transaction (``tournament_result_confirmed``), after the match's own records
(``ORDER_BUILT_ON``): a change the draw refuses rolls the whole change back.
"""

from __future__ import annotations

from matches import hooks

from .services import tournament_result_confirmed


def _result_changed(*, match, **_payload) -> None:
    tournament_result_confirmed(match=match)


def register() -> None:
    hooks.result_confirmed.connect(_result_changed, name="tournaments.tournament_result_confirmed",
                                   order=hooks.ORDER_BUILT_ON)
    hooks.result_reopened.connect(_result_changed, name="tournaments.tournament_result_confirmed",
                                  order=hooks.ORDER_BUILT_ON)

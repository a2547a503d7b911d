"""An ABT-style modified Swiss stops and plays its playoffs.

The rule is :mod:`tournaments.draw.abt`'s (who can still cash, who can still win, when the Swiss
stops); this module wires it to an event whose ``abt_playoffs`` is on:

- after every complete Swiss round the contention is counted with the rounds left
  (``swiss_rounds`` minus the rounds played) and the paid places (``abt_paid_places``, else the
  number of the main flight's paid places in ``payouts``);
- once the players who can still cash are no more than the paid places (or no round is left),
  the Swiss stops and those players, in the order of the Swiss table, are the playoffs' seeds:
  the last confirmation of the round does it (``advance.tournament_result_confirmed``), or the
  event's director from the round page (:func:`tournament_playoffs_start`);
- the playoffs are a single-elimination bracket with byes to the top seeds
  (:func:`tournaments.draw.abt.playoff_bracket`), flight ``playoffs``, at the published
  ``lengths["playoffs"]`` (else the rounds' length). Three players: the *published shape* is the
  USBGF's standard playoff for a three-way tie on the ABT, its "contingent bye" (effective for
  every ABT tournament from June 2018; the ABT Policy and Formula document, usbgf.org): one
  player has a contingent bye into the final (the USBGF draws him among those with the fewest
  byes; we take the best placed of them), the other two play, the winner meets him; if he loses
  the final he is third and the player beaten in the first match second
  (``tournaments/draw/abt.py``: ``contingent_bye_first``, ``contingent_bye_places``);
- the players who could still cash but no longer win the Swiss when it stopped are kept
  (``abt_playoff["cash_only"]``) and shown as such; the playoff decides their place like the others'.

How the rows encode it: ``Tournament.abt_playoff`` keeps the round after which the Swiss stopped,
the paid places counted and the seeds (entry ids, best first); a playoff pairing is stored once
it has a player (``playoffs-<bracket round>-<n>``, ``round_number`` the Swiss rounds plus its
bracket round, with a ``Round`` row so that the round pages and the desk show it), its match
made once both players are known. Every write runs under the event's lock, in the caller's
transaction.
"""

from __future__ import annotations

from django.db import transaction

from tournaments import errors, formats
from tournaments.models import Tournament

from . import state
from .advance import playoffs_draw
from .common import require_organiser, tournament_lock
from .contention import event_contention, playoffs_started


@transaction.atomic
def tournament_playoffs_start(*, tournament_id: int, user) -> Tournament:
    """The director stops a modified Swiss and draws its playoffs (the same step as the round's
    last confirmation takes: see the module docstring): the players who can still cash, in the
    order of the Swiss table, play a single-elimination bracket with byes to the top seeds (three
    players: the USBGF's contingent bye, see the module docstring: the best placed of those with
    the fewest byes waits in the final, the other two play for the other seat). The pairings
    whose players are known get their matches; ``Tournament.abt_playoff`` records the round, the
    paid places, the seeds and who could still cash but no longer win. Audited as
    ``tournament.playoffs_started`` (and ``match.created`` per match).

    Raises NotAllowed ``not_organiser``; Conflict ``not_swiss``, ``abt_off`` (not a modified
    Swiss), ``not_drawn``, ``tournament_finished``, ``playoffs_started``, ``round_incomplete``
    (a match of the current round has no confirmed result), ``not_time_for_playoffs`` (more
    players can still cash than there are paid places: the Swiss goes on). Nothing changes on
    failure."""
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    formats.format_of(tournament).playoffs_start(tournament, user)
    return tournament


def swiss_playoffs_start(tournament: Tournament, user) -> None:
    """:func:`tournament_playoffs_start` of a Swiss, under its lock: Conflict ``abt_off`` unless it
    is a modified Swiss, then as said there."""
    if not tournament.abt_playoffs:
        raise errors.abt_off()
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    if tournament.status != Tournament.Status.RUNNING:
        raise errors.not_drawn()
    if playoffs_started(tournament):
        raise errors.playoffs_started()
    loaded = state.load(tournament)
    found = event_contention(loaded)
    if found is None:
        raise errors.abt_off()
    if not found.complete:
        missing = [p for p in loaded.pairings if p.round_number == found.played and state.has_matches(p)
                   and not state.is_confirmed(p)]
        raise errors.round_incomplete(found.played, len(missing))
    playoffs_draw(tournament, loaded, found, user)

"""Issue 17, point 6 (abt17): an ABT-style modified Swiss stops and plays its playoffs.

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
  usual three-player playoff of a modified Swiss, as ``tournaments/draw/abt.py`` states it: the
  first seed has a bye into the final, the second and third seeds play for the other seat of the
  final and the loser of that match is third;
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

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from tournaments import errors
from tournaments.draw import DrawError, advance
from tournaments.draw.abt import Contention, contention, playoff, playoff_bracket
from tournaments.draw.bracket import READY
from tournaments.models import Pairing, Round, Tournament

from . import state
from .advance import Refuse, _drop_matches, pairing_matches_create
from .audit import entrant_names, event_audit_record, pairing_summary
from .common import require_organiser, tournament_lock


def paid_places(tournament: Tournament) -> int | None:
    """The paid places the move to playoffs counts: the event's own number, else the number of
    its main flight's paid places; None when it has neither."""
    if tournament.abt_paid_places:
        return tournament.abt_paid_places
    main = (tournament.payouts or {}).get("main")
    return len(main["percentages"]) if main and main.get("percentages") else None


def playoffs_started(tournament: Tournament) -> bool:
    return bool(tournament.abt_playoff)


@dataclass(frozen=True)
class EventContention:
    """Where a modified Swiss stands: ``played`` Swiss rounds paired of ``rounds``, whether the
    last one is ``complete``, and the draw's :class:`~tournaments.draw.abt.Contention` (counted
    generously while a round is in play: a player's match still to play counts as one he may
    win, so nobody is put out of the money too soon)."""

    played: int
    rounds: int
    complete: bool
    state: Contention


def swiss_rounds_played(loaded: state.Loaded) -> tuple[int, bool]:
    """The last Swiss round paired (0 before any) and whether every match of it is confirmed."""
    swiss = [p for p in loaded.pairings if p.flight != state.PLAYOFFS]
    current = max((p.round_number for p in swiss), default=0)
    complete = current > 0 and all(state.is_confirmed(p) for p in swiss
                                   if p.round_number == current and state.has_matches(p))
    return current, complete


def event_contention(loaded: state.Loaded) -> EventContention | None:
    """The contention of a modified Swiss (None for any other event, or one without its paid
    places or rounds). Reads nothing more than ``loaded``. Raises nothing: the rules were checked
    when the event was made."""
    tournament = loaded.tournament
    paid = paid_places(tournament)
    if not tournament.abt_playoffs or tournament.format != Tournament.Format.SWISS or not paid \
            or not tournament.swiss_rounds:
        return None
    played, complete = swiss_rounds_played(loaded)
    remaining = max(tournament.swiss_rounds - played, 0) + (0 if complete or played == 0 else 1)
    return EventContention(played, tournament.swiss_rounds, complete,
                           contention(state.swiss_table(loaded), remaining=remaining, paid=paid))


def _playoffs_draw(tournament: Tournament, loaded: state.Loaded, found: EventContention, actor) -> None:
    """Stop the Swiss after round ``found.played`` and draw the playoffs among the players who can
    still cash (``found.state`` must say it is time). Audited as ``tournament.playoffs_started``."""
    try:
        playoff(found.state, lengths=state.schedule(tournament, "playoffs"), flight=state.PLAYOFFS)
    except DrawError as error:
        raise errors.from_draw(error) from None
    seeds = list(found.state.can_cash)
    tournament.abt_playoff = {"after_round": found.played, "paid": found.state.paid, "seeds": seeds,
                              "cash_only": list(found.state.cash_only)}
    tournament.save(update_fields=["abt_playoff", "version"])
    playoffs_sync(tournament, loaded, created_by=actor, refuse=lambda dependent, why: errors.playoffs_started(),
                  audit=False)
    names = entrant_names(loaded)
    event_audit_record("tournament.playoffs_started", actor=actor, tournament=tournament, obj=tournament,
                       after={"round": found.played, "paid": found.state.paid,
                              "seeds": [names.get(e) for e in seeds],
                              "cash_only": [names.get(e) for e in found.state.cash_only],
                              "pairings": [pairing_summary(p, names) for p in loaded.pairings
                                           if p.flight == state.PLAYOFFS]})


def playoffs_after_round(tournament: Tournament, loaded: state.Loaded, *, actor) -> bool:
    """After a Swiss result was confirmed (under the event's lock, in the confirmation's
    transaction): when it completed the round and the players who can still cash are no more
    than the paid places, the Swiss stops and the playoffs are drawn. Returns whether they were.
    Nothing happens for an event that is not a modified Swiss or has started its playoffs."""
    if playoffs_started(tournament) or tournament.status != Tournament.Status.RUNNING:
        return False
    found = event_contention(loaded)
    if found is None or not found.complete or not found.state.to_playoffs:
        return False
    _playoffs_draw(tournament, loaded, found, actor)
    return True


@transaction.atomic
def tournament_playoffs_start(*, tournament_id: int, user) -> Tournament:
    """The director stops a modified Swiss and draws its playoffs (the same step as the round's
    last confirmation takes: see the module docstring): the players who can still cash, in the
    order of the Swiss table, play a single-elimination bracket with byes to the top seeds (three
    players: seed 1 waits in the final, seeds 2 and 3 play for the other seat). The pairings
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
    if tournament.format != Tournament.Format.SWISS:
        raise errors.not_swiss()
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
    _playoffs_draw(tournament, loaded, found, user)
    return tournament


def playoffs_state(loaded: state.Loaded):
    """Where the playoffs stand (the draw's ``BracketState`` of the playoff bracket after its
    confirmed results), or None before they are drawn or when one player alone could cash.
    Reads nothing more than ``loaded``. Raises ``DrawError`` when a confirmed result no longer
    fits its match (the services refuse such a correction first)."""
    seeds = (loaded.tournament.abt_playoff or {}).get("seeds") or []
    if len(seeds) < 2:
        return None
    bracket = playoff_bracket(seeds, lengths=state.schedule(loaded.tournament, "playoffs"), flight=state.PLAYOFFS)
    results = {}
    for pairing in loaded.pairings:
        if pairing.flight == state.PLAYOFFS:
            winner = state.winner_entry(pairing, loaded.by_id, bracket=True)
            if winner is not None:
                results[pairing.key] = winner
    return advance(bracket, results)


def playoffs_sync(tournament: Tournament, loaded: state.Loaded, *, created_by, refuse: Refuse,
                  audit: bool = True) -> None:
    """Bring the stored playoff pairings in line with the playoffs' confirmed results: a pairing
    is written once it has a player, its match made once both are known (as ``bracket_sync``
    does for a bracket event); a pairing whose players changed (a corrected result) loses its
    match if it has not started (``refuse`` says why otherwise) and is written again. Runs in the
    caller's transaction under the event's lock; ``loaded`` is kept what :func:`state.load`
    would read. Audited as ``pairing.entrants_set`` (or ``_cleared``) and ``match.created`` under
    ``created_by``; the draw of the playoffs passes ``audit=False`` for the pairings it writes, which
    its own ``tournament.playoffs_started`` entry lists. Raises what ``refuse`` returns."""
    if len((tournament.abt_playoff or {}).get("seeds") or []) < 2:
        return
    after = tournament.abt_playoff["after_round"]
    stored = {p.key: p for p in loaded.pairings if p.flight == state.PLAYOFFS}
    try:
        view = playoffs_state(loaded)
    except DrawError as error:  # a confirmed result whose players changed under it
        raise refuse(str(error.details.get("match", gettext("a later match"))), gettext("has a confirmed result")) from None
    stale, gone, changed, new, ready = [], [], [], [], []
    for match_state in view.matches:
        expected = state.expected_entries(match_state)
        pairing = stored.get(match_state.match.id)
        if pairing is None:
            if expected != (None, None):
                pairing = Pairing(tournament=tournament, key=match_state.match.id, flight=state.PLAYOFFS,
                                  round_number=after + match_state.match.round, entry0_id=expected[0],
                                  entry1_id=expected[1], length=match_state.match.length)
                new.append(pairing)
                if match_state.status == READY:
                    ready.append(pairing)
            continue
        if (pairing.entry0_id, pairing.entry1_id) == expected:
            if match_state.status == READY and pairing.match_id is None:
                ready.append(pairing)
            continue
        if pairing.match_id is not None:
            stale.append(pairing)
        before = pairing_summary(pairing)
        if expected == (None, None):
            gone.append((pairing, before))
        else:
            changed.append((pairing, before, expected))
            if match_state.status == READY:
                ready.append(pairing)
    if stale:
        _drop_matches(stale, refuse, created_by)
    for pairing, _before, expected in changed:
        pairing.entry0_id, pairing.entry1_id = expected
    if gone:
        Pairing.objects.filter(pk__in=[p.pk for p, _ in gone]).delete()
    pairing_matches_create(tournament, ready, loaded, created_by)
    if new:
        Pairing.objects.bulk_create(new)
        for pairing in new:
            pairing.has_reports = False
    existing = [p for p in {id(p): p for p in [*(p for p, _, _ in changed), *ready]}.values() if p.pk]
    if existing:
        Pairing.objects.bulk_update(existing, ["entry0", "entry1", "match", "handicap0", "handicap1"])
    numbers = {p.round_number for p in new}
    if numbers:
        Round.objects.bulk_create([Round(tournament=tournament, number=n) for n in sorted(numbers)],
                                  ignore_conflicts=True)
    dropped = {p.pk for p, _ in gone}
    loaded.pairings = [p for p in loaded.pairings if p.pk not in dropped] + new
    loaded.by_key = {p.key: p for p in loaded.pairings}
    names = entrant_names(loaded)
    if audit:
        for pairing in new:
            event_audit_record("pairing.entrants_set", actor=created_by, tournament=tournament, obj=pairing,
                               match_id=pairing.match_id, before={"key": pairing.key, "entries": [None, None],
                                                                  "match": None},
                               after=pairing_summary(pairing, names))
    for pairing, before, _expected in changed:
        event_audit_record("pairing.entrants_set", actor=created_by, tournament=tournament, obj=pairing,
                           match_id=pairing.match_id, before=before, after=pairing_summary(pairing, names))
    for pairing, before in gone:
        event_audit_record("pairing.entrants_cleared", actor=created_by, tournament=tournament, obj=pairing,
                           object_id=pairing.pk, before=before, after={"key": pairing.key, "entries": [None, None]})

"""Advancement: confirmed results move the draw on; corrections reset what depends on them.

Everything here runs under the tournament's row lock (taken by the caller or here), inside the
caller's transaction: when a correction is refused the whole override rolls back. The bracket is
rebuilt and synced by ``draw_sync.bracket_sync``, a Swiss round paired and written by
``swiss_rounds``.

A confirmation does not rebuild the whole bracket: it reads the confirmed pairing and the pairings
its result feeds as plain values and writes what the full rebuild would write there
(``bracket_reads.bracket_plan``), in a constant number of queries whatever the event's size. Only
when the change reaches a pairing whose match exists (a correction: that match must be reset, or
the change refused) does it fall back to ``bracket_sync`` on the whole event. A Swiss confirmation
asks in one query whether a later round is paired (only then can it change anything).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext

from matches.models import Match
from tournaments import errors, formats
from tournaments.draw import DrawError
from tournaments.draw.abt import playoff
from tournaments.draw.bracket import READY
from tournaments.models import Entry, Pairing, Round, Tournament, event_id_of

from . import bracket_reads, contention, state
from .audit import entrant_names, event_audit_record, pairing_summary
from .common import tournament_lock
from .draw_sync import Refuse, bracket_sync, drop_matches, pairing_matches_create, refuse_for
from .naming import match_namer
from .swiss_rounds import pairs_the_same, swiss_corrected

# --- the hook ------------------------------------------------------------------------------------


def tournament_result_confirmed(*, match: Match) -> None:
    """Called through ``matches.hooks`` (``result_confirmed``, ``result_reopened``: see
    ``tournaments.hooks``) inside the transaction that confirms, overrides or reopens ``match``'s
    result; a match outside any event changes nothing.

    Locks the tournament row, then: in a bracket, advances it (next pairings' entries, their
    matches; byes and walkovers go through); after a correction that changes who plays a later
    match, resets that match (deleted if it has not started) and advances again; in a Swiss, a
    correction of a round already paired on re-pairs the next round the same way. Round robin
    matches all exist from the draw: nothing to do. Idempotent: a second call changes nothing.
    A first confirmation reads only what its result feeds (see the module docstring); team
    events and corrections read the whole event.
    Raises Conflict ``result_built_on`` when the change would reset a match that has started (or
    that already has a confirmed result): the caller's transaction, the override, rolls back; a
    director resets those through ``corrections.result_correct``, which shows them first. Raises
    Conflict ``tournament_finished`` when the change would move a finished event's bracket (its
    director reopens it first: ``events.event_reopen``).
    """
    event_id = event_id_of(match)
    if event_id is None:
        return
    tournament = tournament_lock(event_id)
    if tournament.status == Tournament.Status.CANCELLED:
        return  # a cancelled event's draw moves no more (services/life.py); the result itself stands
    formats.format_of(tournament).result_confirmed(tournament, match)


#: How many times a confirmation reads more pairings as its change walks down the bracket (each
#: bye or walkover it goes through may need one more read) before leaving it to the full sync.
MAX_ROW_READS = 16


def bracket_confirmed(tournament: Tournament, match: Match) -> None:
    """Advance a bracket after ``match``'s result changed, reading only the pairings the result
    feeds (see ``bracket_reads.bracket_plan``): a constant number of queries whatever the event's size.
    A change that reaches a pairing with a match (a correction) goes to :func:`bracket_sync` on
    the whole event, which resets what depends on it or refuses."""
    found = bracket_reads.confirmed_row(tournament, match.pk)
    if found is None:
        return  # a match of the event outside its draw
    source, entrants = found
    plan = None
    try:
        routes = bracket_reads.bracket_routes(tournament, entrants)
        keys = bracket_reads.bracket_plan_keys(routes, entrants, source.key)
        rows = {source.key: source, **bracket_reads.bracket_rows(tournament, keys)}
        for _ in range(MAX_ROW_READS):
            try:
                plan = bracket_reads.bracket_plan(routes, entrants, rows, source.key)
                break
            except bracket_reads.NeedRows as need:
                missing = need.keys - rows.keys()
                rows.update(bracket_reads.bracket_rows(tournament, missing))
                if missing.isdisjoint(rows):
                    break  # no such row: only the full sync can say what is wrong
    except (bracket_reads.Unplannable, DrawError):
        plan = None
    if tournament.status == Tournament.Status.FINISHED and (plan is None or plan.entries or plan.ready):
        # A finished event's placings are final: its director reopens it first (event_reopen).
        raise errors.finished_built_on(match_namer(tournament)(source.key), tournament.name, key=source.key)
    if plan is None:
        loaded = state.load(tournament)
        bracket_sync(tournament, loaded, created_by=tournament.organiser,
                     refuse=refuse_for(tournament, loaded.by_key[source.key]))
        return
    _bracket_plan_write(tournament, plan, rows)


def _bracket_plan_write(tournament: Tournament, plan: bracket_reads.BracketPlan,
                        rows: dict[str, bracket_reads.BracketRow]) -> None:
    """Write ``plan`` as :func:`bracket_sync` writes its difference: the entries, a match for each
    pairing that became ready, and ``pairing.entrants_set`` (or ``_cleared``) under the event's
    organiser once the matches exist."""
    keys = [*plan.entries, *(key for key in plan.ready if key not in plan.entries)]
    if not keys:
        return
    pairings = {}
    for key in keys:
        row = rows[key]
        pairings[key] = Pairing(pk=row.pk, tournament=tournament, key=key, flight=row.flight,
                                round_number=row.round_number, length=row.length, entry0_id=row.entry0,
                                entry1_id=row.entry1, match_id=row.match_id)
    wanted = {e for key in keys for e in (*plan.entries.get(key, ()), rows[key].entry0, rows[key].entry1) if e}
    entries = list(Entry.objects.filter(pk__in=wanted).select_related("side__player_a", "side__player_b", "team"))
    loaded = state.Loaded(tournament, entries, list(pairings.values()))
    created_by = tournament.organiser
    changed = []
    for key, expected in plan.entries.items():
        pairing = pairings[key]
        before = pairing_summary(pairing)
        pairing.entry0_id, pairing.entry1_id = expected
        changed.append((pairing, before))
    pairing_matches_create(tournament, [pairings[key] for key in plan.ready], loaded, created_by)
    # The matches first, so that each pairing's entries and match are written in one UPDATE.
    Pairing.objects.bulk_update(list(pairings.values()), ["entry0", "entry1", "match", "handicap0", "handicap1"])
    if changed:
        names = entrant_names(loaded)
        for pairing, before in changed:
            action = "pairing.entrants_set" if pairing.entry0_id or pairing.entry1_id else "pairing.entrants_cleared"
            event_audit_record(action, actor=created_by, tournament=tournament, obj=pairing, match_id=pairing.match_id,
                               before=before, after=pairing_summary(pairing, names))


def swiss_confirmed(tournament: Tournament, match: Match) -> None:
    """A Swiss result changes nothing while no later round is paired (the next round is paired by
    the organiser): one query says so. Otherwise see :func:`swiss_corrected`."""
    # The Round rows go with the pairings (paired and reset together) and their unique index on
    # (tournament, number) answers without reading the event's pairings.
    later = Round.objects.filter(tournament=tournament, number__gt=OuterRef("round_number"))
    found = (Pairing.objects.filter(tournament=tournament, match_id=match.pk).order_by().annotate(later=Exists(later))
             .values("key", "later").first())
    if found is not None and tournament.abt_playoffs:  # a modified Swiss with playoffs
        _modified_swiss_confirmed(tournament, found["key"], bool(found["later"]))
        return
    if found is None or not found["later"]:
        return
    loaded = state.load(tournament)
    swiss_corrected(tournament, loaded, loaded.by_key[found["key"]])


def _modified_swiss_confirmed(tournament: Tournament, key: str, later: bool) -> None:
    """A result of a modified Swiss (``services.playoffs``). A playoff
    result moves the playoffs on. A Swiss result completing its round may stop the Swiss for the
    playoffs. Once they are drawn, a corrected Swiss result stands only if every later Swiss round
    still pairs the same and the same players still play the playoffs (Conflict
    ``result_built_on`` otherwise: the playoffs were drawn from the table it gives)."""
    loaded = state.load(tournament)
    pairing = loaded.by_key[key]
    if pairing.flight == state.PLAYOFFS:
        playoffs_sync(tournament, loaded, created_by=tournament.organiser, refuse=refuse_for(tournament, pairing))
        return
    if contention.playoffs_started(tournament):
        stopped = tournament.abt_playoff
        swiss_later = sorted({p.round_number for p in loaded.pairings
                              if p.flight != state.PLAYOFFS and p.round_number > pairing.round_number})
        if state.has_matches(pairing) and not state.is_confirmed(pairing):
            raise errors.playoffs_changed(match_namer(tournament, loaded)(pairing.key), key=pairing.key)
        if any(not pairs_the_same(tournament, loaded, k) for k in swiss_later):
            raise errors.playoffs_changed(match_namer(tournament, loaded)(pairing.key), key=pairing.key)
        table = state.swiss_table(loaded)
        again = contention.contention(table, paid=stopped["paid"],
                                      remaining=max(tournament.swiss_rounds - stopped["after_round"], 0))
        if contention.playoff_seeds(table, again) != list(stopped["seeds"]):
            raise errors.playoffs_changed(match_namer(tournament, loaded)(pairing.key), key=pairing.key)
        return
    if later:
        swiss_corrected(tournament, loaded, pairing)
        return
    playoffs_after_round(tournament, loaded, actor=tournament.organiser)


# --- a modified Swiss's playoffs (see ``services.playoffs``) -------------------------------------


def playoffs_draw(tournament: Tournament, loaded: state.Loaded, found: contention.EventContention, actor) -> None:
    """Stop the Swiss after round ``found.played`` and draw the playoffs among the players who can
    still cash (``found.state`` must say it is time), in the order of
    :func:`contention.playoff_seeds` (three players: the USBGF's contingent bye first). Audited as
    ``tournament.playoffs_started``."""
    try:
        playoff(found.state, lengths=state.schedule(tournament, "playoffs"), flight=state.PLAYOFFS)
    except DrawError as error:
        raise errors.from_draw(error) from None
    seeds = contention.playoff_seeds(state.swiss_table(loaded), found.state)
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
    if contention.playoffs_started(tournament) or tournament.status != Tournament.Status.RUNNING:
        return False
    found = contention.event_contention(loaded)
    if found is None or not found.complete or not found.state.to_playoffs:
        return False
    playoffs_draw(tournament, loaded, found, actor)
    return True


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
        view = contention.playoffs_state(loaded)
    except DrawError as error:  # a confirmed result whose players changed under it
        raise refuse(str(error.details.get("match", gettext("a later match"))), gettext("has a confirmed result")) from None
    stale, gone, changed, new, ready = [], [], [], [], []
    for match_state in view.matches:
        expected = bracket_reads.expected_entries(match_state)
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
        drop_matches(stale, refuse, created_by)
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

"""The draw's matches written, and a bracket synced with its results.

Everything here runs under the tournament's row lock (taken by the caller), inside the caller's
transaction: when a correction is refused the whole override rolls back.

The bracket is never advanced step by step. :func:`bracket_sync` rebuilds where the bracket
stands from the stored draw and the CONFIRMED results (``tournaments.services.state``), compares
it with the stored pairings, and writes the difference: entries filled when known, the match of
every pairing that became ready, and (after a correction or a late entrant filling a bye) the
removal of matches whose players changed. Running it twice changes nothing the second time, so a
confirmation delivered twice, or two confirmations serialised by the lock, can never create a
match twice (and ``pairing_key_once_per_event`` plus the one-to-one ``Pairing.match`` would refuse
it if a code path ever forgot the lock).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from core.bulk import rows_update
from core.errors import DomainError
from core.locking import locked
from matches import hooks
from matches.models import Match, Report
from matches.services.matches import MatchSpec, match_create_many, match_summary
from matches.services.ratings import match_rating_revert
from tournaments import errors
from tournaments.draw import DrawError
from tournaments.draw.bracket import READY, is_stale
from tournaments.models import BoardMatch, BoardOrder, Pairing, Tournament

from . import bracket_reads, state, teams
from .audit import entrant_names, event_audit_record, pairing_summary
from .clocks import event_match_clock
from .divisions import handicap_for
from .naming import match_namer

#: refuse(dependent pairing key, why) -> the error to raise when a change would reset a match
#: that has started.
Refuse = Callable[[str, str], DomainError]


def pairing_matches_create(tournament: Tournament, pairings: list[Pairing], loaded: state.Loaded, created_by) -> None:
    """Create the scheduled matches of ``pairings`` (each with its two entrants known), with each
    pairing's length and the event's rules, under ``created_by``, in a constant number of queries
    whatever their number (``match_create_many``: the entries' sides as loaded, the matches, their
    event links and ``match.created`` entries each inserted at once). Sets ``pairing.match`` on
    each; for two teams their board matches are created instead (``pairing.match`` None,
    ``pairing.board_rows`` set: see :func:`teams.team_matches_create`). The caller stores
    ``match`` on the pairings. Raises DomainError ``team_too_small``."""
    if created_by is not None and created_by.pk == tournament.organiser_id:
        tournament.organiser = created_by  # the event's organiser is its matches' organiser: no look-up
    solo, team = [], []
    for pairing in pairings:
        # --- team events ---
        if loaded.by_id[pairing.entry0_id].team_id is not None:
            team.append(pairing)
            continue
        # --- end team events ---
        solo.append(pairing)
    if team:
        teams.team_matches_create(tournament, team, loaded, created_by)
        for pairing in team:
            pairing.match = None
    if solo:
        # A match between divisions starts from the handicap table's score.
        for pairing in solo:
            pairing.handicap0, pairing.handicap1 = handicap_for(
                tournament, loaded.by_id[pairing.entry0_id], loaded.by_id[pairing.entry1_id], pairing.length)
        clock = event_match_clock(tournament)  # the event's clock policy
        matches = match_create_many(created_by=created_by, context={"event": tournament}, specs=[
            MatchSpec(side0=loaded.by_id[pairing.entry0_id].side, side1=loaded.by_id[pairing.entry1_id].side,
                      length=pairing.length, crawford=tournament.crawford, move_policy=tournament.move_policy,
                      start=(pairing.handicap0, pairing.handicap1), clock=clock)
            for pairing in solo
        ])
        for pairing, match in zip(solo, matches, strict=True):
            pairing.match = match


def drop_matches(pairings: list[Pairing], refuse: Refuse, actor=None, *, void_started: bool = False) -> None:
    """Delete the matches of ``pairings`` (none may have started) and clear the pairings' entries;
    audited (``pairing.reset``, ``match.deleted`` with the match as it was) under ``actor``.

    With ``void_started`` (a director's correction he was shown first: ``corrections``), a match
    that has started, been reported or confirmed is reset too: its rating change is undone and its
    reports go into its ``match.deleted`` entry. A match someone is reporting on right now, or one
    a row is kept about for good (a dispute), still refuses.

    The matches are locked first, without waiting: a match someone is reporting on right now
    counts as started (waiting could deadlock with that report's own confirmation, which takes the
    match lock and then the tournament's)."""
    if not pairings:
        return
    # --- team events: a team match's boards go with it ---
    board_ids = [b.match_id for p in pairings for b in getattr(p, "board_rows", ())]
    ids = [p.match_id for p in pairings if p.match_id is not None] + board_ids
    # --- end team events ---
    records = hooks.match_records.entries()
    try:
        with transaction.atomic():
            fresh = {
                m.pk: m for m in locked(Match.objects.filter(pk__in=ids), nowait=True)
                .annotate(has_reports=Exists(Report.objects.filter(match_id=OuterRef("pk"))),
                          **{f"kept_by_{record.name}": record.exists() for record in records})
            }
    except DatabaseError:
        raise refuse(pairings[0].key, gettext("is being played or reported right now")) from None
    for pairing in pairings:
        match_ids = [pairing.match_id] + [b.match_id for b in getattr(pairing, "board_rows", ())]
        for match in (fresh.get(pk) for pk in match_ids):
            if match is not None and state.is_started(match, match.has_reports) and not void_started:
                raise refuse(pairing.key, gettext("has started (%(status)s)") % {"status": match.get_status_display().lower()})
            # A row kept about the match for good (a dispute) means it has started.
            for record in records:
                if match is not None and getattr(match, f"kept_by_{record.name}"):
                    raise refuse(pairing.key, gettext("has started (%(status)s)") % {"status": record.why})
    # --- team events: the board orders these team matches locked ---
    played_by = {(e, p.round_number) for p in pairings if getattr(p, "board_rows", ())
                 for e in (p.entry0_id, p.entry1_id) if e is not None}
    # --- end team events ---
    if void_started:
        # Later results first: a player's latest rating change is the one that can be undone.
        for match in sorted(fresh.values(), key=lambda m: m.pk, reverse=True):
            if match.status == Match.Status.CONFIRMED and match.rating_changes.exists():
                match_rating_revert(match=match)
    _audit_drop(pairings, ids, actor, with_reports=void_started)
    for pairing in pairings:
        pairing.match = None
        pairing.entry0_id = pairing.entry1_id = None
        pairing.has_reports = False
        pairing.board_rows = []
        pairing.handicap0 = pairing.handicap1 = 0
    Pairing.objects.bulk_update(pairings, ["match", "entry0", "entry1", "handicap0", "handicap1"])
    BoardMatch.objects.filter(match_id__in=board_ids).delete()
    Match.objects.filter(pk__in=ids).delete()
    _unlock_orders(pairings[0].tournament_id, played_by)


def _audit_drop(pairings: list[Pairing], match_ids: list[int], actor, *, with_reports: bool = False) -> None:
    gone = {m.pk: m for m in Match.objects.filter(pk__in=match_ids).select_related(
        "side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b", "event_link")}
    reports: dict[int, list[dict]] = {}
    if with_reports:  # the voided results' reports live on in the audit log
        for report in Report.objects.filter(match_id__in=match_ids).order_by("pk"):
            reports.setdefault(report.match_id, []).append({
                "side": report.side, "reporter": report.reporter_id, "score": list(report.score),
                "status": report.status, "statement": report.statement,
                "contest_statement": report.contest_statement, "games": len(report.games or ())})
    for pairing in pairings:
        boards = [(None, pairing.match_id)] + [(b.board, b.match_id) for b in getattr(pairing, "board_rows", ())]
        for board, match_id in boards:
            match = gone.get(match_id)
            if match is None:
                continue
            before = {"pairing": pairing.key, **({"board": board} if board else {}), **match_summary(match)}
            if with_reports:
                before["reports"] = reports.get(match_id, [])
            event_audit_record("match.deleted", actor=actor, tournament=pairing.tournament_id, obj=match, match_id=match.pk,
                               before=before, note=f"reset with pairing {pairing.key}")
        event_audit_record("pairing.reset", actor=actor, tournament=pairing.tournament_id, obj=pairing, match_id=pairing.match_id,
                           before=pairing_summary(pairing), after={"key": pairing.key, "entries": [None, None], "match": None})


def _unlock_orders(tournament_id: int, played_by: set[tuple[int, int]]) -> None:
    """Unlock the board order of each (team entry, round) whose team match was just reset before
    it started: the round has not started for the team any more, so its captain may set the
    order again. An order another team match of the team in that round still plays with (its
    boards exist: a double elimination's second match in a round, or a started one) stays
    locked. A Swiss or round robin round that has started keeps its orders locked through
    ``Round.started`` whatever happens here."""
    for entry_id, number in sorted(played_by):
        still_used = BoardMatch.objects.filter(
            Q(pairing__entry0_id=entry_id) | Q(pairing__entry1_id=entry_id),
            pairing__tournament_id=tournament_id, pairing__round_number=number,
        ).exists()
        if not still_used:
            BoardOrder.objects.filter(team__entry__pk=entry_id, round_number=number, locked=True).update(locked=False)


def bracket_sync(tournament: Tournament, loaded: state.Loaded, *, created_by, refuse: Refuse, audit: bool = True) -> None:
    """Bring the stored pairings of a bracket in line with its confirmed results (see the module
    docstring). A pairing whose match was made for other players than the bracket now gives is
    reset (its unstarted match deleted) and made again; if that match has started, or a confirmed
    result no longer fits its match, ``refuse`` says why and nothing is written.

    Every write is audited under ``created_by`` (automatic advancement after a confirmation runs
    under the event's organiser, as the matches it creates do): ``pairing.reset``,
    ``match.deleted``, ``pairing.entrants_set``, ``match.created``. The draw passes ``audit=False``
    for the entrants it sets, because its own ``tournament.drawn`` entry lists every pairing."""
    try:
        view = bracket_reads.bracket_state(loaded)
    except DrawError as error:  # a confirmed result whose players changed under it
        raise refuse(str(error.details.get("match", gettext("a later match"))), gettext("has a confirmed result")) from None
    stale = []
    for match_state in view.state.matches:
        pairing = loaded.by_key[match_state.match.id]
        if not state.has_matches(pairing):  # team events: a team match has boards, no match
            continue
        if is_stale(match_state, (pairing.entry0_id, pairing.entry1_id)):
            if state.pairing_started(pairing):
                status = pairing.match.get_status_display().lower() if pairing.match is not None else gettext("a board has")
                raise refuse(pairing.key, gettext("has started (%(status)s)") % {"status": status})
            stale.append(pairing)
    if stale:
        drop_matches(stale, refuse, created_by)
        view = bracket_reads.bracket_state(loaded)  # walkovers may now apply where a match was dropped
    changed, ready = [], []
    for match_state in view.state.matches:
        pairing = loaded.by_key[match_state.match.id]
        expected = bracket_reads.expected_entries(match_state)
        if (pairing.entry0_id, pairing.entry1_id) != expected:
            before = pairing_summary(pairing)
            pairing.entry0_id, pairing.entry1_id = expected
            changed.append((pairing, before))
        if match_state.status == READY and not state.has_matches(pairing):
            ready.append(pairing)
    if changed:
        rows_update(Pairing, [pairing for pairing, _ in changed], ["entry0", "entry1"])
    pairing_matches_create(tournament, ready, loaded, created_by)
    for pairing in ready:
        pairing.has_reports = False
    rows_update(Pairing, ready, ["match", "handicap0", "handicap1"])
    if changed and audit:  # after the matches are made: an entry names the match its pairing got
        names = entrant_names(loaded)
        for pairing, before in changed:
            action = "pairing.entrants_set" if pairing.entry0_id or pairing.entry1_id else "pairing.entrants_cleared"
            event_audit_record(action, actor=created_by, tournament=tournament, obj=pairing, match_id=pairing.match_id,
                               before=before, after=pairing_summary(pairing, names))


def refuse_for(tournament: Tournament, pairing: Pairing) -> Refuse:
    """The refusal of a change to ``pairing``'s result that a later match (its key) depends on,
    both named by their players and rounds (read from the event when it is raised)."""
    name = match_namer(tournament)
    return lambda dependent, why: errors.result_built_on(name(pairing.key), name(dependent), why, key=dependent)

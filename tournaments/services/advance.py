"""Advancement: confirmed results move the draw on; corrections reset what depends on them.

Everything here runs under the tournament's row lock (taken by the caller or here), inside the
caller's transaction: when a correction is refused the whole override rolls back.

The bracket is never advanced step by step. :func:`bracket_sync` rebuilds where the bracket
stands from the stored draw and the CONFIRMED results (``tournaments.services.state``), compares
it with the stored pairings, and writes the difference: entries filled when known, the match of
every pairing that became ready, and (after a correction or a late entrant filling a bye) the
removal of matches whose players changed. Running it twice changes nothing the second time, so a
confirmation delivered twice, or two confirmations serialised by the lock, can never create a
match twice (and ``pairing_key_once_per_event`` plus the one-to-one ``Pairing.match`` would refuse
it if a code path ever forgot the lock).

A confirmation does not rebuild the whole bracket: it reads the confirmed pairing and the pairings
its result feeds as plain values and writes what the full rebuild would write there
(``bracket_reads.bracket_plan``), in a constant number of queries whatever the event's size. Only when the
change reaches a pairing whose match exists (a correction: that match must be reset, or the
change refused) does it fall back to :func:`bracket_sync` on the whole event. A Swiss confirmation
asks in one query whether a later round is paired (only then can it change anything).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext

from core.bulk import rows_update
from core.errors import DomainError
from core.locking import locked
from matches import hooks
from matches.models import Match, Report
from matches.services.matches import MatchSpec, match_create_many, match_summary
from matches.services.ratings import match_rating_revert
from tournaments import errors, formats
from tournaments.draw import DrawError, NoPairing, SwissOptions, SwissPairing, pair_round, round_length, swiss_records
from tournaments.draw.abt import playoff
from tournaments.draw.bracket import READY, is_stale
from tournaments.draw.names import ROUND, RoundName
from tournaments.hooks import round_paired
from tournaments.models import BoardMatch, BoardOrder, Entry, Pairing, Round, Tournament, event_id_of
from tournaments.round_labels import round_phrase

from . import bracket_reads, contention, state, teams
from .audit import entrant_names, event_audit_record, pairing_summary
from .clocks import event_match_clock
from .common import tournament_lock
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


# --- Swiss ---------------------------------------------------------------------------------------


def swiss_pair(tournament: Tournament, loaded: state.Loaded, *, history=None, withdrawn=None) -> SwissPairing | NoPairing:
    """The draw's pairing of the next Swiss round from the stored rounds. Raises DomainError for
    what the draw calls wrong input."""
    order = loaded.order
    members = set(order)
    clubs = None
    if tournament.forbid_same_club:
        clubs = {e: c for e, c in state.entry_clubs(loaded).items() if e in members}
    out = loaded.withdrawn if withdrawn is None else withdrawn
    try:
        return pair_round(
            order, state.swiss_history(loaded) if history is None else history,
            options=SwissOptions(lengths=state.schedule(tournament, "rounds"), clubs=clubs,
                                 max_losses=tournament.max_losses, method=tournament.swiss_pairing),
            withdrawn=[e for e in out if e in members],
        )
    except DrawError as error:
        raise errors.from_draw(error) from None


def swiss_round_write(tournament: Tournament, loaded: state.Loaded, answer: SwissPairing, created_by) -> Round:
    """Store round ``answer.round``: its Round row, a pairing per board (and one for the bye) and
    the boards' matches (:func:`pairing_matches_create`); the new pairings are added to
    ``loaded``, which so stays what :func:`state.load` would read. Raises Conflict
    ``round_paired`` if the round exists (the unique constraint answers two concurrent pairings
    that slipped past the lock)."""
    number = answer.round
    try:
        with transaction.atomic():
            round_row = Round.objects.create(tournament=tournament, number=number)
    except IntegrityError:
        raise errors.round_paired(number) from None
    rows = [
        Pairing(tournament=tournament, key=p.id, flight=p.flight, round_number=number, entry0_id=p.top,
                entry1_id=p.bottom, length=p.length)
        for p in answer.pairings
    ]
    if answer.bye is not None:
        length = round_length(state.schedule(tournament, "rounds"), number)
        rows.append(Pairing(tournament=tournament, key=state.bye_key(number), flight="swiss", round_number=number,
                            entry0_id=answer.bye, length=length))
    boards = [row for row in rows if row.entry1_id is not None]
    event_format = formats.format_of(tournament)
    event_format.pairings_write(tournament, rows, boards, loaded, created_by)
    event_format.pairings_fresh(rows)
    loaded.pairings.extend(rows)
    loaded.by_key.update((row.key, row) for row in rows)
    names = entrant_names(loaded)
    event_audit_record("round.paired", actor=created_by, tournament=tournament, obj=round_row,
                       after={"round": number, "pairings": [pairing_summary(row, names) for row in rows],
                  "bye": names.get(answer.bye) if answer.bye is not None else None})
    round_paired.send(tournament=tournament, round_number=number, actor=created_by,
                               pairings=[pairing_summary(row, names) for row in rows])
    return round_row


def _same_round(answer, stored: list[Pairing]) -> bool:
    if not isinstance(answer, SwissPairing):
        return False
    boards = {(p.entry0_id, p.entry1_id) for p in stored if p.entry1_id is not None}
    byes = {p.entry0_id for p in stored if p.entry1_id is None}
    return boards == {(p.top, p.bottom) for p in answer.pairings} and byes == ({answer.bye} - {None})


def swiss_corrected(tournament: Tournament, loaded: state.Loaded, pairing: Pairing) -> None:
    """A result of round r changed while later rounds are paired. Each later round k is paired
    again from the corrected results of rounds before it, with the players it had: while every
    one comes out the same, nothing depends on the change. From the first round that would be
    paired differently on, every round is reset and that round is paired again from the current
    results, unless one of their matches has started (Conflict ``result_built_on``).

    A result taken back (a ruling reopened the match) while a later round is paired is refused
    (Conflict ``result_built_on``): a round is paired only from complete rounds before it."""
    number = pairing.round_number
    later_rounds = sorted({p.round_number for p in loaded.pairings if p.round_number > number})
    if later_rounds and state.has_matches(pairing) and not state.is_confirmed(pairing):
        later_round = round_phrase(RoundName(ROUND, later_rounds[0]))
        raise errors.result_built_on(match_namer(tournament, loaded)(pairing.key), later_round,
                                     gettext("was paired on its result"), key=f"round-{later_rounds[0]}")
    changed_from = next((k for k in later_rounds if not _pairs_the_same(tournament, loaded, k)), None)
    if changed_from is None:
        return
    later = [p for p in loaded.pairings if p.round_number >= changed_from]
    refuse = refuse_for(tournament, pairing)
    for other in later:
        if state.has_matches(other) and state.pairing_started(other):  # team events: any board
            status = other.match.get_status_display().lower() if other.match is not None else gettext("a board has")
            raise refuse(other.key, gettext("has started (%(status)s)") % {"status": status})
    drop_matches([p for p in later if state.has_matches(p)], refuse, tournament.organiser)
    Pairing.objects.filter(pk__in=[p.pk for p in later]).delete()
    for round_row in Round.objects.filter(tournament=tournament, number__gte=changed_from).order_by("number"):
        dropped = [p.key for p in later if p.round_number == round_row.number]
        event_audit_record("round.reset", actor=tournament.organiser, tournament=tournament, obj=round_row,
                           before={"round": round_row.number, "pairings": dropped},
                           note=f"the corrected result of {pairing.key} pairs it differently")
    Round.objects.filter(tournament=tournament, number__gte=changed_from).delete()
    loaded.pairings = [p for p in loaded.pairings if p.round_number < changed_from]
    loaded.by_key = {p.key: p for p in loaded.pairings}
    again = swiss_pair(tournament, loaded)
    if isinstance(again, SwissPairing):
        swiss_round_write(tournament, loaded, again, tournament.organiser)
    # else: the round stays unpaired; pairing it again tells the organiser why it cannot be.


def _pairs_the_same(tournament: Tournament, loaded: state.Loaded, number: int) -> bool:
    """Whether round ``number`` would be paired as stored from the results before it (as they
    stand now), with the same players (those not in it stay out, as they were then)."""
    stored = [p for p in loaded.pairings if p.round_number == number]
    present = {e for p in stored for e in (p.entry0_id, p.entry1_id) if e is not None}
    history = state.swiss_history(loaded, up_to=number - 1)
    answer = swiss_pair(tournament, loaded, history=history, withdrawn=[e for e in loaded.order if e not in present])
    if not _same_round(answer, stored):
        return False
    if tournament.max_losses:
        # Elimination Swiss: a correction may also bring back a player it had put out.
        records = swiss_records(loaded.order, history)
        back = [e for e in loaded.order if e not in present and e not in loaded.withdrawn
                and not loaded.by_id[e].late and records[e].losses < tournament.max_losses]
        return not back
    return True


def refuse_for(tournament: Tournament, pairing: Pairing) -> Refuse:
    """The refusal of a change to ``pairing``'s result that a later match (its key) depends on,
    both named by their players and rounds (read from the event when it is raised)."""
    name = match_namer(tournament)
    return lambda dependent, why: errors.result_built_on(name(pairing.key), name(dependent), why, key=dependent)


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
        if any(not _pairs_the_same(tournament, loaded, k) for k in swiss_later):
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

"""Corrections that always work, and cascade visibly (Challonge's "reopen", start.gg's result
correction).

A director corrects a result of a running bracket event:

- the same winner with another score: always allowed, nothing else in the bracket moves;
- another winner: every later match the old winner reached because of that result (and every
  match the old loser's drop reached: consolation, last chance, a double elimination's losers'
  bracket) is *reset*, whatever its state: played, reported, started or only scheduled with the
  wrong player; a result in it no longer stands, whoever won it, so what it fed is reset in turn.

One function, :func:`_plan`, works out the whole change from the stored event: the pure
:func:`tournaments.draw.cascade.cascade` read off the stored draw (its results, its matches, what
each pairing holds, who has withdrawn). Both the preview and the correction use it:

:func:`result_correction_preview` says what a correction would change, in sentences with names
and round names (every match it resets or rewrites, and every player to tell), and changes
nothing (the page's confirmation step, the API's dry run). :func:`result_correct` does exactly
that in one transaction, under the match's lock then the event's (the order a report takes
them): the removed matches' results are voided (their rating changes undone, their reports and
scores kept in the audit log) and the matches deleted, then the result is overridden through
``matches.services.reporting.match_override`` and the bracket synced: each reset pairing gets its
new players, and a new scheduled match once both are known. If the stored event then differs in
any way from the plan, nothing changes (Conflict ``cascade_changed``). Everything is audited.

A finished event is reopened first (``events.event_reopen``); a correction of a finished event is
refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction
from django.utils.translation import gettext as _

from audit.describe import ltr
from core.errors import Conflict, DomainError
from core.text import isolate
from matches.models import Match
from matches.services.reporting import claim_make, match_locked, match_override, score_winner
from tournaments import errors, formats
from tournaments.draw import DrawError
from tournaments.draw import names as round_names
from tournaments.draw.bracket import BYE, BYE_STATUS, NOT_NEEDED, PLAYED, READY, stored_entries
from tournaments.draw.cascade import Cascade, Reset, cascade
from tournaments.models import EVENT_JOIN, Entry, Pairing, Tournament, event_id_of
from tournaments.round_labels import round_phrase

from . import bracket_reads, state
from .audit import entrant_names, event_audit_record
from .common import runs, tournament_lock
from .draw_sync import bracket_sync, drop_matches, refuse_for
from .naming import match_namer

# --- what a correction resets, as people read it ------------------------------------------------


@dataclass(frozen=True)
class ResetLine:
    """A match a correction resets or rewrites: its pairing ``key`` (for the API), where it is in
    the bracket (``round_name``), its players before (as its pairing holds them) and after
    (names; None while to be decided), whether its match is removed (``removed``), the result it
    loses (``voided``: the winner's name, and ``score``, None for a walkover), whether it had
    started with the wrong player (``started``), and the sentence a page shows."""

    key: str
    flight: str
    round_number: int
    round_name: str
    before: tuple[str | None, str | None]
    after: tuple[str | None, str | None]
    removed: bool
    voided: str | None
    score: tuple[int, int] | None
    started: bool
    match_id: int | None
    sentence: str


@dataclass(frozen=True)
class Correction:
    """A correction as previewed or done: the match (``key``, ``round_name``, players), the
    result it had and the one it gets, what it resets, and the players to tell (``tell``: the
    corrected match's, then everyone in a match it resets, before or after, each once)."""

    tournament: Tournament
    match_id: int
    key: str
    round_name: str
    players: tuple[str, str]
    old_winner: str | None
    new_winner: str
    score: tuple[int, int]
    resets: tuple[ResetLine, ...]
    tell: tuple[str, ...]
    applied: bool = False

    @property
    def same_winner(self) -> bool:
        return self.old_winner == self.new_winner

    @property
    def started(self) -> tuple[ResetLine, ...]:
        """The reset matches that had already started or been reported with the wrong player."""
        return tuple(line for line in self.resets if line.started)

    @property
    def keys(self) -> list[str]:
        return [line.key for line in self.resets]

    @property
    def summary(self) -> str:
        """The correction in one sentence."""
        if self.old_winner is None:
            return _("%(winner)s wins %(round)s, %(a)s v %(b)s, %(score)s.") % {
                "winner": isolate(self.new_winner), "round": self.round_name, "a": isolate(self.players[0]),
                "b": isolate(self.players[1]), "score": _score(self.score)}
        if self.same_winner:
            return _("%(winner)s still wins %(round)s, %(a)s v %(b)s, now %(score)s: nothing else in the bracket "
                     "changes.") % {"winner": isolate(self.new_winner), "round": self.round_name, "a": isolate(self.players[0]),
                                    "b": isolate(self.players[1]), "score": _score(self.score)}
        return _("%(winner)s wins %(round)s, %(a)s v %(b)s, %(score)s, instead of %(old)s.") % {
            "winner": isolate(self.new_winner), "round": self.round_name, "a": isolate(self.players[0]),
            "b": isolate(self.players[1]), "score": _score(self.score), "old": isolate(self.old_winner)}


def _score(score) -> str:
    """A final score as a sentence gives it: the winner's points first, read left to right in a
    right-to-left sentence too."""
    return ltr(f"{max(score)}-{min(score)}")


def round_name(bracket, flight: str, number: int) -> str:
    """A round as a sentence names it ("a semi-final", "the winners' final", "losers' round 2", "a
    quarter-final of the consolation flight"): the name ``tournaments.draw.names`` gives every
    page, in sentence form (``tournaments.round_labels.round_phrase``)."""
    fed = flight in ("consolation", "last_chance")
    try:
        name = round_names.round_name(flight, number, bracket.size, rounds=bracket.flight(flight).rounds if fed else None)
    except DrawError:  # a round the names do not know (a bracket drawn before they were): numbered
        name = round_names.RoundName(round_names.ROUND, number)
    return round_phrase(name, flight=flight)


def _name(names: dict[int, str], entrant) -> str | None:
    if entrant is None or entrant is BYE:
        return None
    return names.get(entrant)


def _then(after, now: tuple[str | None, str | None], names: dict[int, str]) -> str:
    """What becomes of a reset match, as the end of its sentence."""
    if after.status == READY:
        return _("%(a)s v %(b)s will be played instead") % {"a": isolate(now[0]), "b": isolate(now[1])}
    if after.status == PLAYED:  # a walkover: the correction put a withdrawn player in it
        other = after.loser
        return _("%(winner)s goes through without playing, as %(other)s has withdrawn") % {
            "winner": isolate(_name(names, after.winner)), "other": isolate(_name(names, other))}
    if after.status == BYE_STATUS and (now[0] or now[1]):
        return _("%(a)s goes through without playing") % {"a": isolate(now[0] or now[1])}
    if after.status == NOT_NEEDED:
        return _("it is not to be played any more")
    if now[0] or now[1]:
        return _("%(a)s waits there for an opponent still to be decided") % {"a": isolate(now[0] or now[1])}
    return _("it waits for both players to be decided again")


def _line(reset: Reset, pairing: Pairing, bracket, names: dict[int, str], by_id: dict[int, Entry]) -> ResetLine:
    before, after = reset.before, reset.after
    match = pairing.match
    where = round_name(bracket, before.match.flight, before.match.round)
    was = (names.get(pairing.entry0_id), names.get(pairing.entry1_id))  # as its pairing holds them
    now = (_name(names, after.top), _name(names, after.bottom))
    voided = _name(names, reset.voided)
    score = None
    if voided is not None and match is not None and match.score0 is not None:
        flipped = by_id[pairing.entry0_id].side_id != match.side0_id  # the score in the pairing's order
        score = (match.score1, match.score0) if flipped else (match.score0, match.score1)
    started = match is not None and state.is_started(match, getattr(pairing, "has_reports", False))
    if not (was[0] or was[1]):  # nobody was in it yet: the correction gives it its players
        if after.status == READY:
            sentence = _("%(round)s is to be played after all: %(a)s v %(b)s.") % {"round": where, "a": isolate(now[0]),
                                                                                  "b": isolate(now[1])}
        else:
            sentence = _("%(round)s changes: %(then)s.") % {"round": where, "then": _then(after, now, names)}
    else:
        if was[0] and was[1]:
            what = _("%(round)s, %(a)s v %(b)s,") % {"round": where, "a": isolate(was[0]), "b": isolate(was[1])}
        else:
            what = _("%(round)s, where %(a)s was waiting,") % {"round": where, "a": isolate(was[0] or was[1])}
        if voided is not None and score is not None:
            what += " " + _("which %(winner)s won %(score)s,") % {"winner": isolate(voided), "score": _score(score)}
        elif voided is not None:
            what += " " + _("which %(winner)s won by walkover,") % {"winner": isolate(voided)}
        elif started:
            what += " " + _("which had started,")
        sentence = (_("%(what)s is reset: its result is void and %(then)s.") if voided is not None
                    else _("%(what)s is reset: %(then)s.")) % {"what": what, "then": _then(after, now, names)}
    return ResetLine(key=reset.id, flight=before.match.flight, round_number=before.match.round,
                     round_name=where, before=was, after=now, removed=reset.removed, voided=voided, score=score,
                     started=started, match_id=pairing.match_id, sentence=sentence[0].upper() + sentence[1:])


def _tell(players: tuple[str, str], found: Cascade | None, loaded: state.Loaded, names: dict[int, str]
          ) -> tuple[str, ...]:
    """The players to tell: the corrected match's, then everyone a reset pairing holds before or
    after the correction, each once, in that order."""
    told = dict.fromkeys(players)
    for reset in found.resets if found else ():
        row = loaded.by_key[reset.id]
        for entry in (row.entry0_id, row.entry1_id, *stored_entries(reset.after)):
            if entry is not None:
                told.setdefault(names[entry])
    return tuple(told)


# --- the preview ---------------------------------------------------------------------------------


def _event_match(match_id: int, tournament_id: int | None) -> tuple[Match, int]:
    """The match (sides joined) and its event's id. Raises Match.DoesNotExist; DomainError
    ``not_event_match`` when it is no match of event ``tournament_id`` (or of any event)."""
    match = Match.objects.select_related(EVENT_JOIN).get(pk=match_id)
    event_id = event_id_of(match)
    if event_id is None or (tournament_id is not None and event_id != tournament_id):
        raise DomainError(_("match %(match)s is not a match of this event") % {"match": match_id},
                          code="not_event_match", field="match", match=match_id)
    return match, event_id


def _check(tournament: Tournament, user) -> None:
    if not runs(tournament, user):
        raise errors.not_organiser()
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("%(event)s is finished: reopen it before correcting a result") % {"event": tournament.name},
                       code="tournament_finished")
    if tournament.status != Tournament.Status.RUNNING:
        raise errors.not_drawn()
    formats.format_of(tournament).refuse_match_correction()


def _plan(tournament: Tournament, match: Match, score, loaded: state.Loaded) -> tuple[Correction, Cascade | None]:
    """The correction of ``match`` to ``score`` read off the loaded event, whole: the Correction
    (what the preview shows) and the cascade (what the correction does: the matches it removes,
    where the bracket then stands; None outside a bracket, or for a match without a result).
    The preview and the correction both come from here, so they cannot differ."""
    claim_make(match, tuple(score), None)  # raises bad_score for a score that is no final score
    side = score_winner(match, tuple(score))
    pairing = next((p for p in loaded.pairings if p.match_id == match.pk), None)
    if pairing is None:
        raise DomainError(_("match %(match)s is not in the draw of %(event)s") % {"match": match.pk,
                                                                                  "event": tournament.name},
                          code="not_event_match", field="match", match=match.pk)
    names = entrant_names(loaded)
    winner_side = match.side0_id if side == 0 else match.side1_id
    winner = next(e for e in (pairing.entry0_id, pairing.entry1_id) if loaded.by_id[e].side_id == winner_side)
    old = state.winner_entry(pairing, loaded.by_id, bracket=True)
    players = (names[pairing.entry0_id], names[pairing.entry1_id])
    # A first-round loser who re-entered would hold two places in the main.
    reentered = any(e.reentry_of_id == winner and e.status != Entry.Status.WITHDRAWN for e in loaded.entries)
    if reentered and old is not None and old != winner and pairing.flight == "main" and pairing.round_number == 1:
        raise errors.reentered_loser(names[winner])
    return formats.format_of(tournament).correction_plan(
        Change(tournament, match, tuple(score), loaded, pairing, names, players, old, winner))


@dataclass(frozen=True)
class Change:
    """What :func:`_plan` read of a correction before the event's format says what it does
    (``correction_plan``: :func:`paired_plan` or :func:`bracket_plan`): the match and its new
    ``score``, the loaded event, the match's pairing, the entrants' names, the two players, the
    entry that won before (None: no result yet) and the one that wins now."""

    tournament: Tournament
    match: Match
    score: tuple
    loaded: state.Loaded
    pairing: Pairing
    names: dict
    players: tuple[str, str]
    old: int | None
    winner: int


def paired_plan(change: Change) -> tuple[Correction, None]:
    """A Swiss's or a round robin's correction: the match's result alone (what it changes in the
    table and the next rounds is the format's advancement)."""
    c = change
    where = _("round %(number)s") % {"number": c.pairing.round_number}
    correction = Correction(c.tournament, c.match.pk, c.pairing.key, where, c.players, c.names.get(c.old),
                            c.names[c.winner], c.score, (), c.players)
    return correction, None


def bracket_plan(change: Change) -> tuple[Correction, Cascade | None]:
    """A bracket's correction: its round named from the bracket, and the cascade of the matches
    it resets (none for a match without a result)."""
    tournament, match, loaded, pairing, names = change.tournament, change.match, change.loaded, change.pairing, change.names
    old, winner, players, score = change.old, change.winner, change.players, change.score
    try:
        bracket = state.build_bracket(tournament, loaded.order)
        where = round_name(bracket, pairing.flight, pairing.round_number)
        found = None
        if old is not None:
            found = cascade(bracket, state.confirmed_results(loaded), pairing.key, winner,
                            matched=bracket_reads.matched_keys(loaded), stored=bracket_reads.stored_rows(loaded),
                            withdrawn=loaded.withdrawn)
    except DrawError as error:
        raise errors.from_draw(error) from None
    lines = tuple(_line(reset, loaded.by_key[reset.id], bracket, names, loaded.by_id)
                  for reset in (found.resets if found else ()))
    correction = Correction(tournament, match.pk, pairing.key, where, players, names.get(old), names[winner],
                            score, lines, _tell(players, found, loaded, names))
    return correction, found


def result_correction_preview(*, match_id: int, user, score, tournament_id: int | None = None) -> Correction:
    """What correcting ``match_id``'s result to ``score`` would change, without changing anything
    (the page's confirmation step, the API's dry run): every match it resets and every player to
    tell, from the plan :func:`result_correct` carries out. A constant number of queries whatever
    the event's size (the match; the event's entries and pairings).

    Raises Match.DoesNotExist; DomainError ``not_event_match`` (not a match of the event's
    draw), ``bad_score``, ``team_correction``; NotAllowed ``not_organiser``; Conflict
    ``tournament_finished``, ``not_drawn``, ``reentered_loser`` (another winner of a main round-1
    match whose loser has re-entered: his re-entry is withdrawn first)."""
    match, _event_id = _event_match(match_id, tournament_id)
    tournament = match.event_link.tournament
    _check(tournament, user)
    correction, _found = _plan(tournament, match, score, state.load(tournament))
    return correction


def _refuse_named(correction: Correction):
    """A refusal naming the reset match as the preview did (its round and players, not its key)."""
    lines = {line.key: line for line in correction.resets}
    namer = match_namer(correction.tournament)

    def refuse(key: str, why: str) -> Conflict:
        line = lines.get(key)
        where = (_("%(round)s, %(a)s v %(b)s,") % {"round": line.round_name, "a": isolate(line.before[0] or "?"),
                                                   "b": isolate(line.before[1] or "?")}) if line else namer(key)
        text = _("%(match)s cannot be reset: it %(why)s. Settle that first, then correct the result again.") % {
            "match": where, "why": why}
        return Conflict(text[0].upper() + text[1:], code="result_built_on", match=key)
    return refuse


def _unplanned(found: Cascade, was: dict[str, tuple], after: state.Loaded) -> list[str]:
    """The pairings that do not stand as ``found`` planned once the correction is made: changed
    without being in its resets (or in them and unchanged), holding other players than planned,
    a match removed that was to stay, a match missing (or left) where one was (not) to be made.
    ``was``: each pairing's entries and match before the correction."""
    resets, to_make = {reset.id for reset in found.resets}, set(found.to_make)
    wrong = []
    for match_state in found.after.matches:
        key = match_state.match.id
        row = after.by_key[key]
        now = (row.entry0_id, row.entry1_id, row.match_id)
        if key in found.matched:
            match_as_planned = row.match_id == was[key][2]
        else:
            match_as_planned = (row.match_id is not None) == (key in to_make)
        changed = key != found.source and now != was[key]
        if now[:2] != stored_entries(match_state) or not match_as_planned or changed != (key in resets):
            wrong.append(key)
    return wrong


@transaction.atomic
def result_correct(*, match_id: int, user, score, statement: str = "", tournament_id: int | None = None,
                   expected: list[str] | None = None) -> Correction:
    """Correct ``match_id``'s result to ``score`` and reset what it cascades into, exactly as
    :func:`result_correction_preview` shows it (see the module docstring). ``expected``: the
    pairing keys the director was shown (the preview's ``keys``); when the bracket has moved
    since and the cascade differs, nothing changes.

    Writes, audited under ``user``: for each removed match, its rating change undone,
    ``match.deleted`` (its result and reports kept in the entry) and ``pairing.reset``; the
    override (``match.result_overridden``); the reset pairings' new entries and matches;
    ``result.corrected`` (the correction and every reset, in sentences' terms). Raises what the
    preview raises, and Conflict ``cascade_changed`` (``expected`` differs, or the bracket would
    not stand as planned), ``result_built_on`` (a reset match has a dispute kept for good, or is
    being reported right now), ``rating_built_on`` (a rating change that cannot be undone);
    nothing changes then."""
    match, event_id = _event_match(match_id, tournament_id)
    match_locked(match.pk)  # the match, then the event: the order a report's confirmation takes them
    tournament = tournament_lock(event_id)
    _check(tournament, user)
    loaded = state.load(tournament)
    correction, found = _plan(tournament, match, score, loaded)
    if expected is not None and list(expected) != correction.keys:
        raise Conflict(_("the bracket has changed since the correction was previewed: look at it again"),
                       code="cascade_changed")
    source = loaded.by_key[correction.key]
    was = {p.key: (p.entry0_id, p.entry1_id, p.match_id) for p in loaded.pairings}
    if found is not None and found.removed:
        drop_matches([loaded.by_key[key] for key in found.removed], _refuse_named(correction), user,
                     void_started=True)
    match_override(match_id=match.pk, user=user, claim=claim_make(match, tuple(score), None), statement=statement)
    if found is not None:
        # The override's hook advanced the bracket from the corrected result; one full sync makes
        # sure every reset pairing stands as planned (idempotent), and the stored event is then
        # held to the plan: what the director was shown is what was done, or nothing is.
        bracket_sync(tournament, state.load(tournament), created_by=user, refuse=refuse_for(tournament, source))
        if _unplanned(found, was, state.load(tournament)):
            raise Conflict(_("the correction would change the bracket otherwise than its preview shows, so nothing "
                             "was changed: look at it again"), code="cascade_changed")
    event_audit_record(
        "result.corrected", actor=user, tournament=tournament, obj=source, match_id=match.pk,
        before={"key": correction.key, "winner": correction.old_winner},
        after={"key": correction.key, "winner": correction.new_winner, "score": list(correction.score),
               "resets": [{"key": line.key, "before": list(line.before), "after": list(line.after),
                           "removed": line.removed, "voided": line.voided,
                           "score": list(line.score) if line.score else None,
                           "started": line.started} for line in correction.resets],
               "tell": list(correction.tell)},
        note=statement,
    )
    return replace(correction, applied=True)

"""An event's life after its creation: edit its settings while they may still change, cancel it,
delete a draft.

What may change when is a rule, decided by the pure :func:`edit_refusal` (and, for the match
lengths of an event already drawn, :func:`length_refusal`), which the services, the edit page and
the API all ask:

- until the event is finished or cancelled: its name and dates;
- before the draw (draft, entries open or closed): every published rule, but the kind of entrants
  (individual, pairs, teams) only while nobody is entered;
- after the draw: not the format, the kind, the flights (consolation, last chance, groups, Swiss
  rounds and losses), the seeding, the boards of a team match, the pairing rule nor the rules of
  play (Crawford, moves, premature roll, clock, late arrival: the matches already made are played
  by them); the match lengths only of the rounds not begun (a round has begun once one of its
  matches is made: its length is the one its players were given). The new lengths are written on
  the pairings of those rounds, so the matches made later are to the new length;
- a finished or cancelled event: nothing.

A cancelled event keeps its matches as they are: the results confirmed stand (and count for the
ratings), the open matches stay on the record, and no result moves its draw on any more (see
``advance.tournament_result_confirmed``). Every entrant is told by email, in his language, once the
cancellation is committed (the task is written in the outbox).
"""

from __future__ import annotations

import datetime
from dataclasses import fields, replace

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Conflict, DomainError
from core.labels import field_refusal
from core.outbox import outbox_enqueue
from tournaments import errors, formats
from tournaments.draw import round_length
from tournaments.draw.abt import playoff_bracket
from tournaments.labels import flight_title, rule_label
from tournaments.models import Entry, EventMatch, Pairing, Tournament
from tournaments.tasks import tournament_cancelled_notify_task

from . import state
from .audit import event_audit_record, tournament_summary
from .common import require_organiser, tournament_lock
from .divisions import divisions_still_held
from .events import EventRules

#: The settings an organiser edits: the published rules (the club stays where the event was made).
EDITABLE = tuple(f.name for f in fields(EventRules) if f.name != "club_id")
ALWAYS = ("name", "starts_on", "ends_on",
          # the depth of the analysis of the matches to come (analysed ones keep theirs)
          "analysis_plies")
#: Fixed by the draw: the shape of the draw and who is in it.
DRAW_RULES = ("format", "kind", "consolation_rounds", "last_chance", "swiss_rounds", "max_losses", "groups", "seeding",
              "board_count", "forbid_same_club",
              # the flights' shapes
              "consolation_shifted", "playoff_second", "last_chance_open",
              # every round so far was paired and ranked by them
              "swiss_pairing", "swiss_tiebreaks", "round_robin_order",
              # the contention of every round so far was counted by them
              "abt_playoffs", "abt_paid_places")
#: Fixed by the draw: the rules the matches already made are played by.
PLAY_RULES = ("crawford", "move_policy", "premature_roll", "clock_seconds_per_point", "penalty_minutes_per_point",
              # the clocks
              "clock_policy", "clock_delay_seconds", "clock_doubling", "clock_doubling_seconds_per_point",
              "clock_doubling_delay_seconds", "clock_overtime_seconds")
BEFORE_DRAW = (Tournament.Status.DRAFT, Tournament.Status.OPEN, Tournament.Status.CLOSED)
OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
REASON_MAX = 1000


def edit_refusal(field: str, *, status: str, has_entries: bool) -> str | None:
    """Why ``field`` of an event in ``status`` may not change now, in a sentence; None when it may
    (the match lengths of a drawn event: also ask :func:`length_refusal`). Pure."""
    if field not in EDITABLE:
        return _("this setting is not changed here")
    if status == Tournament.Status.FINISHED:
        return _("the event is finished: its settings no longer change")
    if status == Tournament.Status.CANCELLED:
        return _("the event is cancelled: its settings no longer change")
    # payouts: see tournament_update; re-entries shape nothing drawn: a
    # director may allow them, or stop them, until the event ends.
    if field in ALWAYS or field in ("lengths", "payouts", "reentries"):
        return None
    if status in BEFORE_DRAW:
        if field == "kind" and has_entries:
            return _("players are entered already: remove them before changing who the entrants are")
        return None
    if field in PLAY_RULES:
        return _("the draw is made: the matches already made are played by this rule")
    if field in ("swiss_pairing", "swiss_tiebreaks"):
        return _("the draw is made: its rounds are paired and ranked by this rule")
    if field in ("abt_playoffs", "abt_paid_places"):
        return _("the draw is made: who can still cash is counted by this rule")
    return _("the draw is made: it was made by this rule")


def editable_fields(*, status: str, has_entries: bool) -> dict[str, str | None]:
    """Each editable setting -> why it may not change now (None: it may). Pure."""
    return {field: edit_refusal(field, status=status, has_entries=has_entries) for field in EDITABLE}


def length_refusal(rounds) -> str | None:
    """Why new match lengths may not apply to a drawn event, or None: ``rounds`` are (flight
    title, round number, length now, new length, begun) of each round drawn so far; a begun round
    keeps its length. Pure."""
    for flight, number, now, new, begun in rounds:
        if begun and new != now:
            return _("%(flight)s, round %(round)d has begun: its matches are to %(length)d points") % {
                "flight": flight, "round": number, "length": now}
    return None


def _json(value):
    return value.isoformat() if isinstance(value, datetime.date) else value


def _rules_of(tournament: Tournament) -> EventRules:
    return EventRules(club_id=None, **{name: getattr(tournament, name) for name in EDITABLE})


def _new_lengths(tournament: Tournament, changed: Tournament, loaded: state.Loaded) -> dict[int, int]:
    """Pairing id -> its length under ``changed``'s lengths (the same event, the new schedule):
    its format's (``bracket_lengths`` or ``rounds_lengths``)."""
    return formats.format_of(tournament).new_lengths(tournament, changed, loaded)


def bracket_lengths(tournament: Tournament, changed: Tournament, loaded: state.Loaded) -> dict[int, int]:
    """A bracket's pairings' lengths under ``changed``'s lengths, by the bracket match each is."""
    by_key = {m.id: m.length for m in state.build_bracket(changed, loaded.order).matches}
    return {p.pk: by_key.get(p.key, p.length) for p in loaded.pairings}


def rounds_lengths(tournament: Tournament, changed: Tournament, loaded: state.Loaded) -> dict[int, int]:
    """A Swiss's or a round robin's pairings' lengths under ``changed``'s lengths, by round (a
    modified Swiss's playoffs by their bracket round)."""
    schedule = state.schedule(changed, "rounds")
    out = {p.pk: round_length(schedule, p.round_number) for p in loaded.pairings if p.flight != state.PLAYOFFS}
    # A modified Swiss's playoffs follow their own schedule, by bracket round
    seeds = (tournament.abt_playoff or {}).get("seeds") or []
    if len(seeds) > 1:
        by_key = {m.id: m.length for m in playoff_bracket(seeds, lengths=state.schedule(changed, "playoffs"),
                                                          flight=state.PLAYOFFS).matches}
        out.update({p.pk: by_key.get(p.key, p.length) for p in loaded.pairings if p.flight == state.PLAYOFFS})
    return out


def _apply_lengths(tournament: Tournament, changed: Tournament) -> None:
    """Write the new lengths on the pairings of the rounds not begun; Conflict ``not_editable``
    (field ``lengths``) when they would change a round that has begun."""
    loaded = state.load(tournament)
    new = _new_lengths(tournament, changed, loaded)
    begun: dict[tuple[str, int], bool] = {}
    for p in loaded.pairings:
        begun[p.flight, p.round_number] = begun.get((p.flight, p.round_number), False) or state.has_matches(p)
    rounds = [(flight_title(p.flight), p.round_number, p.length, new[p.pk], begun[p.flight, p.round_number])
              for p in loaded.pairings]
    reason = length_refusal(rounds)
    if reason:
        raise _not_editable("lengths", reason)
    moved = [p for p in loaded.pairings if new[p.pk] != p.length]
    for p in moved:
        p.length = new[p.pk]
    Pairing.objects.bulk_update(moved, ["length"])


def _not_editable(field: str, reason: str) -> Conflict:
    return Conflict(field_refusal(rule_label(field), reason), code="not_editable", field=field, sentence=reason)


@transaction.atomic
def tournament_update(*, tournament_id: int, user, changes: dict) -> Tournament:
    """Change the settings ``changes`` (setting -> new value, as :class:`EventRules` takes them)
    of the event, as far as :func:`edit_refusal` allows now. Values equal to the current ones are
    not changes (the edit page sends every field). Audited as ``tournament.updated`` with each
    changed setting before and after; nothing is written when nothing changes.

    Raises NotAllowed ``not_organiser``; DomainError ``bad_rules`` naming the field (a value of the
    wrong type or range, or rules that do not fit the format, as at creation); Conflict
    ``not_editable`` naming the first setting that may not change now and why. Nothing is saved on
    failure.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    unknown = [name for name in changes if name not in EDITABLE]
    if unknown:
        raise errors.bad_rules(unknown[0], edit_refusal(unknown[0], status=tournament.status, has_entries=False))
    current = _rules_of(tournament)
    try:
        wanted = replace(current, **changes)
    except TypeError:
        raise errors.bad_rules("lengths", _("a mapping of flights to lengths")) from None
    changed = [name for name in EDITABLE if getattr(wanted, name) != getattr(current, name)]
    if not changed:
        return tournament
    has_entries = Entry.objects.filter(tournament=tournament).exists()
    for name in changed:
        reason = edit_refusal(name, status=tournament.status, has_entries=has_entries)
        if reason:
            raise _not_editable(name, reason)
    if "divisions" in changed and has_entries:  # no entrant's division may be dropped
        divisions_still_held(tournament, wanted.divisions)
    # The paid places change after the draw (the pool is known once
    # the entries are) unless they shaped it (a last chance open to everyone who has not cashed).
    if "payouts" in changed and tournament.status not in BEFORE_DRAW and tournament.last_chance_open:
        old = {f: len(r["percentages"]) for f, r in (tournament.payouts or {}).items()}
        new = {f: len(r["percentages"]) for f, r in (wanted.payouts or {}).items()}
        if old != new:
            raise _not_editable("payouts", _("the draw is made: its last chance was drawn from the number of paid "
                                             "places; only the pools and percentages may change"))
    # A modified Swiss counting the main flight's paid places keeps their number.
    if ("payouts" in changed and tournament.status not in BEFORE_DRAW and tournament.abt_playoffs
            and tournament.abt_paid_places is None):
        old = len((tournament.payouts or {}).get("main", {}).get("percentages", ()))
        new = len((wanted.payouts or {}).get("main", {}).get("percentages", ()))
        if old != new:
            raise _not_editable("payouts", _("the draw is made: who can still cash is counted from the number of "
                                             "paid places; only the pools and percentages may change"))
    before = {name: _json(getattr(tournament, name)) for name in changed}
    if "lengths" in changed and tournament.status not in BEFORE_DRAW:
        preview = Tournament(**{f.attname: getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields})
        preview.lengths = wanted.lengths
        _apply_lengths(tournament, preview)
    for name in changed:
        setattr(tournament, name, getattr(wanted, name))
    tournament.save(update_fields=[*changed, "version"])
    event_audit_record("tournament.updated", actor=user, tournament=tournament, obj=tournament, before=before,
                       after={name: _json(getattr(tournament, name)) for name in changed})
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: int, user, reason: str) -> Tournament:
    """Cancel the event, saying why (shown on its pages and emailed to every entrant, in his
    language, after the commit: ``tournament_cancelled_notify_task`` in the outbox). Its matches
    stay as they are (the module's docstring). Cancelling a cancelled event changes nothing.
    Audited as ``tournament.cancelled``.

    Raises NotAllowed ``not_organiser``; DomainError ``reason_required`` (field ``reason``) for an
    empty or too long reason; Conflict ``tournament_finished`` for a finished event.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(_("reason: say why the event is cancelled: the entrants are told"), code="reason_required",
                          field="reason")
    if len(reason) > REASON_MAX:
        raise DomainError(_("reason: at most %(max)d characters") % {"max": REASON_MAX}, code="reason_required",
                          field="reason")
    if tournament.status == Tournament.Status.CANCELLED:
        return tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.finished()
    before = tournament_summary(tournament)
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancel_reason = reason
    tournament.cancelled_at = timezone.now()
    tournament.save(update_fields=["status", "cancel_reason", "cancelled_at", "version"])
    event_audit_record("tournament.cancelled", actor=user, tournament=tournament, obj=tournament, before=before,
                       after={**tournament_summary(tournament), "reason": reason})
    if Entry.objects.filter(tournament=tournament).exists():
        outbox_enqueue(tournament_cancelled_notify_task, tournament.pk)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament_id: int, user) -> None:
    """Delete a draft that nobody has entered and that has no match (its club's calendar forgets
    it too). Audited as ``tournament.deleted`` (the entry keeps its name and rules).

    Raises NotAllowed ``not_organiser``; Conflict ``not_a_draft`` for an event past its draft
    (cancel it instead: its entrants are told), ``has_entrants`` for a draft with entrants or
    matches. Nothing is deleted when refused.
    """
    tournament = tournament_lock(tournament_id)
    require_organiser(tournament, user)
    if tournament.status != Tournament.Status.DRAFT:
        raise Conflict(_("only a draft is deleted; this event is %(status)s: cancel it instead, its entrants are told")
                       % {"status": str(tournament.get_status_display()).lower()}, code="not_a_draft")
    if Entry.objects.filter(tournament=tournament).exists() or EventMatch.objects.filter(tournament=tournament).exists():
        raise Conflict(_("this draft has entrants or matches: remove them first, or cancel the event"),
                       code="has_entrants")
    pk = tournament.pk
    before = {**tournament_summary(tournament), "lengths": tournament.lengths,
              "starts_on": _json(tournament.starts_on)}
    tournament.delete()
    event_audit_record("tournament.deleted", actor=user, tournament=pk, obj=tournament, object_id=pk, before=before)

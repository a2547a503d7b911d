"""A director's rulings (RULES.md §9): made on an open dispute, applied through the services that
own what they change, and undone when an appeal overturns or replaces them.

Lock order, everywhere: the match row, then the dispute row; the services a ruling goes through
take the event's row after them (the confirmation hook, a withdrawal), as result reporting does.

A ruling never writes a result itself: a result is set through the reporting override path
(the ratings ledger replayed, the event's draw synced, audited), taken back through
``match_reopen``, and an entrant disqualified through the event's withdrawal. The game rules a
ruling applies (penalty points, illegal plays, voided games and doubles) are the engine's
(``engine.rulings``). A refusal from any of them (a later match built on the result has started,
a game log that no longer replays) rolls the whole ruling back and is raised with its reason.

Every ruling stores ``changes = {"before": ..., "after": ...}``: the match's result state (status,
score, winner, rated, penalty points, live reports, games; before it also the game logs) or the
disqualified entry and the matches its withdrawal forfeited: enough for :func:`ruling_revert` to
put things back, and to see whether they have moved on since.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.errors import Conflict
from core.locking import locked_one
from core.outbox import outbox_enqueue
from engine.errors import EngineError
from matches.services.reporting import (
    match_locked,
    side_of_user,
    user_runs_match,
)
from rulings import errors
from rulings.hooks import ruling_made
from rulings.models import Appeal, Dispute, Ruling
from rulings.tasks import rulings_notify_task
from tournaments.models import event_id_of

from .checks import RulingContext, engine_refusal, error_scalars, ruling_text
from .disputes import STATEMENT_MAX
from .outcomes import OUTCOMES
from .results import entry_reinstate, result_restore, without_logs

RULE_MAX = Ruling._meta.get_field("rule").max_length


# --- the public services -------------------------------------------------------------------------


@transaction.atomic
def ruling_make(*, dispute_id: int, user, outcome: str, params: dict, rule: str, reasoning: str) -> Ruling:
    """The match's director rules on an open dispute: the outcome is applied (see
    :func:`ruling_apply`) and the dispute becomes ruled. The match's other open disputes stay open.

    The director is the match's organiser or its event's organiser, or staff; never a player of
    the match. Locks the match row, then the dispute's (so two rulings racing on one dispute are
    serialised: the second finds it ruled).

    Raises Dispute.DoesNotExist; NotAllowed ``not_director``; Conflict ``dispute_closed`` (the
    dispute is ruled, under appeal or decided); and whatever :func:`ruling_apply` raises. Nothing
    is saved on failure.
    """
    match_id = Dispute.objects.values_list("match_id", flat=True).get(pk=dispute_id)
    match = match_locked(match_id)
    if side_of_user(match, user) is not None or not user_runs_match(match, user):
        raise errors.not_director()
    dispute = locked_one(Dispute.objects.all(), pk=dispute_id)
    if dispute.status != Dispute.Status.OPEN:
        raise errors.dispute_closed(dispute.get_status_display().lower())
    ruling = ruling_apply(dispute=dispute, director=user, outcome=outcome, params=params, rule=rule, reasoning=reasoning)
    # The parties hear of the ruling once it is committed (a committee's ruling is announced with
    # the appeal's decision instead).
    outbox_enqueue(rulings_notify_task, "ruling", ruling.pk)
    return ruling


@transaction.atomic
def ruling_apply(*, dispute: Dispute, director, outcome: str, params: dict, rule: str, reasoning: str,
                 appeal: Appeal | None = None) -> Ruling:
    """Apply a ruling's outcome to the dispute's match and record it. No permission check: the
    caller (``ruling_make``, or the appeals service for a committee's replacement) has made it,
    and holds the match's row lock.

    Validates ``outcome``, ``params`` (per outcome; ``game`` and ``move`` default to the
    dispute's game and moment), ``rule`` and ``reasoning``; applies the outcome through the
    services (see the module docstring); creates the Ruling with the normalised params and
    ``changes`` {before, after}; audits ``ruling.made``; sets the dispute's status: ruled, or
    decided for a committee's ruling (``appeal``).

    Outcomes and their params:
    - ``stands`` {"score"?}: nothing changes; with a score (required while the match is disputed
      with reports) that result, the confirmed one or a reported one, is confirmed;
    - ``score_corrected`` {"score"}: the final result set by the override path;
    - ``play_corrected`` {"game", "move", "play", "noticed_before_next_roll",
      "opponent_demands_replay"?, "log"?} and ``play_condoned`` (the same without "play"): the
      illegal play of action ``move`` (1-based) corrected or kept, the remedy checked under the
      match's move policy, in the game records with the game as played (``log``, else the
      dispute's) in place of the recorded one; the new logs give the result, or the match plays
      on if it is unfinished;
    - ``game_voided`` / ``game_replayed`` {"game"}: the game removed; the match confirmed with
      the recomputed result, or played on when it is no longer finished (a replay needs that);
    - ``crawford_double_voided`` {"game", "log"?}: the Crawford game's double voided in the game
      as played (``log``, else the dispute's), scored at cube 1;
    - ``penalty_points`` {"side", "points" | "minutes_late"}: points to the penalised side's
      opponent, before the match is confirmed; the match starts from them, or is awarded to the
      opponent once they pass half its length;
    - ``match_awarded`` {"side"}: the match confirmed for that side (the length to what the
      other had);
    - ``warning`` {"side"}: recorded only;
    - ``disqualification`` {"side"}: the side's entry withdrawn from the event (its unplayed
      matches forfeited to the opponents); only in an event;
    - ``wrong_length`` {"played_length", "choice", "score"?, "finished"?, "crawford_played"?}: a
      match played to the wrong length resolved by the director's choice among the engine's
      (``rulings.services.outcomes``).

    Raises DomainError ``bad_ruling`` (with ``field``) for bad input, Conflict ``ruling_in_force``
    (the dispute has one), ``ruling_refused`` (with the reason: the event's, the engine's or the
    match's state). Nothing is saved on failure.
    """
    if outcome not in Ruling.Outcome.values:
        raise errors.bad_ruling("outcome", _("one of %(choices)s, not %(given)r") % {
            "choices": ", ".join(Ruling.Outcome.values), "given": outcome})
    if not isinstance(params, dict):
        raise errors.bad_ruling("params", _("an object: the outcome's details by name"))
    rule = ruling_text("rule", rule, RULE_MAX)
    reasoning = ruling_text("reasoning", reasoning, STATEMENT_MAX)
    if Ruling.objects.filter(dispute=dispute, status=Ruling.Status.IN_FORCE).exists():
        raise errors.ruling_in_force()
    match = match_locked(dispute.match_id)
    context = RulingContext(dispute, match, director, params, f"Ruling on dispute {dispute.pk}: {rule}")
    try:
        normalised, before, after = OUTCOMES[outcome](context)
    except EngineError as error:
        raise engine_refusal(error, match) from None
    ruling = Ruling.objects.create(
        dispute=dispute, director=director, rule=rule, reasoning=reasoning, outcome=outcome, params=normalised,
        changes={"before": before, "after": after}, appeal=appeal,
    )
    dispute.status = Dispute.Status.DECIDED if appeal is not None else Dispute.Status.RULED
    dispute.save(update_fields=["status"])
    audit_record(actor=director, action="ruling.made", object_type="rulings.Ruling", object_id=ruling.pk,
                 tournament_id=event_id_of(match), match_id=match.pk, before=without_logs(before),
                 after={"outcome": outcome, "params": normalised, "dispute": dispute.pk,
                        "appeal": appeal.pk if appeal else None, "changes": without_logs(after)},
                 note=rule)
    ruling_made.send(ruling=ruling, match=match)
    return ruling


@transaction.atomic
def ruling_revert(*, ruling: Ruling, actor) -> None:
    """Undo what a ruling in force changed, from ``ruling.changes["before"]``: a result goes back
    to the previous confirmed result (override path) or to unconfirmed as it was (reports,
    status, games: ``match_reopen``); penalty points and the rated flag are restored; a
    disqualified entry is reinstated (its forfeited matches reopened as they were, the bracket
    synced). Audited ``ruling.reverted``. Marks nothing on the ruling or the dispute (the appeals
    service does). The caller holds the match's row lock.

    Raises Conflict ``revert_refused`` when the ruling is not in force or the event has moved on:
    the match (or a forfeited one) changed since the ruling, a later match built on the result
    has started. Rated matches played since never refuse it: the ratings ledger is replayed
    (``matches.services.ratings``). Nothing is saved on failure.
    """
    if ruling.status != Ruling.Status.IN_FORCE:
        raise errors.revert_refused(_("it is %(status)s") % {"status": ruling.get_status_display().lower()})
    dispute = ruling.dispute
    match = match_locked(dispute.match_id)
    before, after = ruling.changes.get("before"), ruling.changes.get("after")
    note = f"Ruling {ruling.pk} on dispute {dispute.pk} undone"
    try:
        if ruling.outcome == Ruling.Outcome.DISQUALIFICATION:
            entry_reinstate(match, before, after, actor, note)
        elif before and "status" in before:
            result_restore(match, before, after, actor, note)
    except Conflict as error:
        if error.code == "revert_refused":
            raise
        raise errors.revert_refused(error.message, reason=error.code, **error_scalars(error.details)) from None
    audit_record(actor=actor, action="ruling.reverted", object_type="rulings.Ruling", object_id=ruling.pk,
                 tournament_id=event_id_of(match), match_id=match.pk, before=without_logs(after),
                 after=without_logs(before), note=note)

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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.services import audit_record
from core.bounds import INT_MAX
from core.engine_messages import name_sides, refusal_text
from core.errors import Conflict, DomainError
from core.labels import field_label
from core.locking import locked_one, locked_rows
from core.outbox import outbox_enqueue
from engine import rulings as engine_rulings
from engine.actions import action_to_dict, actions_from_json
from engine.errors import EngineError
from matches.models import MAX_SCORE, Match, MatchPenalty, Report
from matches.services.logs import CheckedLog, log_from_json
from matches.services.penalties import penalties_follow, penalties_restore, penalty_record, penalty_rows, penalty_standing
from matches.services.reporting import (
    Claim,
    claim_make,
    match_locked,
    match_reopen,
    override_result,
    side_of_user,
    user_runs_match,
)
from rulings import errors
from rulings.hooks import ruling_made
from rulings.labels import RULING_LABELS
from rulings.models import Appeal, Dispute, Ruling
from rulings.tasks import rulings_notify_task
from rulings.wording import WRONG_LENGTH_CHOICES
from tournaments import errors as tournament_errors
from tournaments import formats
from tournaments.models import Entry, Pairing, Tournament, event_id_of, event_of
from tournaments.services import entry_withdraw
from tournaments.services import state as event_state
from tournaments.services.advance import bracket_sync
from tournaments.services.common import before_draw, runs, tournament_lock
from tournaments.services.naming import match_namer

from .disputes import STATEMENT_MAX

RULE_MAX = Ruling._meta.get_field("rule").max_length
#: A day: a player later than that did not come (a no-show, ruled by awarding the match).
MAX_MINUTES_LATE = 24 * 60

#: Which ruling parameter an engine refusal is about: those are bad input (400); any other engine
#: refusal means the match's games no longer hold with the ruling (409).
ENGINE_FIELDS = {
    "no_such_game": "game", "match_over": "game", "not_crawford_game": "game",
    "no_such_action": "move", "not_a_move": "move", "nothing_to_correct": "move", "nothing_to_condone": "move",
    "already_condoned": "move", "cannot_condone": "move", "correction_illegal": "play",
    "no_double": "log", "double_unanswered": "log", "bad_action": "log",
}



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
      (:func:`_wrong_length`).

    Raises DomainError ``bad_ruling`` (with ``field``) for bad input, Conflict ``ruling_in_force``
    (the dispute has one), ``ruling_refused`` (with the reason: the event's, the engine's or the
    match's state). Nothing is saved on failure.
    """
    if outcome not in Ruling.Outcome.values:
        raise errors.bad_ruling("outcome", _("one of %(choices)s, not %(given)r") % {
            "choices": ", ".join(Ruling.Outcome.values), "given": outcome})
    if not isinstance(params, dict):
        raise errors.bad_ruling("params", _("an object: the outcome's details by name"))
    rule = _text("rule", rule, RULE_MAX)
    reasoning = _text("reasoning", reasoning, STATEMENT_MAX)
    if Ruling.objects.filter(dispute=dispute, status=Ruling.Status.IN_FORCE).exists():
        raise errors.ruling_in_force()
    match = match_locked(dispute.match_id)
    context = _Context(dispute, match, director, params, f"Ruling on dispute {dispute.pk}: {rule}")
    try:
        normalised, before, after = OUTCOMES[outcome](context)
    except EngineError as error:
        raise _engine_refusal(error, match) from None
    ruling = Ruling.objects.create(
        dispute=dispute, director=director, rule=rule, reasoning=reasoning, outcome=outcome, params=normalised,
        changes={"before": before, "after": after}, appeal=appeal,
    )
    dispute.status = Dispute.Status.DECIDED if appeal is not None else Dispute.Status.RULED
    dispute.save(update_fields=["status"])
    audit_record(actor=director, action="ruling.made", object_type="rulings.Ruling", object_id=ruling.pk,
                 tournament_id=event_id_of(match), match_id=match.pk, before=_without_logs(before),
                 after={"outcome": outcome, "params": normalised, "dispute": dispute.pk,
                        "appeal": appeal.pk if appeal else None, "changes": _without_logs(after)},
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
            _reinstate(match, before, after, actor, note)
        elif before and "status" in before:
            _restore_result(match, before, after, actor, note)
    except Conflict as error:
        if error.code == "revert_refused":
            raise
        raise errors.revert_refused(error.message, reason=error.code, **_scalars(error.details)) from None
    audit_record(actor=actor, action="ruling.reverted", object_type="rulings.Ruling", object_id=ruling.pk,
                 tournament_id=event_id_of(match), match_id=match.pk, before=_without_logs(after),
                 after=_without_logs(before), note=note)


# --- input --------------------------------------------------------------------------------------


@dataclass
class _Context:
    dispute: Dispute
    match: Match
    director: Any
    params: dict
    note: str

    def take(self, *allowed: str) -> dict:
        """The params, refusing any this outcome does not read (a typo must not pass silently)."""
        unknown = sorted(set(self.params) - set(allowed))
        if unknown:
            known = _(", ").join(_label(name) for name in allowed) or _("none")
            raise errors.bad_ruling(unknown[0], _("not a detail of this outcome (it takes: %(known)s)") % {
                "known": known})
        return self.params


def _label(field: str) -> str:
    """A ruling's field or detail as the ruling form names it (core.labels)."""
    return field_label(RULING_LABELS, field)


def _text(field: str, value, limit: int) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise errors.bad_ruling(field, _("required: a ruling names the rule it applies and says why"))
    if len(text) > limit:
        raise errors.bad_ruling(field, _("%(length)s characters; the limit is %(limit)s") % {
            "length": len(text), "limit": limit})
    return text


def _whole(params: dict, field: str, minimum: int, default=None, *, maximum: int = INT_MAX) -> int:
    value = params.get(field, default)
    if value is None:
        raise errors.bad_ruling(field, _("required: give a whole number"))
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise errors.bad_ruling(field, _("a whole number from %(minimum)s to %(maximum)s") % {
            "minimum": minimum, "maximum": maximum})
    return value


def _flag(params: dict, field: str, default: bool | None = None) -> bool:
    value = params.get(field, default)
    if not isinstance(value, bool):
        # The page asks yes or no; the API takes true or false.
        raise errors.bad_ruling(field, _("answer yes or no (true or false)") if field in params
                                else _("required: answer yes or no (true or false)"))
    return value


def _side(params: dict) -> int:
    side = params.get("side")
    if side not in (0, 1) or isinstance(side, bool):
        raise errors.bad_ruling("side", _("one of the match's two sides (0 or 1)") if "side" in params
                                else _("required: choose one of the match's two sides"))
    return side


def _score(match: Match, params: dict, log: CheckedLog | None = None) -> Claim:
    value = params.get("score")
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise errors.bad_ruling("score", _("give the final score: both sides' points, the first side's first"))
    try:
        return claim_make(match, (value[0], value[1]), log)
    except DomainError as error:
        raise errors.bad_ruling("score", error.message) from None


def _scalars(details: dict) -> dict:
    return {k: v for k, v in details.items() if k not in ("field", "code") and isinstance(v, str | int | float | bool)}


def _engine_refusal(error: EngineError, match: Match) -> DomainError:
    """The engine's refusal of a ruling on ``match``, its sides named by their players."""
    where = {"reason": error.code, **_scalars(error.details)}
    field = ENGINE_FIELDS.get(error.code) or error.details.get("field")
    error.message = name_sides(error.message, (match.side0.name, match.side1.name))
    if field:
        return errors.bad_ruling(field, refusal_text(error), **where)
    return errors.ruling_refused(refusal_text(error), **where)


def _refused(error: Conflict) -> Conflict:
    return errors.ruling_refused(error.message, reason=error.code, **_scalars(error.details))


# --- the match's result state -------------------------------------------------------------------


def _live_reports(match: Match) -> list[Report]:
    return list(match.reports.exclude(status=Report.Status.SUPERSEDED).order_by("pk"))


def _state(match: Match, *, logs: bool = False) -> dict:
    """What a ruling may change of a match's result, as JSON (``logs``: with the game logs)."""
    games = match.games.order_by("number")
    state = {
        "match": match.pk, "status": match.status, "score": [match.score0, match.score1], "winner": match.winner,
        "rated": match.rated, "penalty": [match.penalty0, match.penalty1],
        "reports": [[r.pk, r.status] for r in _live_reports(match)],
        "games": [list(row) for row in games.values_list("number", "winner", "points")],
    }
    if logs:
        state["logs"] = list(games.values_list("log", flat=True)) if state["games"] else None
    if match.penalties_mid:
        # The mid-match penalties (as the engine places them, and their rows),
        # which a ruling that changes the games moves with them, and an overturned one puts back.
        state["penalties_mid"] = match.penalties_mid
        state["penalty_rows"] = penalty_rows(match)
    return state


SAME_KEYS = ("status", "score", "winner", "penalty", "reports", "games")


def _same_state(current: dict, recorded: dict) -> bool:
    # A ruling recorded before mid-match penalties existed holds none: compare them only when
    # one side of the comparison has them.
    penalties = ("penalties_mid",) if "penalties_mid" in current or "penalties_mid" in recorded else ()
    return all(current.get(key) == recorded.get(key) for key in (*SAME_KEYS, *penalties))


def _without_logs(changes):
    """The changes as the audit log keeps them: the game logs are in the ruling, not repeated."""
    if isinstance(changes, dict):
        return {k: (len(v) if k == "logs" and v is not None else _without_logs(v)) for k, v in changes.items()}
    if isinstance(changes, list):
        return [_without_logs(v) for v in changes]
    return changes


def _confirm(context: _Context, claim: Claim) -> None:
    """Confirm ``claim`` as the match's result through the override path; the event's refusal
    becomes the ruling's."""
    try:
        override_result(context.match, context.director, claim, context.note, ruled_dispute=context.dispute.pk)
    except Conflict as error:
        raise _refused(error) from None


def _reopen(context: _Context, log: CheckedLog | None) -> None:
    match = context.match
    event = event_of(match)
    if event is not None and event.status == Tournament.Status.FINISHED:
        raise errors.ruling_refused(_("the event is finished: the match cannot be played on; correct the score instead"))
    try:
        match_reopen(match_id=match.pk, actor=context.director, note=context.note, log=log)
    except Conflict as error:
        raise _refused(error) from None
    match.refresh_from_db()


def _stored_games(match: Match) -> list[list]:
    """The match's game records as the engine's action lists; refused without any."""
    logs = list(match.games.order_by("number").values_list("log", flat=True))
    if not logs:
        raise errors.ruling_refused(_("this match has no game records; correct the score instead"))
    return [actions_from_json(log) for log in logs]


def _penalties(match: Match, games: list[list]) -> tuple:
    """The match's mid-match penalties, each placed before the stored game it came before (the
    engine then keeps it between the same two games whatever the ruling changes)."""
    if not match.penalties_mid:
        return ()
    return engine_rulings.penalties_placed(match.rules(), games, match.penalties_at(), start=match.start)


def _ruled_result(context: _Context, ruled: engine_rulings.RuledMatch, *, replay_game: bool = False) -> None:
    """Make the logs a ruling produced the match's record: the result they give is confirmed, or
    (unfinished) the match is played on from them. A money session has no end: its new totals
    are confirmed, unless a game is to be replayed. The mid-match penalties follow the ruled
    replay first (the scores they now come at), so every later replay of the logs places them."""
    match = context.match
    if match.penalties_mid:
        penalties_follow(match, ruled.replay.penalties)
    games = [[action_to_dict(action) for action in game] for game in ruled.games]
    log = CheckedLog(games, ruled.replay)
    finished = not replay_game if match.is_money else ruled.replay.winner is not None
    if finished:
        _confirm(context, claim_make(match, ruled.replay.final_score, log))
    else:
        _reopen(context, log)


# --- the outcomes -------------------------------------------------------------------------------

Outcome = Callable[[_Context], tuple[dict, Any, Any]]


def _stands(context: _Context):
    match = context.match
    params = context.take("score")
    before = _state(match, logs=True)
    live = [r for r in _live_reports(match) if r.side is not None]
    if "score" not in params:
        if match.status == Match.Status.DISPUTED and live:
            claimed = ", ".join(f"{r.score0}-{r.score1}" for r in live)
            raise errors.bad_ruling("score", _("the reports disagree (%(claimed)s): say which result stands") % {
                "claimed": claimed})
        return {}, before, _state(match)
    claim = _score(match, params)
    if match.status == Match.Status.CONFIRMED:
        if claim.score != (match.score0, match.score1):
            raise errors.bad_ruling("score", _("the confirmed result is %(score)s; to change it, correct the score") % {
                "score": f"{match.score0}-{match.score1}"})
        return {"score": list(claim.score)}, before, _state(match)
    report = next((r for r in live if r.score == claim.score), None)
    if report is None:
        claimed = ", ".join(f"{r.score0}-{r.score1}" for r in live) or _("none")
        raise errors.bad_ruling("score", _("%(score)s is not a reported result of this match (reported: %(claimed)s); "
                                           "to set another, correct the score") % {
            "score": f"{claim.score[0]}-{claim.score[1]}", "claimed": claimed})
    log = (log_from_json(report.games, match.rules(), start=match.start, penalties=match.penalties_at())
           if report.games is not None else None)
    _confirm(context, claim_make(match, claim.score, log))
    return {"score": list(claim.score)}, before, _state(match)


def _score_corrected(context: _Context):
    match = context.match
    claim = _score(match, context.take("score"))
    before = _state(match, logs=True)
    _confirm(context, claim)
    return {"score": list(claim.score)}, before, _state(match)


def _as_played(context: _Context, params: dict, number: int) -> list | None:
    """The disputed game as played, as the engine's actions: ``params["log"]``, else the log
    the dispute was opened with when it is about this game; None without either."""
    played = params.get("log")
    if played is None and context.dispute.game_number == number:
        played = context.dispute.log
    if played is None:
        return None
    if not isinstance(played, list):
        raise errors.bad_ruling("log", _("the game's list of actions"))
    try:
        return actions_from_json(played)
    except EngineError as error:
        raise errors.bad_ruling("log", refusal_text(error), reason=error.code) from None


def _game_and_move(context: _Context, params: dict, *, move: bool) -> dict:
    out = {"game": _whole(params, "game", 1, context.dispute.game_number)}
    if move:
        out["move"] = _whole(params, "move", 1, context.dispute.move_number)
    return out


def _illegal_play(context: _Context, *, corrected: bool):
    match = context.match
    names = ("game", "move", "log", "noticed_before_next_roll", "opponent_demands_replay") + (("play",) if corrected else ())
    params = context.take(*names)
    where = _game_and_move(context, params, move=True)
    noticed = _flag(params, "noticed_before_next_roll")
    demands = _flag(params, "opponent_demands_replay", False)
    normalised = {**where, "noticed_before_next_roll": noticed, "opponent_demands_replay": demands}
    if corrected:
        play = params.get("play")
        if not isinstance(play, str) or not play.strip():
            raise errors.bad_ruling("play", _("the legal play that replaces the illegal one, e.g. 13/7 8/7"))
        normalised["play"] = play.strip()
    rules = match.rules()
    remedy = engine_rulings.illegal_play_remedy(responsible_moves=rules.responsible_moves,
                                                noticed_before_next_roll=noticed, opponent_demands_replay=demands)
    policy = match.get_move_policy_display().lower()
    if corrected and remedy != engine_rulings.CORRECT:
        field = "noticed_before_next_roll" if not noticed else "opponent_demands_replay"
        if not noticed:
            message = _("noticed after the opponent rolled or doubled, the play stands under the %(policy)s policy: "
                        "it is condoned, not corrected")
        else:
            message = _("the opponent did not demand the roll be replayed, the play stands under the %(policy)s "
                        "policy: it is condoned, not corrected")
        raise errors.bad_ruling(field, message % {"policy": policy})
    if not corrected and remedy != engine_rulings.STANDS:
        field = "noticed_before_next_roll" if not rules.responsible_moves else "opponent_demands_replay"
        if not rules.responsible_moves:
            message = _("noticed before the opponent rolled or doubled, the play must be corrected under the "
                        "%(policy)s policy")
        else:
            message = _("the opponent demanded the roll be replayed, the play must be corrected under the "
                        "%(policy)s policy")
        raise errors.bad_ruling(field, message % {"policy": policy})
    games = _stored_games(match)
    penalties = _penalties(match, games)
    played = _as_played(context, params, where["game"])
    if played is not None:
        if "log" in params:
            normalised["log"] = [action_to_dict(a) for a in played]
        if where["game"] <= len(games):
            games[where["game"] - 1] = played
    before = _state(match, logs=True)
    if corrected:
        ruled = engine_rulings.play_corrected(rules, games, where["game"], where["move"], normalised["play"],
                                              start=match.start, penalties=penalties)
    elif rules.responsible_moves:
        ruled = engine_rulings.play_condoned(rules, games, where["game"], where["move"], start=match.start,
                                             penalties=penalties)
    else:
        # Under legal moves a play noticed too late stands, and the game keeps its
        # verified log, the play marked "stood" (RULES.md §9), not condoned.
        ruled = engine_rulings.play_stood(rules, games, where["game"], where["move"], start=match.start,
                                          penalties=penalties)
        normalised["stood"] = True
    _ruled_result(context, ruled)
    return normalised, before, _state(match)


def _game_removed(context: _Context, *, replayed: bool):
    match = context.match
    params = _game_and_move(context, context.take("game"), move=False)
    games = _stored_games(match)
    before = _state(match, logs=True)
    ruled = engine_rulings.game_voided(match.rules(), games, params["game"], start=match.start,
                                       penalties=_penalties(match, games))
    if replayed and not match.is_money and ruled.replay.winner is not None:
        a, b = ruled.replay.final_score
        raise errors.ruling_refused(_("the match is decided without game %(game)s (%(score)s): there is nothing to "
                                      "replay; void the game instead") % {"game": params["game"], "score": f"{a}-{b}"})
    _ruled_result(context, ruled, replay_game=replayed)
    return params, before, _state(match)


def _crawford_double_voided(context: _Context):
    match = context.match
    params = context.take("game", "log")
    normalised = _game_and_move(context, params, move=False)
    as_played = _as_played(context, params, normalised["game"])
    if as_played is None:
        raise errors.bad_ruling("log", _("give the Crawford game as played (the dispute has no log of it)"))
    if "log" in params:
        normalised["log"] = [action_to_dict(a) for a in as_played]
    games = _stored_games(match)
    before = _state(match, logs=True)
    ruled = engine_rulings.crawford_double_voided(match.rules(), games, normalised["game"], as_played,
                                                  start=match.start, penalties=_penalties(match, games))
    _ruled_result(context, ruled)
    return normalised, before, _state(match)


def _penalty_points(context: _Context):
    match = context.match
    params = context.take("side", "points", "minutes_late")
    side = _side(params)
    if ("points" in params) == ("minutes_late" in params):
        raise errors.bad_ruling("points", _("give the penalty either as “%(points)s” or as “%(minutes)s”, one of the "
                                            "two") % {"points": _label("points"), "minutes": _label("minutes_late")})
    if match.is_money:
        raise errors.bad_ruling("outcome", _("a money session has no penalty points"))
    if match.status == Match.Status.CONFIRMED:
        raise errors.ruling_refused(_("the match is finished; correct the score or award the match"))
    if any(r.side is not None for r in _live_reports(match)):
        raise errors.ruling_refused(_("the match has been reported and penalty points count from its start; "
                                      "correct the score or award the match"))
    normalised = {"side": side}
    if "points" in params:
        # More than half the length already loses the match: a larger penalty changes nothing.
        points = _whole(params, "points", 1, maximum=match.length)
    else:
        minutes = _whole(params, "minutes_late", 0, maximum=MAX_MINUTES_LATE)
        event = event_of(match)
        per_point = event.penalty_minutes_per_point if event is not None else engine_rulings.MINUTES_PER_POINT
        points = engine_rulings.late_arrival_points(minutes, per_point)
        if points == 0:
            raise errors.bad_ruling("minutes_late", ngettext(
                "%(minutes)s minute late costs no penalty point (one per %(per_point)s minutes)",
                "%(minutes)s minutes late cost no penalty point (one per %(per_point)s minutes)", minutes) % {
                "minutes": minutes, "per_point": per_point})
        normalised["minutes_late"] = minutes
    normalised["points"] = points
    before = _state(match, logs=True)
    if match.penalties_mid:
        # Once penalties were given mid-match, the score has moved on from the
        # start: these points are given as one more, at the score the last one left (the Crawford
        # game follows from it; more than half the length in all loses the match).
        reason = MatchPenalty.Reason.LATE if "minutes_late" in normalised else MatchPenalty.Reason.OTHER
        try:
            _penalty, final = penalty_record(match, side, points, reason, context.director)
        except DomainError as error:
            raise errors.bad_ruling("points", error.message, reason=error.code) from None
        if final is not None:
            _confirm(context, claim_make(match, final, None))
            normalised["match_lost"] = True
        normalised["mid_match"] = True
        return normalised, before, _state(match)
    opponent = 1 - side
    credit = [match.penalty0, match.penalty1]
    credit[opponent] += points
    match.penalty0, match.penalty1 = credit
    match.save(update_fields=["penalty0", "penalty1", "updated_at"])
    if engine_rulings.penalty_loses_match(match.length, credit[opponent]):
        score = engine_rulings.match_ended_by_award(match.length, opponent, score=(credit[0], credit[1]))
        _confirm(context, claim_make(match, score, None))
        normalised["match_lost"] = True
    return normalised, before, _state(match)


def _match_awarded(context: _Context):
    match = context.match
    side = _side(context.take("side"))
    if match.is_money:
        raise errors.bad_ruling("outcome", _("a money session has no match to award"))
    before = _state(match, logs=True)
    # The loser keeps the points he had as the score stood: the penalty points given mid-match
    # included, else those of the start.
    score = engine_rulings.match_ended_by_award(match.length, side, score=penalty_standing(match))
    _confirm(context, claim_make(match, score, None))
    return {"side": side}, before, _state(match)


def _warning(context: _Context):
    match = context.match
    side = _side(context.take("side"))
    return {"side": side}, None, {"warning": {"side": side, "name": match.sides[side].name}}


def _entry_in(match: Match, event: Tournament, side: int) -> Entry | None:
    """The side's entry that plays ``match``: a player who re-entered (a buy-back into the main) holds two
    entries of the event, and the one this match belongs to is the one disqualified."""
    entries = list(Entry.objects.filter(tournament=event, side_id=match.sides[side].pk).order_by("pk"))
    pairing = Pairing.objects.filter(match=match).only("entry0_id", "entry1_id").first()
    playing = {pairing.entry0_id, pairing.entry1_id} if pairing else set()
    return next((entry for entry in entries if entry.pk in playing), entries[0] if entries else None)


def _disqualification(context: _Context):
    match = context.match
    side = _side(context.take("side"))
    event = event_of(match)
    if event is None:
        raise errors.ruling_refused(_("the match is not part of an event: there is nothing to disqualify from"))
    if formats.format_of(event).has_teams:
        raise errors.ruling_refused(_("in a team event a player is not an entrant: the captain or the organiser "
                                      "withdraws the team"))
    if before_draw(event):
        raise errors.ruling_refused(_("the event has not been drawn"))
    entry = _entry_in(match, event, side)
    if entry is None:
        raise errors.ruling_refused(_("%(name)s is not an entrant of %(event)s") % {
            "name": match.sides[side].name, "event": event.name})
    forfeitable = _forfeitable(entry)
    before = {"entry": {"id": entry.pk, "status": entry.status},
              "matches": [_state(m, logs=True) for m in forfeitable]}
    # The withdrawal forfeits through the event's director; a committee member applying a
    # replacement ruling is not one, so the event's organiser stands in for him there.
    user = context.director if runs(event, context.director) else event.organiser
    try:
        entry_withdraw(tournament_id=event.pk, entry_id=entry.pk, user=user)
    except Conflict as error:
        raise _refused(error) from None
    match.refresh_from_db()
    entry.refresh_from_db()
    after = {"entry": {"id": entry.pk, "status": entry.status},
             "matches": [_state(m) for m in Match.objects.filter(pk__in=[m.pk for m in forfeitable]).order_by("pk")]}
    return {"side": side}, before, after


#: A length a match may have been played to (a 64-point match is already a marathon).
MAX_PLAYED_LENGTH = 99


def _wrong_length(context: _Context):
    """A match played to ``played_length`` instead of its own length. The engine
    gives the director's choices (``engine.rulings.wrong_length_choices``); the choice made is
    applied through the result services: the result stands (the match's length becomes the
    length played, and the score is confirmed), the side that reached the right length wins
    (confirmed at the length), or the match goes on to its right length from the score as it
    stands (a reported or confirmed result is taken back; the Crawford game follows from that
    score)."""
    match = context.match
    params = context.take("played_length", "choice", "score", "finished", "crawford_played")
    if match.is_money:
        raise errors.bad_ruling("outcome", _("a money session has no length to get wrong"))
    played = _whole(params, "played_length", 1, maximum=MAX_PLAYED_LENGTH)
    reported = match.status in (Match.Status.CONFIRMED, Match.Status.REPORTED, Match.Status.DISPUTED)
    finished = _flag(params, "finished", reported)
    score = _score_standing(match, params)
    stored = list(match.games.values_list("crawford", flat=True))
    crawford_played = _flag(params, "crawford_played", any(stored))
    answer = engine_rulings.wrong_length_choices(match.rules(), played, score, finished=finished,
                                                 crawford_played=crawford_played)
    choice = params.get("choice")
    if choice not in answer.choices:
        choices = _(", ").join(f"“{WRONG_LENGTH_CHOICES.get(c, c)}”" for c in answer.choices)
        raise errors.bad_ruling("choice", _("for this match, one of: %(choices)s") % {"choices": choices})
    normalised = {"played_length": played, "choice": choice, "score": list(score), "finished": finished,
                  "length": match.length}
    before = {**_state(match, logs=True), "length": match.length}
    if choice == engine_rulings.RESULT_STANDS:
        match.length = played
        match.save(update_fields=["length", "updated_at"])
        try:
            claim = claim_make(match, score, None)
        except DomainError as error:
            raise errors.bad_ruling("score", error.message, reason=error.code) from None
        _confirm(context, claim)
    elif choice == engine_rulings.WON_AT_LENGTH:
        final = engine_rulings.match_ended_by_award(match.length, answer.winner, score=(
            min(score[0], match.length), min(score[1], match.length)))
        _confirm(context, claim_make(match, final, None))
    else:
        normalised["crawford_next"] = answer.state.next_is_crawford
        if reported or match.reports.exclude(status=Report.Status.SUPERSEDED).exists():
            _reopen(context, None)
    return normalised, before, {**_state(match), "length": match.length}


def _standing_needed() -> str:
    return _("give the score as it stands: both sides' points, the first side's first")


def _score_standing(match: Match, params: dict) -> tuple[int, int]:
    """The score a wrong-length ruling starts from: ``params["score"]``, else the confirmed
    result (in full), else the one score every live report gives."""
    value = params.get("score")
    if value is None:
        if match.status == Match.Status.CONFIRMED:
            value = match.full_score or (match.score0, match.score1)
        else:
            reported = {r.full_score or r.score for r in _live_reports(match) if r.side is not None}
            value = reported.pop() if len(reported) == 1 else None
    if value is None:
        raise errors.bad_ruling("score", _standing_needed())
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SCORE for v in value)):
        raise errors.bad_ruling("score", _standing_needed())
    return value[0], value[1]


def _forfeitable(entry) -> list[Match]:
    """The entry's matches a withdrawal forfeits: those of its pairings without a confirmed result."""
    return list(
        Match.objects.filter(Q(pairing__entry0=entry) | Q(pairing__entry1=entry), pairing__tournament_id=entry.tournament_id)
        .exclude(status=Match.Status.CONFIRMED).order_by("pk")
    )


OUTCOMES: dict[str, Outcome] = {
    Ruling.Outcome.STANDS: _stands,
    Ruling.Outcome.SCORE_CORRECTED: _score_corrected,
    Ruling.Outcome.PLAY_CORRECTED: lambda context: _illegal_play(context, corrected=True),
    Ruling.Outcome.PLAY_CONDONED: lambda context: _illegal_play(context, corrected=False),
    Ruling.Outcome.GAME_VOIDED: lambda context: _game_removed(context, replayed=False),
    Ruling.Outcome.GAME_REPLAYED: lambda context: _game_removed(context, replayed=True),
    Ruling.Outcome.CRAWFORD_DOUBLE_VOIDED: _crawford_double_voided,
    Ruling.Outcome.PENALTY_POINTS: _penalty_points,
    Ruling.Outcome.MATCH_AWARDED: _match_awarded,
    Ruling.Outcome.WARNING: _warning,
    Ruling.Outcome.DISQUALIFICATION: _disqualification,
    Ruling.Outcome.WRONG_LENGTH: _wrong_length,
}


# --- undoing ------------------------------------------------------------------------------------


def _restore_result(match: Match, before: dict, after: dict, actor, note: str) -> None:
    """Put the match's result back as ``before`` recorded it, provided it is still as the ruling
    left it (``after``)."""
    if not _same_state(_state(match), after):
        raise errors.revert_refused(_("the match has changed since the ruling"))
    _put_back(match, before, actor, note)


def _put_back(match: Match, before: dict, actor, note: str) -> None:
    penalty, rated = tuple(before["penalty"]), before["rated"]
    if before.get("length") not in (None, match.length):
        # A wrong-length ruling changed the match's length (the result stood as played).
        match.length = before["length"]
        match.save(update_fields=["length", "updated_at"])
    if (match.penalty0, match.penalty1) != penalty or match.rated != rated:
        match.penalty0, match.penalty1 = penalty
        match.rated = rated
        match.save(update_fields=["penalty0", "penalty1", "rated", "updated_at"])
    # The mid-match penalties as they were: the logs put back replay with them.
    if before.get("penalties_mid") or match.penalties_mid:
        penalties_restore(match, before.get("penalties_mid") or [], before.get("penalty_rows") or [])
    if _same_state(_state(match), before):
        return
    logs = before.get("logs")
    if before["status"] == Match.Status.CONFIRMED:
        log = (log_from_json(logs, match.rules(), start=penalty, penalties=match.penalties_at())
               if logs is not None else None)
        override_result(match, actor, Claim(tuple(before["score"]), log), note)
    else:
        log = log_from_json(logs or [], match.rules(), start=penalty, penalties=match.penalties_at(), partial=True)
        match_reopen(match_id=match.pk, actor=actor, note=note, log=log, status=before["status"],
                     reports=dict((pk, status) for pk, status in before["reports"]))
        match.refresh_from_db()


def _reinstate(match: Match, before: dict, after: dict, actor, note: str) -> None:
    """Reinstate a disqualified entry: the matches its withdrawal forfeited are put back as they
    were, the entry's status restored, and the bracket synced (a later match that the forfeits'
    winners have started refuses it)."""
    forfeited = {m.pk: m for m in _locked_matches([s["match"] for s in after["matches"]])}
    for recorded in after["matches"]:
        other = forfeited[recorded["match"]]
        if not _same_state(_state(other), recorded):
            raise errors.revert_refused(_("the match %(a)s v %(b)s, forfeited by the disqualification, has changed "
                                          "since") % {"a": other.side0.name, "b": other.side1.name}, match=other.pk)
    entry = Entry.objects.select_related("side__player_a", "side__player_b", "team").get(pk=after["entry"]["id"])
    if entry.status != after["entry"]["status"]:
        raise errors.revert_refused(_("the entrant's status has changed since the disqualification"))
    for was in before["matches"]:
        _put_back(forfeited[was["match"]], was, actor, note)
    tournament = tournament_lock(entry.tournament_id)
    entry.status = before["entry"]["status"]
    entry.save(update_fields=["status"])
    audit_record(actor=actor, action="entry.reinstated", object_type="tournaments.Entry", object_id=entry.pk,
                 tournament_id=tournament.pk, match_id=match.pk, before=after["entry"], after=before["entry"], note=note)
    if formats.format_of(tournament).has_bracket:
        name, namer = event_state.entrant_name(entry), match_namer(tournament)
        bracket_sync(tournament, event_state.load(tournament), created_by=tournament.organiser,
                     refuse=lambda dependent, why: tournament_errors.result_built_on(name, namer(dependent), why,
                                                                                     key=dependent))


def _locked_matches(ids: list[int]) -> list[Match]:
    return locked_rows(Match.objects.with_side_ids(), ids)

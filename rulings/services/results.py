"""What a ruling does to a match's result, and how it is undone: the result state a ruling records
(``changes`` before and after), confirmed through the override path or played on through
``match_reopen``, put back when an appeal overturns the ruling, and a disqualified entry
reinstated."""

from __future__ import annotations

from django.utils.translation import gettext as _

from audit.services import audit_record
from core.errors import Conflict
from core.locking import locked_rows
from core.text import isolate
from engine import rulings as engine_rulings
from engine.actions import action_to_dict, actions_from_json
from matches.models import Match, Report
from matches.services.logs import CheckedLog, log_from_json
from matches.services.penalties import penalties_follow, penalties_restore, penalty_rows
from matches.services.reporting import (
    Claim,
    claim_make,
    match_reopen,
    override_result,
)
from rulings import errors
from tournaments import errors as tournament_errors
from tournaments import formats
from tournaments.models import Entry, Tournament, event_of
from tournaments.services import state as event_state
from tournaments.services.common import tournament_lock
from tournaments.services.draw_sync import bracket_sync
from tournaments.services.naming import match_namer

from .checks import RulingContext, refused

# --- the match's result state -------------------------------------------------------------------


def live_reports(match: Match) -> list[Report]:
    return list(match.reports.exclude(status=Report.Status.SUPERSEDED).order_by("pk"))


def result_state(match: Match, *, logs: bool = False) -> dict:
    """What a ruling may change of a match's result, as JSON (``logs``: with the game logs)."""
    games = match.games.order_by("number")
    state = {
        "match": match.pk, "status": match.status, "score": [match.score0, match.score1], "winner": match.winner,
        "rated": match.rated, "penalty": [match.penalty0, match.penalty1],
        "reports": [[r.pk, r.status] for r in live_reports(match)],
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


def same_state(current: dict, recorded: dict) -> bool:
    # A ruling recorded before mid-match penalties existed holds none: compare them only when
    # one side of the comparison has them.
    penalties = ("penalties_mid",) if "penalties_mid" in current or "penalties_mid" in recorded else ()
    return all(current.get(key) == recorded.get(key) for key in (*SAME_KEYS, *penalties))


def without_logs(changes):
    """The changes as the audit log keeps them: the game logs are in the ruling, not repeated."""
    if isinstance(changes, dict):
        return {k: (len(v) if k == "logs" and v is not None else without_logs(v)) for k, v in changes.items()}
    if isinstance(changes, list):
        return [without_logs(v) for v in changes]
    return changes


def result_confirm(context: RulingContext, claim: Claim) -> None:
    """Confirm ``claim`` as the match's result through the override path; the event's refusal
    becomes the ruling's."""
    try:
        override_result(context.match, context.director, claim, context.note, ruled_dispute=context.dispute.pk)
    except Conflict as error:
        raise refused(error) from None


def result_reopen(context: RulingContext, log: CheckedLog | None) -> None:
    match = context.match
    event = event_of(match)
    if event is not None and event.status == Tournament.Status.FINISHED:
        raise errors.ruling_refused(_("the event is finished: the match cannot be played on; correct the score instead"))
    try:
        match_reopen(match_id=match.pk, actor=context.director, note=context.note, log=log)
    except Conflict as error:
        raise refused(error) from None
    match.refresh_from_db()


def stored_games(match: Match) -> list[list]:
    """The match's game records as the engine's action lists; refused without any."""
    logs = list(match.games.order_by("number").values_list("log", flat=True))
    if not logs:
        raise errors.ruling_refused(_("this match has no game records; correct the score instead"))
    return [actions_from_json(log) for log in logs]


def mid_penalties(match: Match, games: list[list]) -> tuple:
    """The match's mid-match penalties, each placed before the stored game it came before (the
    engine then keeps it between the same two games whatever the ruling changes)."""
    if not match.penalties_mid:
        return ()
    return engine_rulings.penalties_placed(match.rules(), games, match.penalties_at(), start=match.start)


def ruled_result(context: RulingContext, ruled: engine_rulings.RuledMatch, *, replay_game: bool = False) -> None:
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
        result_confirm(context, claim_make(match, ruled.replay.final_score, log))
    else:
        result_reopen(context, log)


# --- undoing ------------------------------------------------------------------------------------


def result_restore(match: Match, before: dict, after: dict, actor, note: str) -> None:
    """Put the match's result back as ``before`` recorded it, provided it is still as the ruling
    left it (``after``)."""
    if not same_state(result_state(match), after):
        raise errors.revert_refused(_("the match has changed since the ruling"))
    result_put_back(match, before, actor, note)


def result_put_back(match: Match, before: dict, actor, note: str) -> None:
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
    if same_state(result_state(match), before):
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


def entry_reinstate(match: Match, before: dict, after: dict, actor, note: str) -> None:
    """Reinstate a disqualified entry: the matches its withdrawal forfeited are put back as they
    were, the entry's status restored, and the bracket synced (a later match that the forfeits'
    winners have started refuses it)."""
    forfeited = {m.pk: m for m in _locked_matches([s["match"] for s in after["matches"]])}
    for recorded in after["matches"]:
        other = forfeited[recorded["match"]]
        if not same_state(result_state(other), recorded):
            raise errors.revert_refused(_("the match %(a)s v %(b)s, forfeited by the disqualification, has changed "
                                          "since") % {"a": isolate(other.side0.name), "b": isolate(other.side1.name)},
                                        match=other.pk)
    entry = Entry.objects.select_related("side__player_a", "side__player_b", "team").get(pk=after["entry"]["id"])
    if entry.status != after["entry"]["status"]:
        raise errors.revert_refused(_("the entrant's status has changed since the disqualification"))
    for was in before["matches"]:
        result_put_back(forfeited[was["match"]], was, actor, note)
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

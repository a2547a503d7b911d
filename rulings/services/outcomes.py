"""The outcomes a director rules (``ruling_apply`` lists them and their details): each reads its
details, applies itself through the services that own what it changes, and answers the
normalised details with the match's state before and after."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.engine_messages import refusal_text
from core.errors import Conflict, DomainError
from core.text import join_list
from engine import rulings as engine_rulings
from engine.actions import action_to_dict, actions_from_json
from engine.errors import EngineError
from matches.models import MAX_SCORE, Match, MatchPenalty, Report
from matches.services.logs import log_from_json
from matches.services.penalties import penalty_record, penalty_standing
from matches.services.reporting import (
    claim_make,
)
from rulings import errors
from rulings.models import Ruling
from rulings.wording import WRONG_LENGTH_CHOICES
from tournaments import formats
from tournaments.models import Entry, Pairing, Tournament, event_of
from tournaments.services import entry_withdraw
from tournaments.services.common import before_draw, runs

from .checks import RulingContext, param_flag, param_score, param_side, param_whole, refused, ruling_label
from .results import (
    live_reports,
    mid_penalties,
    result_confirm,
    result_reopen,
    result_state,
    ruled_result,
    stored_games,
)

#: A day: a player later than that did not come (a no-show, ruled by awarding the match).
MAX_MINUTES_LATE = 24 * 60


# --- the outcomes -------------------------------------------------------------------------------

Outcome = Callable[[RulingContext], tuple[dict, Any, Any]]


def _stands(context: RulingContext):
    match = context.match
    params = context.take("score")
    before = result_state(match, logs=True)
    live = [r for r in live_reports(match) if r.side is not None]
    if "score" not in params:
        if match.status == Match.Status.DISPUTED and live:
            claimed = join_list(f"{r.score0}-{r.score1}" for r in live)
            raise errors.bad_ruling("score", _("the reports disagree (%(claimed)s): say which result stands") % {
                "claimed": claimed})
        return {}, before, result_state(match)
    claim = param_score(match, params)
    if match.status == Match.Status.CONFIRMED:
        if claim.score != (match.score0, match.score1):
            raise errors.bad_ruling("score", _("the confirmed result is %(score)s; to change it, correct the score") % {
                "score": f"{match.score0}-{match.score1}"})
        return {"score": list(claim.score)}, before, result_state(match)
    report = next((r for r in live if r.score == claim.score), None)
    if report is None:
        claimed = join_list(f"{r.score0}-{r.score1}" for r in live) or _("none")
        raise errors.bad_ruling("score", _("%(score)s is not a reported result of this match (reported: %(claimed)s); "
                                           "to set another, correct the score") % {
            "score": f"{claim.score[0]}-{claim.score[1]}", "claimed": claimed})
    log = (log_from_json(report.games, match.rules(), start=match.start, penalties=match.penalties_at())
           if report.games is not None else None)
    result_confirm(context, claim_make(match, claim.score, log))
    return {"score": list(claim.score)}, before, result_state(match)


def _score_corrected(context: RulingContext):
    match = context.match
    claim = param_score(match, context.take("score"))
    before = result_state(match, logs=True)
    result_confirm(context, claim)
    return {"score": list(claim.score)}, before, result_state(match)


def _as_played(context: RulingContext, params: dict, number: int) -> list | None:
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


def _game_and_move(context: RulingContext, params: dict, *, move: bool) -> dict:
    out = {"game": param_whole(params, "game", 1, context.dispute.game_number)}
    if move:
        out["move"] = param_whole(params, "move", 1, context.dispute.move_number)
    return out


def _illegal_play(context: RulingContext, *, corrected: bool):
    match = context.match
    names = ("game", "move", "log", "noticed_before_next_roll", "opponent_demands_replay") + (("play",) if corrected else ())
    params = context.take(*names)
    where = _game_and_move(context, params, move=True)
    noticed = param_flag(params, "noticed_before_next_roll")
    demands = param_flag(params, "opponent_demands_replay", False)
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
    games = stored_games(match)
    penalties = mid_penalties(match, games)
    played = _as_played(context, params, where["game"])
    if played is not None:
        if "log" in params:
            normalised["log"] = [action_to_dict(a) for a in played]
        if where["game"] <= len(games):
            games[where["game"] - 1] = played
    before = result_state(match, logs=True)
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
    ruled_result(context, ruled)
    return normalised, before, result_state(match)


def _game_removed(context: RulingContext, *, replayed: bool):
    match = context.match
    params = _game_and_move(context, context.take("game"), move=False)
    games = stored_games(match)
    before = result_state(match, logs=True)
    ruled = engine_rulings.game_voided(match.rules(), games, params["game"], start=match.start,
                                       penalties=mid_penalties(match, games))
    if replayed and not match.is_money and ruled.replay.winner is not None:
        a, b = ruled.replay.final_score
        raise errors.ruling_refused(_("the match is decided without game %(game)s (%(score)s): there is nothing to "
                                      "replay; void the game instead") % {"game": params["game"], "score": f"{a}-{b}"})
    ruled_result(context, ruled, replay_game=replayed)
    return params, before, result_state(match)


def _crawford_double_voided(context: RulingContext):
    match = context.match
    params = context.take("game", "log")
    normalised = _game_and_move(context, params, move=False)
    as_played = _as_played(context, params, normalised["game"])
    if as_played is None:
        raise errors.bad_ruling("log", _("give the Crawford game as played (the dispute has no log of it)"))
    if "log" in params:
        normalised["log"] = [action_to_dict(a) for a in as_played]
    games = stored_games(match)
    before = result_state(match, logs=True)
    ruled = engine_rulings.crawford_double_voided(match.rules(), games, normalised["game"], as_played,
                                                  start=match.start, penalties=mid_penalties(match, games))
    ruled_result(context, ruled)
    return normalised, before, result_state(match)


def _penalty_points(context: RulingContext):
    match = context.match
    params = context.take("side", "points", "minutes_late")
    side = param_side(params)
    if ("points" in params) == ("minutes_late" in params):
        raise errors.bad_ruling("points", _("give the penalty either as “%(points)s” or as “%(minutes)s”, one of the "
                                            "two") % {"points": ruling_label("points"), "minutes": ruling_label("minutes_late")})
    if match.is_money:
        raise errors.bad_ruling("outcome", _("a money session has no penalty points"))
    if match.status == Match.Status.CONFIRMED:
        raise errors.ruling_refused(_("the match is finished; correct the score or award the match"))
    if any(r.side is not None for r in live_reports(match)):
        raise errors.ruling_refused(_("the match has been reported and penalty points count from its start; "
                                      "correct the score or award the match"))
    normalised = {"side": side}
    if "points" in params:
        # More than half the length already loses the match: a larger penalty changes nothing.
        points = param_whole(params, "points", 1, maximum=match.length)
    else:
        minutes = param_whole(params, "minutes_late", 0, maximum=MAX_MINUTES_LATE)
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
    before = result_state(match, logs=True)
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
            result_confirm(context, claim_make(match, final, None))
            normalised["match_lost"] = True
        normalised["mid_match"] = True
        return normalised, before, result_state(match)
    opponent = 1 - side
    credit = [match.penalty0, match.penalty1]
    credit[opponent] += points
    match.penalty0, match.penalty1 = credit
    match.save(update_fields=["penalty0", "penalty1", "updated_at"])
    if engine_rulings.penalty_loses_match(match.length, credit[opponent]):
        score = engine_rulings.match_ended_by_award(match.length, opponent, score=(credit[0], credit[1]))
        result_confirm(context, claim_make(match, score, None))
        normalised["match_lost"] = True
    return normalised, before, result_state(match)


def _match_awarded(context: RulingContext):
    match = context.match
    side = param_side(context.take("side"))
    if match.is_money:
        raise errors.bad_ruling("outcome", _("a money session has no match to award"))
    before = result_state(match, logs=True)
    # The loser keeps the points he had as the score stood: the penalty points given mid-match
    # included, else those of the start.
    score = engine_rulings.match_ended_by_award(match.length, side, score=penalty_standing(match))
    result_confirm(context, claim_make(match, score, None))
    return {"side": side}, before, result_state(match)


def _warning(context: RulingContext):
    match = context.match
    side = param_side(context.take("side"))
    return {"side": side}, None, {"warning": {"side": side, "name": match.sides[side].name}}


def _entry_in(match: Match, event: Tournament, side: int) -> Entry | None:
    """The side's entry that plays ``match``: a player who re-entered (a buy-back into the main) holds two
    entries of the event, and the one this match belongs to is the one disqualified."""
    entries = list(Entry.objects.filter(tournament=event, side_id=match.sides[side].pk).order_by("pk"))
    pairing = Pairing.objects.filter(match=match).only("entry0_id", "entry1_id").first()
    playing = {pairing.entry0_id, pairing.entry1_id} if pairing else set()
    return next((entry for entry in entries if entry.pk in playing), entries[0] if entries else None)


def _disqualification(context: RulingContext):
    match = context.match
    side = param_side(context.take("side"))
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
              "matches": [result_state(m, logs=True) for m in forfeitable]}
    # The withdrawal forfeits through the event's director; a committee member applying a
    # replacement ruling is not one, so the event's organiser stands in for him there.
    user = context.director if runs(event, context.director) else event.organiser
    try:
        entry_withdraw(tournament_id=event.pk, entry_id=entry.pk, user=user)
    except Conflict as error:
        raise refused(error) from None
    match.refresh_from_db()
    entry.refresh_from_db()
    after = {"entry": {"id": entry.pk, "status": entry.status},
             "matches": [result_state(m) for m in Match.objects.filter(pk__in=[m.pk for m in forfeitable]).order_by("pk")]}
    return {"side": side}, before, after


#: A length a match may have been played to (a 64-point match is already a marathon).
MAX_PLAYED_LENGTH = 99


def _wrong_length(context: RulingContext):
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
    played = param_whole(params, "played_length", 1, maximum=MAX_PLAYED_LENGTH)
    reported = match.status in (Match.Status.CONFIRMED, Match.Status.REPORTED, Match.Status.DISPUTED)
    finished = param_flag(params, "finished", reported)
    score = _score_standing(match, params)
    stored = list(match.games.values_list("crawford", flat=True))
    crawford_played = param_flag(params, "crawford_played", any(stored))
    answer = engine_rulings.wrong_length_choices(match.rules(), played, score, finished=finished,
                                                 crawford_played=crawford_played)
    choice = params.get("choice")
    if choice not in answer.choices:
        choices = _(", ").join(f"“{WRONG_LENGTH_CHOICES.get(c, c)}”" for c in answer.choices)
        raise errors.bad_ruling("choice", _("for this match, one of: %(choices)s") % {"choices": choices})
    normalised = {"played_length": played, "choice": choice, "score": list(score), "finished": finished,
                  "length": match.length}
    before = {**result_state(match, logs=True), "length": match.length}
    if choice == engine_rulings.RESULT_STANDS:
        match.length = played
        match.save(update_fields=["length", "updated_at"])
        try:
            claim = claim_make(match, score, None)
        except DomainError as error:
            raise errors.bad_ruling("score", error.message, reason=error.code) from None
        result_confirm(context, claim)
    elif choice == engine_rulings.WON_AT_LENGTH:
        final = engine_rulings.match_ended_by_award(match.length, answer.winner, score=(
            min(score[0], match.length), min(score[1], match.length)))
        result_confirm(context, claim_make(match, final, None))
    else:
        normalised["crawford_next"] = answer.state.next_is_crawford
        if reported or match.reports.exclude(status=Report.Status.SUPERSEDED).exists():
            result_reopen(context, None)
    return normalised, before, {**result_state(match), "length": match.length}


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
            reported = {r.full_score or r.score for r in live_reports(match) if r.side is not None}
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

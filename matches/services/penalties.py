"""Penalty points given mid-match (RULES.md §9).

A director gives penalty points at any moment of a match (late after a break, slow play), not
only as a starting score: they enter the score between two games, to the penalised side's
opponent, and the Crawford game follows from the score as it then stands (the engine:
``engine.match.MatchState.penalty_given``). More than half the match length in penalties in
total for one side (the starting penalty points a ruling credited included) loses it the match:
it is confirmed to the opponent, through the same override path a director's result takes. A
penalty that takes the opponent to the length wins him the match the same way (RULES.md §5).

The service keeps no game-by-game score of a match in play: the director says the score as it
stands when he gives the penalty (from the scoresheet); by default the score the last penalty
left, else the match's starting score. It may not be below either (a score never goes back).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.engine_messages import refusal_text
from core.errors import Conflict, DomainError
from engine import rulings as engine_rulings
from engine.errors import MatchError
from engine.match import GivenPenalty, MatchState, Penalty

from .. import errors, hooks
from ..models import Match, MatchPenalty
from .reporting import claim_make, match_loaded, override_result, user_runs_match

REASONS = tuple(MatchPenalty.Reason.values)


def _bad(field: str, message: str) -> DomainError:
    return DomainError(message, code="bad_penalty", field=field)


def _label(field: str) -> str:
    return {"side": _("the penalised side"), "points": _("the penalty points"),
            "score": _("the score as it stands")}[field]


def _whole(field: str, value, least: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise _bad(field, _("%(field)s must be a whole number from %(least)s to %(most)s") % {
            "field": _label(field), "least": least, "most": most})
    return value


def penalty_standing(match: Match, penalties: list[MatchPenalty] | None = None) -> tuple[int, int]:
    """The score as the last penalty left it, else the match's starting score (``Match.start``)."""
    penalties = list(match.penalties.all()) if penalties is None else penalties
    return penalties[-1].score_after if penalties else match.start


def penalised_totals(match: Match, penalties: list[MatchPenalty]) -> tuple[int, int]:
    """The penalty points given against each side so far: the starting points a ruling credited
    to the opponent, and the mid-match penalties."""
    totals = [match.penalty1, match.penalty0]
    for penalty in penalties:
        totals[penalty.side] += penalty.points
    return totals[0], totals[1]


def _score(match: Match, score, floor: tuple[int, int]) -> tuple[int, int]:
    if not isinstance(score, (list, tuple)) or len(score) != 2:
        raise _bad("score", _("the score as it stands is two whole numbers"))
    a = _whole("score", score[0], 0, match.length - 1)
    b = _whole("score", score[1], 0, match.length - 1)
    if a < floor[0] or b < floor[1]:
        raise _bad("score", _("the score as it stands cannot be below %(floor)s, the score after the last penalty "
                              "points") % {"floor": f"{floor[0]}-{floor[1]}"})
    return a, b


def penalty_summary(penalty: MatchPenalty) -> dict:
    return {"side": penalty.side, "points": penalty.points, "reason": penalty.reason,
            "before": list(penalty.score_before), "after": list(penalty.score_after),
            "crawford_next": penalty.crawford_next, "ended_match": penalty.ended_match}


@transaction.atomic
def match_penalty_give(match_id: int, side: int, points: int, reason: str, user, *,
                       score: tuple[int, int] | None = None) -> MatchPenalty:
    """Give ``points`` penalty points against ``side`` (0 or 1) of a match in play, for ``reason``
    (``MatchPenalty.Reason``), at ``score`` (the score as it stands; default
    :func:`penalty_standing`). One transaction, audited (``match.penalty_given``). Returns the
    penalty, its score after and its Crawford flag; when it ends the match (more than half the
    length in penalties, or the opponent at the length) the match is confirmed to the opponent.

    Raises Match.DoesNotExist; NotAllowed (``not_organiser``) for anyone but whoever runs the
    match; DomainError ``bad_penalty`` (``field``: side, points, reason, score) and the engine's
    refusals worded by code (``penalty_money``, ``penalty_after_match``); Conflict
    ``already_confirmed`` for a finished match.
    """
    match = match_loaded(match_id)
    if not user_runs_match(match, user):
        raise errors.not_organiser()
    if match.status == Match.Status.CONFIRMED:
        raise errors.already_confirmed()
    if match.status in (Match.Status.REPORTED, Match.Status.DISPUTED):
        raise Conflict(_("the match's result has been reported: correct the score or rule on the dispute instead"),
                       code="match_reported")
    penalty, final = penalty_record(match, side, points, reason, user, score=score)
    if final is not None:
        override_result(match, user, claim_make(match, final, None), "")
    return penalty


def penalty_record(match: Match, side: int, points: int, reason: str, user, *,
                   score: tuple[int, int] | None = None) -> tuple[MatchPenalty, tuple[int, int] | None]:
    """The heart of :func:`match_penalty_give`, for a caller that holds the match's lock and has
    checked who gives the penalty and when (the service above; a director's ruling on a dispute,
    ``rulings``): the penalty is checked, recorded (a MatchPenalty row and ``Match.penalties_mid``)
    and audited. Returns it and, when it ends the match, the final score the caller confirms to
    the opponent (None while the match goes on). Raises what :func:`match_penalty_give` raises
    for the penalty's figures."""
    if match.is_money:
        raise _refused(MatchError("a money session has no penalty points", code="penalty_money"), "points")
    _whole("side", side, 0, 1)
    points = _whole("points", points, 1, match.length)
    if reason not in REASONS:
        raise _bad("reason", _("the reason must be one of: %(reasons)s") % {"reasons": ", ".join(REASONS)})
    penalties = list(match.penalties.all())
    floor = penalty_standing(match, penalties)
    before = floor if score is None else _score(match, score, floor)
    # The Crawford game is settled by the games while a side stands at match point already: a
    # penalty then leaves it as it was (crawford_next None). Below, none has been played.
    settled = max(before) >= match.length - 1
    state = MatchState(match.rules(), score=before, crawford_played=settled,
                       penalised=penalised_totals(match, penalties))
    try:
        after = state.penalty_given(Penalty(len(penalties) + 1, side, points, reason))
    except MatchError as error:
        raise _refused(error, "points") from None
    penalty = MatchPenalty.objects.create(
        match=match, side=side, points=points, reason=reason, score0_before=before[0], score1_before=before[1],
        score0_after=after.score[0], score1_after=after.score[1], given_by=user, ended_match=after.is_over,
        crawford_next=_crawford_next(after, settled),
    )
    # The match's version (its cached answers are kept under updated_at) moves with its score; the
    # row keeps the penalties as the engine replays them (Match.penalties_at).
    match.penalties_mid = [*(match.penalties_mid or []),
                           {"score": list(before), "side": side, "points": points, "reason": reason}]
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now(), penalties_mid=match.penalties_mid)
    audit_record(actor=user, action="match.penalty_given", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, **hooks.audit_ids(match), before={"score": list(before)},
                 after=penalty_summary(penalty))
    if not after.is_over:
        return penalty, None
    return penalty, engine_rulings.match_ended_by_award(match.length, after.winner,
                                                        score=_capped(after.score, match.length))


def penalty_rows(match: Match) -> list[list]:
    """The match's mid-match penalties as a ruling keeps them to put them back (JSON): each row's
    id, scores before and after, Crawford flag and whether it ended the match."""
    return [[p.pk, p.score0_before, p.score1_before, p.score0_after, p.score1_after, p.crawford_next, p.ended_match]
            for p in match.penalties.all()]


def penalties_follow(match: Match, given: Sequence[GivenPenalty]) -> None:
    """After a ruling changed the match's games (``rulings``, the match locked): each mid-match
    penalty as the ruled replay applied it (``MatchReplay.penalties``, in the order given), so
    ``Match.penalties_mid`` holds the score each now came at (what the next replay places it by)
    and each row its scores and Crawford flag. Raises ValueError when the replay applied another
    number of penalties than the match has (a caller's mistake)."""
    rows = list(match.penalties.all())
    if len(rows) != len(given):
        raise ValueError(f"the replay applied {len(given)} penalties, the match has {len(rows)}")
    mid = []
    for row, applied in zip(rows, given, strict=True):
        mid.append({"score": list(applied.score_before), "side": row.side, "points": row.points, "reason": row.reason})
        fields = {"score0_before": applied.score_before[0], "score1_before": applied.score_before[1],
                  "score0_after": applied.score_after[0], "score1_after": applied.score_after[1],
                  "crawford_next": applied.next_is_crawford, "ended_match": applied.winner is not None}
        if any(getattr(row, name) != value for name, value in fields.items()):
            MatchPenalty.objects.filter(pk=row.pk).update(**fields)
    if mid != (match.penalties_mid or []):
        match.penalties_mid = mid
        Match.objects.filter(pk=match.pk).update(updated_at=timezone.now(), penalties_mid=mid)


def penalties_restore(match: Match, mid: list, rows: list[list]) -> None:
    """Put the match's mid-match penalties back as a ruling found them (``mid``: the old
    ``Match.penalties_mid``; ``rows``: :func:`penalty_rows`); a penalty given since (by the ruling
    being undone) is removed. The caller holds the match's lock."""
    kept = {row[0]: row for row in rows}
    match.penalties.exclude(pk__in=list(kept)).delete()
    for pk, *values in rows:
        s0b, s1b, s0a, s1a, crawford_next, ended = values
        MatchPenalty.objects.filter(pk=pk, match=match).update(
            score0_before=s0b, score1_before=s1b, score0_after=s0a, score1_after=s1a, crawford_next=crawford_next,
            ended_match=ended)
    if mid != (match.penalties_mid or []):
        match.penalties_mid = mid
        Match.objects.filter(pk=match.pk).update(updated_at=timezone.now(), penalties_mid=mid)


def _crawford_next(after: MatchState, settled: bool) -> bool | None:
    """Whether the next game is the Crawford game: known when the match is over or both sides
    stand at match point (no), or when no side stood at match point before the penalty (the
    engine's answer); else the games played decide it (None)."""
    if after.is_over or min(after.score) >= after.rules.length - 1:
        return False
    return None if settled else after.next_is_crawford


def _capped(score: tuple[int, int], length: int) -> tuple[int, int]:
    return min(score[0], length), min(score[1], length)


def _refused(error: MatchError, field: str) -> DomainError:
    return DomainError(refusal_text(error), code=error.code, field=field)

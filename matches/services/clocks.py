"""A match's clock: the director records a flag fall (the match to the
opponent) or introduces a clock mid-match (the reduced reserve of ``engine.clocks``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from core.errors import Conflict, DomainError

from .. import errors, hooks
from ..clocks import mid_match_clock
from ..models import Match, Report
from .reporting import Claim, match_locked, match_override, user_runs_match


def _side(side) -> int:
    if side not in (0, 1) or isinstance(side, bool):
        raise DomainError(_("side: 0 or 1, the side whose flag fell"), code="bad_side", field="side")
    return side


@transaction.atomic
def match_flag_fall(*, match_id: int, side: int, user, statement: str = "") -> Report:
    """The director records that ``side``'s flag fell (his reserve, and overtime where allowed,
    used up): the match is confirmed to the opponent at the match length, as a forfeit is (RULES.md
    §9: a flag fall loses the match), the loser keeping the points he started from (penalty
    points). The result's origin says so (``Report.Origin.FLAG_FALL``, with the loser's name); a
    flag fall is a game played to the end by the clock, so the match stays rated as it was.

    Audited as ``match.flag_fell``, and the result as ``match.result_overridden``. Raises
    Match.DoesNotExist; NotAllowed ``not_organiser`` for anyone but the match's director or staff;
    DomainError ``bad_side``; Conflict ``no_clock`` for a match without a clock and
    ``already_confirmed`` for a confirmed one (a ruling corrects it). Nothing changes then.
    """
    side = _side(side)
    match = match_locked(match_id)
    if not user_runs_match(match, user):
        raise errors.not_organiser()
    if not match.clock_policy:
        raise Conflict(_("this match is not played with a clock: no flag can fall"), code="no_clock")
    if match.status == Match.Status.CONFIRMED:
        raise errors.already_confirmed()
    score = list(match.start)
    score[1 - side] = match.length
    loser = (match.side0, match.side1)[side]
    report = match_override(match_id=match.pk, user=user, claim=Claim((score[0], score[1])),
                            statement=statement, origin=Report.Origin.FLAG_FALL, origin_name=str(loser))
    audit_record(actor=user, action="match.flag_fell", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, **hooks.audit_ids(match), after={"side": side, "name": str(loser), "score": score},
                 note=statement)
    return report


@transaction.atomic
def match_clock_introduce(*, match_id: int, user, score, seconds_per_point: int | None = None,
                          delay_seconds: int | None = None) -> Match:
    """The director introduces a clock into a match under way at ``score`` (RULES.md §9: for slow
    play): each side's reserve is the reduced one (``engine.clocks.reduced_reserve``: one minute
    less per point already played, the US clock rules of 2013 in our words). The clock's reserve
    per point and delay are the match's own when it records a clock (its event's), else the given
    ones or the defaults (2 minutes, 12 s); the policy becomes "required". The clock is
    ``matches.clocks.mid_match_clock``'s, the one the match page shows before it is applied.
    Audited as ``match.clock_introduced``.

    Raises Match.DoesNotExist; NotAllowed ``not_organiser``; Conflict ``already_confirmed``;
    DomainError ``bad_clock`` naming the field (a money session, a score that is not one of a
    match under way, a bad setting)."""
    match = match_locked(match_id)
    if not user_runs_match(match, user):
        raise errors.not_organiser()
    if match.status == Match.Status.CONFIRMED:
        raise errors.already_confirmed()
    clock = mid_match_clock(match, score, seconds_per_point=seconds_per_point, delay_seconds=delay_seconds)
    rules, reserve = clock.rules, clock.reserve
    before = {"policy": match.clock_policy, "reserve_seconds": match.clock_reserve_seconds}
    match.clock_policy = Match.ClockPolicy.REQUIRED
    match.clock_seconds_per_point, match.clock_delay_seconds = rules.seconds_per_point, rules.delay_seconds
    match.clock_overtime_seconds, match.clock_reserve_seconds = rules.overtime_seconds, reserve
    match.save(update_fields=["clock_policy", "clock_seconds_per_point", "clock_delay_seconds",
                              "clock_overtime_seconds", "clock_reserve_seconds", "updated_at"])
    audit_record(actor=user, action="match.clock_introduced", object_type="matches.Match", object_id=match.pk,
                 match_id=match.pk, **hooks.audit_ids(match), before=before,
                 after={"policy": match.clock_policy, "score": list(clock.score), "reserve_seconds": reserve,
                        "delay_seconds": rules.delay_seconds})
    return match

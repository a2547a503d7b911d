"""A match's clock: the settings a match records when it is made, and their
words for the pages and the scoresheet. The arithmetic is the engine's (``engine.clocks``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from audit.describe import ltr
from core.errors import DomainError
from core.labels import field_refusal
from core.text import isolate
from engine.clocks import (
    MID_MATCH_REDUCTION_SECONDS,
    ClockError,
    ClockRules,
    check_remaining,
    match_reserve,
    reduced_reserve,
)

from .models import Match


@dataclass(frozen=True)
class MatchClock:
    """The clock a context (an event) gives its matches: how much it wants one (``policy``: one
    of ``Match.ClockPolicy``) and its rules."""

    policy: str
    rules: ClockRules


def clock_fields(clock: MatchClock | None, length: int) -> dict:
    """The Match fields recording ``clock`` for a match of ``length`` points (none for a money
    session, which plays no clock)."""
    if clock is None or length < 1:
        return {}
    return {"clock_policy": clock.policy, "clock_seconds_per_point": clock.rules.seconds_per_point,
            "clock_reserve_seconds": match_reserve(clock.rules, length),
            "clock_delay_seconds": clock.rules.delay_seconds, "clock_overtime_seconds": clock.rules.overtime_seconds}


def match_clock_rules(match: Match) -> ClockRules | None:
    """The engine's rules of the match's clock, or None when it has none."""
    if not match.clock_policy:
        return None
    return ClockRules(match.clock_seconds_per_point, match.clock_delay_seconds, match.clock_overtime_seconds)


def duration_text(seconds: int) -> str:
    """``120`` -> "2 minutes", ``90`` -> "90 seconds"."""
    if seconds and seconds % 60 == 0:
        return ngettext("%(count)d minute", "%(count)d minutes", seconds // 60) % {"count": seconds // 60}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def clock_rules_text(per_point: int, delay: int) -> str:
    """"2 minutes per match point, 12 seconds' delay per move"."""
    return gettext("%(reserve)s per match point, a delay of %(delay)s per move") % {
        "reserve": duration_text(per_point), "delay": duration_text(delay)}


def overtime_text(seconds: int) -> str:
    return (gettext("overtime: %(time)s once the reserve is used") % {"time": duration_text(seconds)}
            if seconds else gettext("no overtime"))


def clock_summary(policy: str, reserve: int, delay: int, overtime: int) -> str:
    """A clock as a sentence ("Clocks required: 14 minutes for each side, ...")."""
    return gettext("%(policy)s: %(reserve)s for each side, a delay of %(delay)s per move; %(overtime)s.") % {
        "policy": Match.ClockPolicy(policy).label, "reserve": duration_text(reserve),
        "delay": duration_text(delay), "overtime": overtime_text(overtime)}


def match_clock_text(match: Match) -> str:
    """The match's clock as a sentence; empty when it has none."""
    if not match.clock_policy:
        return ""
    return clock_summary(match.clock_policy, match.clock_reserve_seconds, match.clock_delay_seconds,
                         match.clock_overtime_seconds)


def planned_clock_text(clock: MatchClock | None, length: int) -> str:
    """The clock a match of ``length`` points will get from ``clock`` (a round's scoresheets,
    before their matches are read), as a sentence; empty without one."""
    fields = clock_fields(clock, length)
    if not fields:
        return ""
    return clock_summary(fields["clock_policy"], fields["clock_reserve_seconds"], fields["clock_delay_seconds"],
                         fields["clock_overtime_seconds"])


def remaining_text(match: Match, names: tuple[str, str]) -> str:
    """Each side's time left as the confirmed report gave it, or empty."""
    if match.clock_remaining0 is None or match.clock_remaining1 is None:
        return ""
    return gettext("Time left: %(side0)s %(time0)s, %(side1)s %(time1)s.") % {
        "side0": isolate(names[0]), "time0": clock_time(match.clock_remaining0),
        "side1": isolate(names[1]), "time1": clock_time(match.clock_remaining1)}


def clock_time(seconds: int) -> str:
    """As a clock shows it: ``754`` -> "12:34", ``3725`` -> "1:02:05"."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def remaining_checked(match: Match, remaining, *, with_log: bool) -> tuple[int, int] | None:
    """A report's remaining times (each side's seconds left), checked against the match's clock:
    given only with the game logs, only for a match with a clock, each a whole number of seconds
    from 0 to the reserve (with the overtime where the event allows it: ``engine.clocks``). None
    when not given. Raises DomainError ``bad_clock`` (field ``clock_remaining``)."""
    if remaining is None:
        return None
    rules = match_clock_rules(match)
    if rules is None:
        raise _bad_clock(gettext("this match is not played with a clock"))
    if not with_log:
        raise _bad_clock(gettext("the remaining times come with the game logs"))
    try:
        return check_remaining(rules, match.clock_reserve_seconds, remaining)
    except ClockError as error:
        allowed = error.details.get("allowed", match.clock_reserve_seconds)
        raise _bad_clock(gettext("each side's time left is a whole number of seconds from 0 to %(max)d") % {
            "max": allowed}, side=error.details.get("side")) from None


def _bad_clock(sentence: str, **details) -> DomainError:
    """A refused time left (the API's ``clock_remaining``), named as people read it."""
    return DomainError(field_refusal(gettext("Time left on the clock"), sentence), sentence=sentence, code="bad_clock",
                       field="clock_remaining", **details)


@dataclass(frozen=True)
class MidMatchClock:
    """A clock brought into a match under way, before or after it is: its
    rules, the score it comes in at, the match's full reserve and each side's reduced one."""

    rules: ClockRules
    score: tuple[int, int]
    full: int
    reserve: int

    @property
    def played(self) -> int:
        """The points already played: the sum of the score, as ``engine.clocks`` counts them."""
        return self.score[0] + self.score[1]


def mid_match_clock(match: Match, score, *, seconds_per_point: int | None = None,
                    delay_seconds: int | None = None) -> MidMatchClock:
    """The clock ``match`` gets when the director brings one in at ``score``: the reserve per
    point and delay are the given ones, else the match's own clock's (its event's), else the
    defaults (2 minutes, 12 s); each side's reserve is ``engine.clocks.reduced_reserve`` (one
    minute less per point already played, never below one point's reserve). Changes nothing: the
    page shows it before the director applies it (``match_clock_introduce``).

    Raises DomainError ``bad_clock`` naming the field (``length`` for a money session, ``score``
    for a score that is not one of a match under way, ``seconds_per_point`` or ``delay_seconds``)."""
    try:
        own = match_clock_rules(match) or ClockRules()
        rules = ClockRules(own.seconds_per_point if seconds_per_point is None else seconds_per_point,
                           own.delay_seconds if delay_seconds is None else delay_seconds, own.overtime_seconds)
        full = match_reserve(rules, match.length)
        reserve = reduced_reserve(rules, match.length, tuple(score) if isinstance(score, list) else score)
    except ClockError as error:
        field = error.details.get("field")
        messages = {
            "length": gettext("a money session is not played with a clock"),
            "score": gettext("the score of a match under way: two whole numbers below the length"),
        }
        reason = messages.get(field) or gettext("a whole number of seconds, at least 1 for the reserve")
        raise DomainError(f"{field}: {reason}", code="bad_clock", field=field) from None
    return MidMatchClock(rules, (score[0], score[1]), full, reserve)


def score_text(score: tuple[int, int]) -> str:
    """A score kept left to right in a right-to-left sentence (audit.describe.ltr)."""
    return ltr(f"{score[0]}-{score[1]}")


def mid_match_text(clock: MidMatchClock) -> str:
    """The reserve a clock brought in mid-match gives, as a sentence that shows the rule's
    arithmetic ("At 2-1, 3 points played: each side gets 7 minutes, ...")."""
    played = clock.played
    values = {"score": score_text(clock.score), "played": played,
              "reserve": duration_text(clock.reserve), "full": duration_text(clock.full),
              "less": duration_text(MID_MATCH_REDUCTION_SECONDS * played),
              "floor": duration_text(min(clock.full, clock.rules.seconds_per_point)),
              "delay": duration_text(clock.rules.delay_seconds)}
    if clock.reserve > clock.full - MID_MATCH_REDUCTION_SECONDS * played:
        # The reduction would leave less than one point's reserve: the floor applies.
        return ngettext(
            "At %(score)s, %(played)d point played: each side gets %(reserve)s, one point's reserve, the least a "
            "side is given (the full reserve of %(full)s less %(less)s would be less), with a delay of %(delay)s "
            "per move.",
            "At %(score)s, %(played)d points played: each side gets %(reserve)s, one point's reserve, the least a "
            "side is given (the full reserve of %(full)s less %(less)s would be less), with a delay of %(delay)s "
            "per move.", played) % values
    return ngettext(
        "At %(score)s, %(played)d point played: each side gets %(reserve)s, the full reserve of %(full)s less one "
        "minute per point played (%(less)s), with a delay of %(delay)s per move.",
        "At %(score)s, %(played)d points played: each side gets %(reserve)s, the full reserve of %(full)s less one "
        "minute per point played (%(less)s), with a delay of %(delay)s per move.", played) % values

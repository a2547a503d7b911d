"""Clock arithmetic for a match played on a game clock. Pure: no Django.

A clocked match gives each side a *reserve* (time for the whole match) that grows with its
length, and a *delay* per move: each turn the side's clock waits that many seconds before it
starts taking time off the reserve (a simple delay: time not used is not added back). What the
event publishes (:class:`ClockRules`):

- ``seconds_per_point``: the reserve per match point. The US clock rules of 2013 (as we
  understand them; the text is not read here) give 2 minutes per point and a 12-second delay:
  those are the defaults (:data:`DEFAULT_SECONDS_PER_POINT`, :data:`DEFAULT_DELAY_SECONDS`).
- the *doubling variant*: an event may say that matches with the doubling cube in play get a
  longer reserve and delay. Its numbers are settings of the event; the defaults here
  (:data:`DEFAULT_DOUBLING_SECONDS_PER_POINT`, :data:`DEFAULT_DOUBLING_DELAY_SECONDS`) are this
  service's choice, not a published rule.
- ``overtime_seconds``: 0 when the event allows no overtime; otherwise, once a side's reserve is
  used up his flag does not fall yet: he gets this one extra period, and his flag falls only when
  it is used up too.

A clock introduced mid-match (a director imposing one for slow play, RULES.md §9) gives each side
a reduced reserve: the US clock rules of 2013 (described in our words) take one minute off the
reserve for every point already played in the match, which we read as the sum of both sides'
scores. The reserve never goes below one point's worth (``seconds_per_point``): a side always has
time to finish the game he is in.

Every refusal is a :class:`ClockError` whose ``details['field']`` names what was wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EngineError

#: The published defaults (US clock rules 2013, as we understand them): 2 minutes a point, 12 s delay.
DEFAULT_SECONDS_PER_POINT = 120
DEFAULT_DELAY_SECONDS = 12
#: The doubling variant's defaults: this service's choice (3 minutes a point, 15 s), not a published rule.
DEFAULT_DOUBLING_SECONDS_PER_POINT = 180
DEFAULT_DOUBLING_DELAY_SECONDS = 15
#: A clock introduced mid-match: the reserve loses this much per point already played.
MID_MATCH_REDUCTION_SECONDS = 60

#: What an event says about clocks: none, allowed (a player may ask for one), preferred (used
#: wherever a clock is free), required (every match).
POLICIES = ("none", "allowed", "preferred", "required")


class ClockError(EngineError):
    """A clock setting or a time that cannot be: ``details['field']`` names it."""

    code = "invalid_clock"


def _whole(field: str, value, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ClockError(f"{field} must be a whole number of at least {minimum}", field=field)
    return value


@dataclass(frozen=True)
class ClockRules:
    """The clock a match is played with: reserve per match point, delay per move and overtime,
    all in seconds (checked when made)."""

    seconds_per_point: int = DEFAULT_SECONDS_PER_POINT
    delay_seconds: int = DEFAULT_DELAY_SECONDS
    overtime_seconds: int = 0

    def __post_init__(self):
        _whole("seconds_per_point", self.seconds_per_point, 1)
        _whole("delay_seconds", self.delay_seconds, 0)
        _whole("overtime_seconds", self.overtime_seconds, 0)

    @property
    def overtime(self) -> bool:
        return self.overtime_seconds > 0


def event_clock(*, seconds_per_point: int = DEFAULT_SECONDS_PER_POINT, delay_seconds: int = DEFAULT_DELAY_SECONDS,
                doubling: bool = False, doubling_seconds_per_point: int = DEFAULT_DOUBLING_SECONDS_PER_POINT,
                doubling_delay_seconds: int = DEFAULT_DOUBLING_DELAY_SECONDS,
                overtime_seconds: int = 0) -> ClockRules:
    """The clock an event's matches get: its own reserve and delay, or, with the doubling variant
    on (``doubling``), the variant's longer ones."""
    if doubling:
        return ClockRules(doubling_seconds_per_point, doubling_delay_seconds, overtime_seconds)
    return ClockRules(seconds_per_point, delay_seconds, overtime_seconds)


def _length(length) -> int:
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise ClockError("a clock is for a match of at least 1 point, not a money session", field="length")
    return length


def match_reserve(rules: ClockRules, length: int) -> int:
    """Each side's reserve, in seconds, for a match of ``length`` points: ``length`` times the
    reserve per point (US clock rules 2013: 2 minutes a point by default)."""
    return _length(length) * rules.seconds_per_point


def reduced_reserve(rules: ClockRules, length: int, score: tuple[int, int]) -> int:
    """Each side's reserve when the clock is introduced at ``score`` (both sides below the
    length): the full reserve less one minute for every point already played, the sum of the
    two scores (US clock rules 2013, in our words), never below one point's reserve."""
    full = match_reserve(rules, length)
    if (not isinstance(score, tuple | list) or len(score) != 2
            or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < length for s in score)):
        raise ClockError(f"a score of a match under way: two whole numbers from 0 to {length - 1}", field="score")
    played = score[0] + score[1]
    return max(full - MID_MATCH_REDUCTION_SECONDS * played, min(full, rules.seconds_per_point))


def time_allowed(rules: ClockRules, reserve: int) -> int:
    """The most time a side has in the match: its reserve, plus the overtime period when the
    event allows it (delays aside)."""
    return reserve + rules.overtime_seconds


def check_remaining(rules: ClockRules, reserve: int, remaining) -> tuple[int, int]:
    """Each side's remaining time as a report gives it, checked: two whole numbers of seconds,
    none negative and none beyond :func:`time_allowed`. Returns them as a tuple."""
    allowed = time_allowed(rules, reserve)
    if not isinstance(remaining, tuple | list) or len(remaining) != 2:
        raise ClockError("each side's remaining time: two whole numbers of seconds", field="clock_remaining")
    for side, seconds in enumerate(remaining):
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 <= seconds <= allowed:
            raise ClockError(f"a remaining time is a whole number of seconds from 0 to {allowed}",
                             field="clock_remaining", side=side, allowed=allowed)
    return (remaining[0], remaining[1])


def flag_fallen(rules: ClockRules, reserve: int, used: int) -> bool:
    """Whether a side that has used ``used`` seconds (beyond his delays) has lost on time: his
    reserve and, where the event allows it, his overtime are used up."""
    return used >= time_allowed(rules, reserve)

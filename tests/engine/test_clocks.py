"""The clock arithmetic (engine/clocks.py), table-driven. The rules cited are the US clock rules of
2013 as we understand them (their text is not read here: described in our words), and this
service's own choices where the module says so."""

from __future__ import annotations

import pytest

from engine.clocks import (
    ClockError,
    ClockRules,
    check_remaining,
    event_clock,
    flag_fallen,
    match_reserve,
    reduced_reserve,
    time_allowed,
)

STANDARD = ClockRules()  # 2 minutes a point, 12 s delay, no overtime


@pytest.mark.parametrize(("rules", "length", "reserve"), [
    (STANDARD, 1, 120),
    (STANDARD, 5, 600),
    (STANDARD, 7, 840),
    (STANDARD, 11, 1320),
    (ClockRules(90, 8), 9, 810),
    (ClockRules(180, 15), 13, 2340),
])
def test_us_clock_rules_2013_reserve_is_the_reserve_per_point_times_the_length(rules, length, reserve):
    """US clock rules 2013 (in our words): each side's reserve is so many minutes per match point
    (2 by default) with a delay per move (12 s by default)."""
    assert match_reserve(rules, length) == reserve
    assert (STANDARD.seconds_per_point, STANDARD.delay_seconds) == (120, 12)


@pytest.mark.parametrize(("doubling", "expected"), [
    (False, ClockRules(120, 12, 0)),
    (True, ClockRules(180, 15, 0)),
])
def test_the_doubling_variant_takes_its_own_longer_reserve_and_delay(doubling, expected):
    """The longer reserve and delay when doubling is in play, if the event says so (its
    defaults, 3 minutes and 15 s, are this service's choice, not a published number)."""
    assert event_clock(doubling=doubling) == expected
    assert event_clock(doubling=doubling, doubling_seconds_per_point=200, doubling_delay_seconds=20,
                       seconds_per_point=100, delay_seconds=10) == (
        ClockRules(200, 20) if doubling else ClockRules(100, 10))


@pytest.mark.parametrize(("length", "score", "reserve"), [
    (7, (0, 0), 840),         # nothing played yet: the full reserve
    (7, (1, 0), 780),         # one point played: one minute less
    (7, (2, 3), 540),         # five points played: five minutes less
    (11, (6, 4), 720),        # 1320 - 10 minutes
    (5, (4, 4), 120),         # 600 - 480: one point's reserve is left
    (3, (2, 2), 120),         # 360 - 240 would be 120: the floor of one point's reserve
    (2, (1, 1), 120),         # 240 - 120
    (1, (0, 0), 120),
])
def test_us_clock_rules_2013_a_clock_introduced_mid_match_loses_a_minute_per_point_played(length, score, reserve):
    """US clock rules 2013 (in our words): a clock introduced during a match gives a reserve one
    minute shorter for each point already played (the sum of the scores), never below one point's
    reserve."""
    assert reduced_reserve(STANDARD, length, score) == reserve


@pytest.mark.parametrize(("length", "score"), [
    (7, (7, 0)), (7, (0, 9)), (7, (-1, 0)), (7, (1,)), (7, "1-0"), (7, (True, 0)), (0, (0, 0)),
])
def test_a_mid_match_clock_needs_a_score_of_a_match_under_way(length, score):
    """The reduced reserve is for a match not over: each score below the length; a money session
    (length 0) has no clock."""
    with pytest.raises(ClockError) as caught:
        reduced_reserve(STANDARD, length, score)
    assert caught.value.details["field"] in ("score", "length")


@pytest.mark.parametrize(("rules", "reserve", "used", "fallen"), [
    (STANDARD, 600, 599, False),
    (STANDARD, 600, 600, True),                      # no overtime: the reserve used up is a flag fall
    (ClockRules(120, 12, 300), 600, 600, False),     # overtime allowed: the flag waits
    (ClockRules(120, 12, 300), 600, 899, False),
    (ClockRules(120, 12, 300), 600, 900, True),      # reserve and overtime used up
])
def test_overtime_where_the_event_allows_it_delays_the_flag_fall(rules, reserve, used, fallen):
    """RULES.md §9: a flag fall loses the match; overtime (this service's reading: one
    extra period once the reserve is used) where the event allows it."""
    assert flag_fallen(rules, reserve, used) is fallen
    assert time_allowed(rules, reserve) == reserve + rules.overtime_seconds


@pytest.mark.parametrize(("rules", "reserve", "remaining", "ok"), [
    (STANDARD, 600, (0, 600), True),
    (STANDARD, 600, [312, 45], True),
    (STANDARD, 600, (601, 0), False),
    (STANDARD, 600, (-1, 0), False),
    (STANDARD, 600, (1.5, 0), False),
    (STANDARD, 600, (0,), False),
    (STANDARD, 600, None, False),
    (ClockRules(120, 12, 60), 600, (660, 0), True),
])
def test_a_reported_remaining_time_is_non_negative_and_at_most_the_time_allowed(rules, reserve, remaining, ok):
    """A report may carry each side's remaining time: whole seconds, not negative, at
    most the reserve (with the overtime where allowed)."""
    if ok:
        assert check_remaining(rules, reserve, remaining) == tuple(remaining)
    else:
        with pytest.raises(ClockError) as caught:
            check_remaining(rules, reserve, remaining)
        assert caught.value.details["field"] == "clock_remaining"


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"seconds_per_point": 0}, "seconds_per_point"),
    ({"delay_seconds": -1}, "delay_seconds"),
    ({"overtime_seconds": -5}, "overtime_seconds"),
    ({"seconds_per_point": True}, "seconds_per_point"),
])
def test_clock_settings_are_checked_when_made(kwargs, field):
    """Every clock setting is a whole number of seconds: a reserve of at least 1 s a point, no negative delay or overtime."""
    with pytest.raises(ClockError) as caught:
        ClockRules(**kwargs)
    assert caught.value.details["field"] == field

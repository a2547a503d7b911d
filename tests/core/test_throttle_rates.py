"""A throttle rate per second (``CRAWFORD_THROTTLE_<SCOPE>=N/second``): the settings take it, and
the throttles count over one second, so a counter holds at most a second of history. The bench
(bench/api.py) lifts the throttles this way: with a per-minute rate each counter would keep a
minute of history, read and written whole by every request."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import _env_rate
from core import throttles
from tests.matches.factories_api import client_for, make_cast

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("rate", ["100000/second", "5/s", "30/sec", "30/minute", "20/hour", "1/day"])
def test_the_settings_take_a_rate_per_second_minute_hour_or_day(monkeypatch, rate):
    monkeypatch.setenv("CRAWFORD_THROTTLE_TEST", rate)
    assert _env_rate("CRAWFORD_THROTTLE_TEST", "1/minute") == rate


@pytest.mark.parametrize("rate", ["0/second", "100000", "5/fortnight", "-1/s", "1.5/second"])
def test_the_settings_refuse_what_is_not_a_rate(monkeypatch, rate):
    monkeypatch.setenv("CRAWFORD_THROTTLE_TEST", rate)
    with pytest.raises(ImproperlyConfigured):
        _env_rate("CRAWFORD_THROTTLE_TEST", "1/minute")


@pytest.mark.django_db
def test_a_rate_per_second_counts_one_second_of_requests(throttle_rates, time_machine):
    time_machine.move_to(START, tick=False)
    throttle_rates(user="2/second")
    cast = make_cast()
    alice = client_for(cast.alice)
    detail = f"/api/v1/matches/{cast.match.pk}/"
    assert [alice.get(detail).status_code for _ in range(3)] == [200, 200, 429]
    throttled = alice.get(detail)
    assert throttled["Retry-After"] == "1"
    time_machine.move_to(START + dt.timedelta(seconds=1.5), tick=False)
    assert alice.get(detail).status_code == 200
    # The counter keeps the requests of the last second only.
    key = throttles.UserThrottle.cache_format % {"scope": "user", "ident": cast.alice.pk}
    assert len(throttles.history_of(key)) == 1

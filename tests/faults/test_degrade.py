"""Degrade, don't fail, measured on the production shape (gunicorn, DEBUG off)
with Redis and PostgreSQL of the tests' own, stopped and started under it:

- Redis down (stopped, or hanging): the API's reads, its schema and docs, the token endpoint, and the pages (a match, the
  chouette table, the sign-in page and signing in) answer from the database; the cache and the
  throttles fail open, logged once per process, not once per request. Redis back: the cache is used
  again within the breaker's retry time.
- PostgreSQL down: every request that needs it answers 503 with Retry-After (the API's error body
  under /api/), never a 500; PostgreSQL back: 200 again. The figures are printed (``-s``).
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter

import pytest
import requests

from tests.faults.stack import wait_for

pytestmark = pytest.mark.slow


def test_with_redis_down_reads_answer_from_the_database_and_the_cache_comes_back(stack):
    demo = stack.demo
    token = stack.token(demo.player, demo.password)
    auth = {"Authorization": f"Token {token}"}
    assert stack.get(f"/api/v1/matches/{demo.match_id}/").status_code == 200
    assert stack.redis.keys("*match-detail*"), "the detail is cached while Redis is up"

    stack.redis.stop()
    browser = stack.browser()
    answers: list[tuple[str, int, float]] = []

    def time_it(label: str, call) -> requests.Response:
        started = time.monotonic()
        response = call()
        answers.append((label, response.status_code, time.monotonic() - started))
        return response

    for _ in range(5):
        time_it("api list", lambda: stack.get("/api/v1/matches/"))
        time_it("api list as a user", lambda: stack.get("/api/v1/matches/", headers=auth))
        time_it("api detail", lambda: stack.get(f"/api/v1/matches/{demo.match_id}/"))
        time_it("api schema", lambda: stack.get("/api/schema/"))
        time_it("api docs", lambda: stack.get("/api/docs/"))
        time_it("api token", lambda: stack.post("/api/v1/auth/token/",
                                                json={"username": demo.player, "password": demo.password}))
        time_it("match page", lambda: stack.get(f"/matches/{demo.match_id}/"))
        time_it("sign-in page", lambda: stack.get("/accounts/login/"))
    signed_in = time_it("signing in", lambda: browser.sign_in(demo.organiser, demo.password))
    assert signed_in.status_code == 302, signed_in.text[:500]
    table = time_it("chouette table", lambda: browser.get(f"/clubs/{demo.club_slug}/chouettes/{demo.chouette_id}/"))
    assert "Settlement" in table.text or "settlement" in table.text

    expected = {"signing in": 302}
    wrong = [(label, status) for label, status, _ in answers if status != expected.get(label, 200)]
    assert not wrong, wrong
    # The outage is logged once per gunicorn worker (2), not once per request.
    log = stack.service.process.log()
    assert 1 <= log.count("The cache (Redis) is unavailable") <= 2, log[-3000:]
    assert "Traceback" not in log, log[-3000:]

    stack.redis.start()
    restarted = time.monotonic()

    # Each worker keeps the detail it rendered during the outage in its own memory (its key names
    # the match's version, so it is current): the cache in use again shows in the throttles'
    # counters, written to Redis by every request.
    def cached_again():
        assert stack.get(f"/api/v1/matches/{demo.match_id}/").status_code == 200
        return stack.redis.keys("*list:throttle*")

    wait_for("the cache to be used again", cached_again, timeout=60, interval=0.2)
    back_after = time.monotonic() - restarted
    wait_for("the recovery to be logged", lambda: "The cache (Redis) answers again" in stack.service.process.log(),
             timeout=30)

    latencies = sorted(seconds for *_, seconds in answers)
    print(f"\nRedis down: {len(answers)} requests, answers {dict(Counter(s for _, s, _ in answers))}, "
          f"median {latencies[len(latencies) // 2] * 1000:.0f} ms, slowest {latencies[-1] * 1000:.0f} ms; "
          f"Redis restarted: the cache used again after {back_after:.1f} s")


def test_with_redis_hanging_requests_wait_once_on_its_timeout_then_not_at_all(stack):
    """A Redis that takes connections and never answers: the first cache call of each gunicorn
    worker waits for the socket timeout (0.5 s), then the breaker answers for Redis for 5 s."""
    demo = stack.demo
    stack.redis.pause()
    answers = []
    for _ in range(40):
        started = time.monotonic()
        response = stack.get(f"/api/v1/matches/{demo.match_id}/")
        answers.append((response.status_code, time.monotonic() - started))
    stack.redis.resume()
    assert [status for status, _ in answers] == [200] * 40
    assert "The cache (Redis) is unavailable (TimeoutError" in stack.service.process.log()
    slow = sum(1 for _, seconds in answers if seconds >= 0.4)
    took = sum(seconds for _, seconds in answers)
    print(f"\nRedis hanging: {len(answers)} requests in {took:.1f} s, {slow} of them waited for the timeout, "
          f"median {sorted(s for _, s in answers)[len(answers) // 2] * 1000:.0f} ms")


class Load:
    """Requests sent one after another from a thread, each answer kept with its time."""

    def __init__(self, stack, paths: list[str]):
        self.stack, self.paths = stack, paths
        self.answers: list[tuple[float, str, int | str, requests.Response | None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        index = 0
        while not self._stop.is_set():
            path = self.paths[index % len(self.paths)]
            index += 1
            try:
                response = self.stack.get(path, timeout=30)
                self.answers.append((time.monotonic(), path, response.status_code, response))
            except requests.RequestException as error:
                self.answers.append((time.monotonic(), path, type(error).__name__, None))
            time.sleep(0.02)

    def __enter__(self) -> Load:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=60)

    def between(self, start: float, end: float = float("inf")) -> list:
        return [answer for answer in self.answers if start <= answer[0] < end]


def test_with_postgres_down_requests_answer_503_with_retry_after_then_200_again(stack):
    demo = stack.demo
    detail, page = f"/api/v1/matches/{demo.match_id}/", f"/matches/{demo.match_id}/"
    with Load(stack, [detail, page, "/api/v1/matches/"]) as load:
        wait_for("a few answers", lambda: len(load.answers) >= 10, timeout=30)
        stopping = time.monotonic()
        stack.postgres.stop()
        stopped = time.monotonic()
        wait_for("answers while PostgreSQL is down", lambda: len(load.between(stopped)) >= 30, timeout=30)
        # The sign-in page needs no database until someone signs in.
        assert stack.get("/accounts/login/").status_code == 200
        starting = time.monotonic()
        stack.postgres.start()
        started = time.monotonic()

        def steady():
            after = load.between(started)
            return len(after) >= 10 and all(status == 200 for _, _, status, _ in after[-10:])

        wait_for("10 answers in a row of 200 after PostgreSQL started", steady, timeout=60)

    statuses = Counter(status for _, _, status, _ in load.answers)
    assert set(statuses) <= {200, 503}, statuses  # never a 500, never a dropped connection
    unavailable = [(path, response) for _, path, status, response in load.answers if status == 503]
    assert unavailable, "requests were made while PostgreSQL was down"
    for path, response in unavailable:
        assert response.headers["Retry-After"] == "5"
        if path.startswith("/api/"):
            assert response.json()["code"] == "service_unavailable"
        else:
            assert "Crawford cannot reach its database just now" in response.text
    assert all(status == 503 for _, _, status, _ in load.between(stopped, starting))
    log = stack.service.process.log()
    assert "Traceback" not in log, log[-3000:]
    # Once per gunicorn worker (2), and its end once each: not once per request.
    assert 1 <= len(re.findall(r"The database \(PostgreSQL\) is unavailable", log)) <= 2, log[-3000:]
    assert "The database (PostgreSQL) answers again" in log

    during = load.between(stopped, started)
    after_start = load.between(started)
    errors_after_start = [a for a in after_start if a[2] != 200]
    first_ok = next(t for t, _, status, _ in after_start if status == 200)
    print(f"\nPostgreSQL down: {len(load.between(stopping))} requests from the stop on, answers {dict(statuses)}; "
          f"stop took {stopped - stopping:.1f} s, {len(during)} requests while down or starting "
          f"({sum(1 for a in during if a[2] == 503)} answered 503); start took {started - starting:.1f} s, then "
          f"{len(errors_after_start)} errors and the first 200 after {first_ok - started:.2f} s")

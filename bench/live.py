"""Live pages benchmark: what the viewers of an event's live pages cost the server, and how soon
they see a confirmed result, in the production shape (docs/production.md).

    .venv/bin/python bench/live.py [--viewers 100 200] [--period 3] [--window 15] [--confirmations 8]
                                   [--players 64] [--workers 4] [--threads 4] [--db NAME] [--redis-db N]
                                   [--no-page]

A page of an event polls ``/events/<id>/live/`` every 3 s with the ETag it last had
(static/js/live.js): a 304 while nothing changed, answered from the cache with no query. When the
version moves the page fetches itself and swaps its regions. This bench reuses ``bench/api.py``'s
harness (gunicorn gthread on loopback with ``bench/wsgi_bench.py``, DEBUG off, PostgreSQL, the
Redis cache and broker; the static files collected as in production) and:
1. makes, in its database (``--db``, made if missing, migrated), a new Swiss of ``--players``
   players, drawn (round 1 paired), run by an organiser with an API token;
2. measures the server with no viewer for ``--window`` seconds: its CPU time (utime + stime of
   gunicorn's master and workers, /proc) and its memory (the sum of their RSS);
3. for each count of ``--viewers``: that many idle viewers (a thread each, a keep-alive connection
   each, polling every ``--period`` seconds at random phases, as phones in a hall would), then the
   same measures over ``--window`` seconds: CPU per 100 viewers (the share of one core, and per
   poll), RSS against no viewer, the polls' latency;
4. with the largest count still polling: ``--confirmations`` results entered by the organiser
   (``POST /api/v1/matches/<id>/override/``, which confirms the match), one every period and a
   half; each viewer that sees the new version fetches the standings page as live.js does (not
   with ``--no-page``). Prints the time from each POST being sent to the first viewer that sees
   the new version, and to every viewer (p50, p95, max), and the CPU each confirmation cost
   (its burst of page fetches included) beyond the polling.

The goal (a result shown within a few seconds): every viewer sees a confirmed result within
``period + 2`` seconds at p95, and no poll is answered anything but 200 or 304. The exit status is
1 when it is missed. The load generator's threads share this machine's CPUs with the server: its
own CPU use is printed beside the server's.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.api import (
    CLIENT_ADDRESSES,
    HOST,
    REQUEST_TIMEOUT,
    ROOT,
    analyze,
    bench_env,
    database_ready,
    forget_queues,
    free_port,
    run,
    server_cpu_seconds,
    start_server,
    stop_server,
    wait_ready,
)

DB_NAME = "crawford_bench_live"
SETTLE_SECONDS = 2.0

# Run by ``manage.py shell``: a new Swiss of COUNT players, drawn, its organiser's API token, the
# scheduled matches of round 1 (id, length). Prints them as one JSON line.
SETUP_SCRIPT = """
import json
from accounts.models import User
from accounts.services import api_token_create
from matches.models import Match, Player, Side
from tournaments.models import Entry, Tournament
from tournaments.services import EventRules, tournament_close_entries, tournament_create, tournament_draw

COUNT, TAG = __COUNT__, "__TAG__"
organiser, _ = User.objects.get_or_create(username="bench-live", defaults={"role": User.Role.ORGANISER})
_token, key = api_token_create(user=organiser, name=f"bench live {TAG}")
tournament = tournament_create(user=organiser, rules=EventRules(name=f"Bench live {TAG}", format=Tournament.Format.SWISS,
                                                                swiss_rounds=5))
tournament_close_entries(tournament_id=tournament.pk, user=organiser)
players = Player.objects.bulk_create(Player(display_name=f"Live {TAG} {n:03d}", rating=2000 - n) for n in range(COUNT))
sides = Side.objects.bulk_create(Side(player_a=p) for p in players)
Entry.objects.bulk_create(Entry(tournament=tournament, side=s, status=Entry.Status.CHECKED_IN) for s in sides)
tournament_draw(tournament_id=tournament.pk, user=organiser)
matches = list(Match.objects.filter(event_link__tournament=tournament, status=Match.Status.SCHEDULED)
               .order_by("pk").values_list("pk", "length"))
print(json.dumps({"event": tournament.pk, "token": key, "matches": matches}))
"""


def prepare(env: dict[str, str], db_name: str, players: int) -> dict:
    database_ready(env, db_name, fresh=False)
    script = SETUP_SCRIPT.replace("__COUNT__", str(players)).replace("__TAG__", secrets.token_hex(3))
    out = run([sys.executable, "manage.py", "shell", "-v", "0", "-c", script], env)
    analyze(env, db_name)
    return json.loads(out.strip().splitlines()[-1])


def server_pids(server: subprocess.Popen) -> list[int]:
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return [server.pid, *map(int, children)]


def server_rss_mb(server: subprocess.Popen) -> float:
    """The resident memory of gunicorn's master and workers together, in MB (Linux /proc)."""
    total = 0
    for pid in server_pids(server):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Viewers:
    """``count`` idle viewers of one event, each a thread with a keep-alive connection polling the
    live version every ``period`` seconds (its own random phase), with the ETag it last had; a
    viewer that sees a new version fetches ``page`` (unless None), as live.js does."""

    port: int
    live: str
    page: str | None
    count: int
    period: float
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    polls: list[tuple[float, float]] = field(default_factory=list)  # (answered at, latency)
    statuses: Counter = field(default_factory=Counter)
    page_latencies: list[float] = field(default_factory=list)
    #: (viewer, version, seen at): each version a viewer saw first, and when.
    sightings: list[tuple[int, int, float]] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        for number in range(self.count):
            thread = threading.Thread(target=self.viewer, args=(number,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=self.period + REQUEST_TIMEOUT)

    def viewer(self, number: int) -> None:
        address = CLIENT_ADDRESSES[number % len(CLIENT_ADDRESSES)]
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        etag, version = None, None
        next_at = time.perf_counter() + random.uniform(0, self.period)
        while not self.stop.wait(max(0.0, next_at - time.perf_counter())):
            next_at += self.period
            headers = {"Accept": "application/json", "X-Forwarded-For": address}
            if etag:
                headers["If-None-Match"] = etag
            sent = time.perf_counter()
            try:
                conn.request("GET", self.live, headers=headers)
                response = conn.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
                with self.lock:
                    self.statuses[type(error).__name__] += 1
                continue
            done = time.perf_counter()
            seen = None
            if response.status == 200:
                etag, seen = response.getheader("ETag"), json.loads(body)["version"]
            with self.lock:
                self.polls.append((done, done - sent))
                self.statuses[response.status] += 1
                if seen is not None and seen != version:
                    self.sightings.append((number, seen, done))
            if seen is not None and seen != version and version is not None and self.page:
                try:
                    conn.request("GET", self.page, headers={"Accept": "text/html", "X-Forwarded-For": address})
                    page = conn.getresponse()
                    page.read()
                    with self.lock:
                        self.page_latencies.append(time.perf_counter() - done)
                        self.statuses[f"page {page.status}"] += 1
                except (OSError, http.client.HTTPException) as error:
                    conn.close()
                    conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
                    with self.lock:
                        self.statuses[f"page {type(error).__name__}"] += 1
            if seen is not None:
                version = seen
        conn.close()


@dataclass
class Measure:
    viewers: int
    seconds: float
    cpu: float  # server CPU seconds in the window
    client_cpu: float
    rss_mb: float
    polls: int = 0
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")


def measure(server: subprocess.Popen, seconds: float, viewers: Viewers | None) -> Measure:
    begin_cpu, begin_client, begin = server_cpu_seconds(server), time.process_time(), time.perf_counter()
    time.sleep(seconds)
    end_cpu, end_client, end = server_cpu_seconds(server), time.process_time(), time.perf_counter()
    result = Measure(viewers.count if viewers else 0, end - begin, end_cpu - begin_cpu,
                     (end_client - begin_client) / (end - begin), server_rss_mb(server))
    if viewers is not None:
        with viewers.lock:
            latencies = [latency for at, latency in viewers.polls if begin <= at <= end]
        result.polls = len(latencies)
        result.p50_ms, result.p99_ms = 1000 * quantile(latencies, 0.5), 1000 * quantile(latencies, 0.99)
    return result


def live_version(port: int, path: str) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return json.loads(response.read())["version"]
    finally:
        conn.close()


def confirm(port: int, token: str, match_id: int, length: int) -> float:
    """The organiser enters ``match_id``'s result (confirmed at once); the POST's duration."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        sent = time.perf_counter()
        conn.request("POST", f"/api/v1/matches/{match_id}/override/", body=json.dumps({"score": [length, 0]}),
                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"override {match_id}: {response.status} {body[:300]!r}")
        return time.perf_counter() - sent
    finally:
        conn.close()


@dataclass
class Confirmations:
    posts: list[float] = field(default_factory=list)  # each POST's duration
    first: list[float] = field(default_factory=list)  # POST sent -> the first viewer's sighting
    every: list[float] = field(default_factory=list)  # POST sent -> each viewer's sighting
    missed: int = 0  # viewers that never saw a version
    cpu_each: float = float("nan")  # server CPU seconds per confirmation beyond the polling


def confirmations(server, port: int, subjects: dict, viewers: Viewers, count: int, idle_cpu_rate: float
                  ) -> Confirmations:
    live = viewers.live
    result = Confirmations()
    spacing = viewers.period * 1.5
    begin_cpu, begin = server_cpu_seconds(server), time.perf_counter()
    marks = []
    for match_id, length in subjects["matches"][:count]:
        before = live_version(port, live)
        sent = time.perf_counter()
        result.posts.append(confirm(port, subjects["token"], match_id, length))
        marks.append((before, sent))
        time.sleep(max(0.0, sent + spacing - time.perf_counter()))
    time.sleep(viewers.period + 1.0)
    burst_cpu, burst_seconds = server_cpu_seconds(server) - begin_cpu, time.perf_counter() - begin
    result.cpu_each = (burst_cpu - idle_cpu_rate * burst_seconds) / max(1, len(marks))
    with viewers.lock:
        sightings = list(viewers.sightings)
    for before, sent in marks:
        first_seen: dict[int, float] = {}
        for viewer, version, at in sightings:
            if version > before and at >= sent and viewer not in first_seen:
                first_seen[viewer] = at
        delays = [at - sent for at in first_seen.values()]
        result.missed += viewers.count - len(delays)
        if delays:
            result.first.append(min(delays))
            result.every.extend(delays)
    return result


def serve(env: dict[str, str], subjects: dict, args) -> tuple[list[Measure], Confirmations, Viewers]:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    port = free_port()
    live, page = f"/events/{subjects['event']}/live/", f"/events/{subjects['event']}/standings/"
    with tempfile.TemporaryFile(mode="w+") as log:
        server = start_server(env, port, args.workers, args.threads, log)
        viewers = None
        try:
            wait_ready(server, port)
            print(f"gunicorn on http://{HOST}:{port}/ (pid {server.pid}), database {args.db}, cache {env['REDIS_URL']}; "
                  f"event {subjects['event']} ({args.players} players), {live}")
            for _ in range(4 * args.workers):  # every worker imports and renders once
                live_version(port, live)
                conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
                conn.request("GET", page)
                conn.getresponse().read()
                conn.close()
            time.sleep(SETTLE_SECONDS)
            measures = [measure(server, args.window, None)]
            for count in args.viewers:
                viewers = Viewers(port, live, None if args.no_page else page, count, args.period)
                viewers.start()
                time.sleep(args.period + SETTLE_SECONDS)
                measures.append(measure(server, args.window, viewers))
                if count != args.viewers[-1]:
                    viewers.finish()
            idle_rate = measures[-1].cpu / measures[-1].seconds
            confirmed = confirmations(server, port, subjects, viewers, args.confirmations, idle_rate)
            viewers.finish()
            return measures, confirmed, viewers
        except BaseException:
            if viewers is not None:
                viewers.stop.set()
            log.seek(0)
            sys.stderr.write("gunicorn's log:\n" + log.read()[-4000:])
            raise
        finally:
            stop_server(server)


def report(measures: list[Measure], confirmed: Confirmations, viewers: Viewers, args) -> bool:
    idle = measures[0]
    print(f"\n{'viewers':>8} {'polls/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'server CPU':>11} {'per 100 viewers':>16}"
          f" {'CPU/poll':>9} {'RSS MB':>8} {'+RSS MB':>8} {'client CPU':>11}")
    for m in measures:
        rate = m.cpu / m.seconds
        extra = rate - idle.cpu / idle.seconds
        per_100 = f"{100 * extra / (m.viewers / 100):.1f}% core" if m.viewers else "-"
        per_poll = f"{1000 * (m.cpu - idle.cpu / idle.seconds * m.seconds) / m.polls:.2f} ms" if m.polls else "-"
        print(f"{m.viewers:>8} {m.polls / m.seconds:>8.1f} {m.p50_ms:>7.1f} {m.p99_ms:>7.1f} {100 * rate:>10.1f}%"
              f" {per_100:>16} {per_poll:>9} {m.rss_mb:>8.1f} {m.rss_mb - idle.rss_mb:>8.1f} {100 * m.client_cpu:>10.1f}%")
    goal = args.period + 2.0
    every_p95 = quantile(confirmed.every, 0.95)
    print(f"\n{len(confirmed.posts)} confirmations with {viewers.count} viewers polling every {args.period:g} s"
          f"{'' if args.no_page else ' (each viewer then fetches the standings page)'}:")
    print(f"  the POST (override, confirmed): p50 {1000 * quantile(confirmed.posts, 0.5):.0f} ms, "
          f"max {1000 * max(confirmed.posts):.0f} ms")
    print(f"  POST sent -> first viewer sees it: p50 {1000 * quantile(confirmed.first, 0.5):.0f} ms, "
          f"p95 {1000 * quantile(confirmed.first, 0.95):.0f} ms")
    print(f"  POST sent -> each viewer sees it:  p50 {1000 * quantile(confirmed.every, 0.5):.0f} ms, "
          f"p95 {1000 * every_p95:.0f} ms, max {1000 * max(confirmed.every, default=float('nan')):.0f} ms "
          f"(goal: p95 <= {goal:g} s){'' if every_p95 <= goal else '  MISSED'}")
    if viewers.page_latencies:
        print(f"  the page fetched after a change: p50 {1000 * quantile(viewers.page_latencies, 0.5):.0f} ms, "
              f"p95 {1000 * quantile(viewers.page_latencies, 0.95):.0f} ms")
    print(f"  server CPU per confirmation beyond the polling (its page fetches included): {confirmed.cpu_each:.2f} s; "
          f"viewers that missed a confirmation: {confirmed.missed}")
    statuses = dict(viewers.statuses)
    print(f"  answers: {statuses}")
    unexpected = {k: v for k, v in statuses.items() if k not in (200, 304, "page 200")}
    if unexpected:
        print(f"  UNEXPECTED answers: {unexpected}")
    return every_p95 <= goal and not unexpected and confirmed.missed == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, nargs="+", default=[100, 200], help="counts of idle viewers, in turn")
    parser.add_argument("--period", type=float, default=3.0, help="seconds between a viewer's polls (live.js: 3)")
    parser.add_argument("--window", type=float, default=15.0, help="seconds each measure lasts")
    parser.add_argument("--confirmations", type=int, default=8)
    parser.add_argument("--players", type=int, default=64, help="players of the Swiss (round 1: half as many matches)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--no-page", action="store_true", help="viewers do not fetch the page after a change")
    parser.add_argument("--db", default=DB_NAME, help="the bench's PostgreSQL database (made if missing)")
    parser.add_argument("--redis-db", type=int, default=0, help="the Redis database of the cache and the broker")
    args = parser.parse_args()
    if not (all(0 < n <= 1000 for n in args.viewers) and 0.5 <= args.period <= 30 and 1 <= args.window <= 120
            and 1 <= args.confirmations <= args.players // 2 and 4 <= args.players <= 1000):
        parser.error("keep --viewers in 1..1000, --period in [0.5, 30], --window in [1, 120], "
                     "--players in 4..1000 and --confirmations in 1..players/2")
    if not args.db.replace("_", "").isalnum():
        parser.error("keep --db a plain name (letters, digits, _)")
    args.viewers = sorted(args.viewers)
    prefix = f"crawford-bench-{os.getpid()}-{secrets.token_hex(4)}-"
    env = bench_env(args.db, args.redis_db, prefix)
    subjects = prepare(env, args.db, args.players)
    with tempfile.TemporaryDirectory(prefix="crawford-bench-static-") as static_root:
        env["DJANGO_STATIC_ROOT"] = static_root  # the pages need the collected files' manifest (DEBUG off)
        run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], env)
        try:
            measures, confirmed, viewers = serve(env, subjects, args)
        finally:
            forget_queues(args.redis_db, prefix)
    print(f"(cwd {ROOT}; machine: {os.cpu_count()} CPUs, shared with the load generator)")
    return 0 if report(measures, confirmed, viewers, args) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Big events benchmark: the reads of a 1,000-player Swiss and of a 1,024-entrant bracket, each
against a no-op endpoint of the same server measured in the same run, in the production shape.

    .venv/bin/python bench/events.py [--seconds 5] [--connections 32] [--workers 4] [--threads 4] [--rebuild]
                                     [--db NAME] [--redis-db N]

It reuses ``bench/api.py``'s harness (gunicorn gthread on loopback with ``bench/wsgi_bench.py``, the
no-op endpoint, the load generator) and:
1. builds, in its own PostgreSQL database (``--db``, by default ``crawford_bench_events``; made
   if missing, migrated), a 1,000-player Swiss with three rounds played and the fourth paired, and a 1,024-entrant single
   elimination with a consolation flight, drawn. Players, sides and entries are bulk inserts, the
   draws and the Swiss rounds are made by the services, and the results are confirmed by bulk
   updates (the database's constraints check them). A database that holds both events is reused;
   ``--rebuild`` drops it first;
2. serves it with gunicorn (gthread, 4 workers x 4 threads by default), DEBUG off, the static files
   collected into a temporary directory, the Redis cache and broker (Redis database ``--redis-db``
   on 127.0.0.1) and PostgreSQL;
3. loads each endpoint from ``--connections`` keep-alive connections (32 by default) and prints
   its rate, p50 and p99 latency, the size of its answer, its ratio to the no-op and its goal.

The goals: the standings (first page) of the 1,000-player Swiss at >= 0.25x the no-op (0.03x and a
p99 of 1.9 s before the table was paged and cached); the rounds (the current round's first page)
and the bracket (the main flight's first round, first page) each answered in at most 64 KB (1.85 MB
and 727 KB before, unpaginated); their rates and those of the pages (HTML) are printed beside the
no-op's, without a goal. The exit status is 1 when an endpoint answered with an unexpected status or missed a goal.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.api import (
    HOST,
    REQUEST_TIMEOUT,
    WARMUP_SECONDS,
    Endpoint,
    Result,
    analyze,
    bench_env,
    call,
    database_ready,
    forget_queues,
    free_port,
    load,
    run,
    start_server,
    stop_server,
    wait_ready,
)

DB_NAME = "crawford_bench_events"
BUILD_TIMEOUT = 1200
SWISS_PLAYERS = 1000
SWISS_ROUNDS_PLAYED = 3
BRACKET_ENTRANTS = 1024
STANDINGS_GOAL = 0.25
SIZE_GOAL = 64 * 1024

# Run by ``manage.py shell``: builds the two events (or finds them) and prints their ids as JSON.
BUILD_SCRIPT = f"""
import json
import random
from django.db import transaction
from django.utils import timezone
from accounts.models import User
from matches.models import Match, Player, Side
from tournaments.models import Entry, Tournament
from tournaments.selectors.event import tournament_named
from tournaments.services import (EventRules, tournament_close_entries, tournament_create, tournament_draw,
                                  tournament_pair_next_round)

SWISS, BRACKET = "Bench Swiss {SWISS_PLAYERS}", "Bench Open {BRACKET_ENTRANTS}"
rng = random.Random(12)
organiser, _ = User.objects.get_or_create(username="bench-events", defaults={{"role": User.Role.ORGANISER}})


def entrants(tournament, count, prefix):
    with transaction.atomic():
        players = Player.objects.bulk_create(
            Player(display_name=f"{{prefix}} {{n:04d}}", rating=rng.uniform(1200, 2100)) for n in range(count))
        sides = Side.objects.bulk_create(Side(player_a=p) for p in players)
        Entry.objects.bulk_create(Entry(tournament=tournament, side=s, status=Entry.Status.CHECKED_IN) for s in sides)


def confirm_scheduled(tournament):
    matches = list(Match.objects.filter(event_link__tournament=tournament, status=Match.Status.SCHEDULED))
    now = timezone.now()
    for match in matches:
        match.winner = rng.randrange(2)
        loser = rng.randrange(match.length)
        match.score0, match.score1 = (match.length, loser) if match.winner == 0 else (loser, match.length)
        match.status, match.confirmed_at = Match.Status.CONFIRMED, now
    Match.objects.bulk_update(matches, ["winner", "score0", "score1", "status", "confirmed_at"], batch_size=500)
    # No service moved the event's version: pairing the next round (under the event's lock) does.
    return len(matches)


def event(name, count, prefix, **rules):
    found = tournament_named(organiser=organiser, name=name)
    if found is not None and found.drawn_at is not None:
        return found, False
    tournament = tournament_create(user=organiser, rules=EventRules(name=name, **rules))
    tournament_close_entries(tournament_id=tournament.pk, user=organiser)
    entrants(tournament, count, prefix)
    return tournament_draw(tournament_id=tournament.pk, user=organiser), True


swiss, made = event(SWISS, {SWISS_PLAYERS}, "Swiss", format=Tournament.Format.SWISS, swiss_rounds=5)
if made:
    for number in range(1, {SWISS_ROUNDS_PLAYED} + 1):
        confirm_scheduled(Tournament.objects.get(pk=swiss.pk))
        tournament_pair_next_round(tournament_id=swiss.pk, user=organiser)
bracket, _ = event(BRACKET, {BRACKET_ENTRANTS}, "Open", consolation_rounds=1)
print(json.dumps({{"swiss": swiss.pk, "bracket": bracket.pk,
                  "swiss_matches": Match.objects.filter(event_link__tournament=swiss).count(),
                  "bracket_pairings": bracket.pairings.count()}}))
"""


@dataclass(frozen=True)
class Goal:
    ratio: float | None
    size: int | None = None


def events_env(args, prefix: str) -> dict[str, str]:
    """``bench/api.py``'s environment (the production shape: the Redis cache and broker) with
    this bench's database."""
    env = bench_env(args.db, args.redis_db, prefix)
    # The throttles stay on, as in production, lifted by a per-second rate: a minute's history
    # of one client's requests (thousands of entries, read and written on every request) would
    # weigh on every figure.
    env.update({f"CRAWFORD_THROTTLE_{scope}": "100000000/second"
                for scope in ("ANON", "USER", "REPORTS", "DISPUTES", "UPLOADS")})
    # No worker runs here: the big files are drawn by the first request (in the warm-up), then
    # kept; what is measured is the kept file served to every reader.
    env.update({"CRAWFORD_RENDER_TASK_SCORESHEETS": "100000", "CRAWFORD_RENDER_TASK_MATCHES": "100000"})
    return env


def prepare(env: dict[str, str], rebuild: bool, db: str) -> dict:
    """Create (or with ``rebuild`` recreate), migrate and fill the bench database; return the events' ids."""
    database_ready(env, db, fresh=rebuild)
    manage = [sys.executable, "manage.py"]
    done = subprocess.run([*manage, "shell", "-v", "0", "-c", BUILD_SCRIPT], cwd=Path(__file__).resolve().parents[1],
                          env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"building the events failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    analyze(env, db)
    return json.loads(done.stdout.strip().splitlines()[-1])


def endpoints(ids: dict) -> list[tuple[Endpoint, Goal]]:
    swiss, bracket = ids["swiss"], ids["bracket"]
    ok = frozenset({200})
    return [
        (Endpoint("no-op", "GET", "/bench/noop/", frozenset({204})), Goal(None)),
        (Endpoint(f"standings ({SWISS_PLAYERS} players, page 1)", "GET", f"/api/v1/tournaments/{swiss}/standings/",
                  ok, target=STANDINGS_GOAL), Goal(STANDINGS_GOAL)),
        (Endpoint("rounds (current round, page 1)", "GET", f"/api/v1/tournaments/{swiss}/rounds/", ok),
         Goal(None, SIZE_GOAL)),
        (Endpoint(f"bracket ({BRACKET_ENTRANTS}, main round 1, page 1)", "GET",
                  f"/api/v1/tournaments/{bracket}/bracket/", ok), Goal(None, SIZE_GOAL)),
        (Endpoint("standings page (HTML, 100 places)", "GET", f"/events/{swiss}/standings/", ok), Goal(None)),
        (Endpoint("rounds page (HTML, 100 boards)", "GET", f"/events/{swiss}/rounds/", ok), Goal(None)),
        (Endpoint("bracket page (HTML, every flight)", "GET", f"/events/{bracket}/bracket/", ok), Goal(None)),
        # Drawn once per state of the event, then kept: each reader gets the kept bytes.
        (Endpoint(f"bracket.png ({BRACKET_ENTRANTS}, kept)", "GET", f"/events/{bracket}/bracket.png", ok), Goal(None)),
        (Endpoint(f"round 4 scoresheets PDF ({SWISS_PLAYERS} players, kept)", "GET",
                  f"/events/{swiss}/paper/round/4/scoresheets.pdf", ok), Goal(None)),
    ]


def answer_size(port: int, endpoint: Endpoint) -> int:
    """The size in bytes of one answer of ``endpoint`` (its body)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        status, body = call(conn, endpoint, endpoint.path, endpoint.headers)
    finally:
        conn.close()
    if status not in endpoint.expected:
        raise RuntimeError(f"{endpoint.name}: {status} {body[:300]!r}")
    return len(body)


def serve(env: dict[str, str], subjects: list[Endpoint], args) -> tuple[list[Result], dict[str, int]]:
    """Start gunicorn, ask each endpoint once for its size, load each in turn, stop gunicorn (also
    on failure or Ctrl-C); gunicorn's log is shown when something fails."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    port = free_port()
    with tempfile.TemporaryFile(mode="w+") as log:
        server = start_server(env, port, args.workers, args.threads, log)
        try:
            wait_ready(server, port)
            print(f"gunicorn on http://{HOST}:{port}/ (pid {server.pid}), database {args.db}, cache {env['REDIS_URL']}")
            sizes = {e.name: answer_size(port, e) for e in subjects}
            return [load(e, port, args.connections, args.seconds, server) for e in subjects], sizes
        except BaseException:
            log.seek(0)
            sys.stderr.write("gunicorn's log:\n" + log.read()[-4000:])
            raise
        finally:
            stop_server(server)


def report(results: list[Result], goals: list[Goal], sizes: dict[str, int], args) -> bool:
    """Print the table; return True when every endpoint answered as expected and met its goals."""
    noop = results[0].rate
    print(f"\n{args.connections} connections, {args.seconds:.0f} s each after {WARMUP_SECONDS:.0f} s warm-up; "
          f"gunicorn gthread {args.workers} workers x {args.threads} threads; {os.cpu_count()} CPUs shared "
          f"with the load generator; Redis cache, PostgreSQL, DEBUG off")
    print(f"{'endpoint':42} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'size':>9} {'x no-op':>8} "
          f"{'goal':>22}  verdict")
    ok = True
    for result, goal in zip(results, goals, strict=True):
        ratio = result.rate / noop if noop else float("nan")
        size = sizes[result.endpoint.name]
        wanted = []
        if goal.ratio is not None:
            wanted.append(f">= {goal.ratio:.2f}x")
        if goal.size is not None:
            wanted.append(f"<= {goal.size // 1024} KB")
        verdict = "ok"
        if result.unexpected:
            verdict = "UNEXPECTED " + ", ".join(f"{k}: {v}" for k, v in result.unexpected.most_common())
        elif goal.ratio is not None and not ratio >= goal.ratio:
            verdict = "BELOW GOAL"
        elif goal.size is not None and size > goal.size:
            verdict = "TOO BIG"
        ok = ok and verdict == "ok"
        print(f"{result.endpoint.name:42} {result.rate:7.0f} {result.latency_ms(0.5):7.1f} "
              f"{result.latency_ms(0.99):7.1f} {size / 1024:6.1f} KB {ratio:7.2f}x {', '.join(wanted):>22}  {verdict}")
        if result.sample:
            print(f"    first unexpected body: {result.sample}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per endpoint (at most 60)")
    parser.add_argument("--connections", type=int, default=32, help="concurrent keep-alive connections (at most 64)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--rebuild", action="store_true", help="drop the bench database and build the events anew")
    parser.add_argument("--db", default=DB_NAME, help="the bench's PostgreSQL database (made if missing)")
    parser.add_argument("--redis-db", type=int, default=0, help="the Redis database of the cache and the broker")
    args = parser.parse_args()
    if not (0 < args.seconds <= 60 and 0 < args.connections <= 64 and 0 < args.workers <= 16 and 0 < args.threads <= 64):
        parser.error("keep --seconds in (0, 60], --connections in 1..64, --workers in 1..16, --threads in 1..64")
    if not args.db.replace("_", "").isalnum():
        parser.error("keep --db a plain name (letters, digits, _)")
    prefix = f"crawford-bench-{os.getpid()}-{secrets.token_hex(4)}-"
    env = events_env(args, prefix)
    ids = prepare(env, args.rebuild, args.db)
    print(f"events: Swiss {ids['swiss']} ({ids['swiss_matches']} matches), bracket {ids['bracket']} "
          f"({ids['bracket_pairings']} pairings)")
    pairs = endpoints(ids)
    # The pages need the collected static files' manifest with DEBUG off, as in production.
    with tempfile.TemporaryDirectory(prefix="crawford-bench-static-") as static_root:
        env["DJANGO_STATIC_ROOT"] = static_root
        run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], env)
        try:
            results, sizes = serve(env, [e for e, _ in pairs], args)
        finally:
            forget_queues(args.redis_db, prefix)
    return 0 if report(results, [g for _, g in pairs], sizes, args) else 1


if __name__ == "__main__":
    sys.exit(main())

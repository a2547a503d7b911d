"""API benchmark: requests per second of the match API in the production shape (docs/production.md), each
against a no-op endpoint of the same server measured in the same run.

    .venv/bin/python bench/api.py [--seconds 6] [--rounds 3] [--connections 16] [--workers 4] [--threads 4]
                                  [--db crawford_bench] [--fresh] [--redis-db 0] [--subjects 4000]

Everything runs on loopback (127.0.0.1) and is bounded in time:
1. the PostgreSQL database ``--db`` is created if missing (``createdb``), migrated and given the
   demo data (``manage.py demo_data``, idempotent), then the subjects of the writes: ``--subjects``
   scheduled matches, each with an API token for its side-0 player (a REAL first report: each
   request reports on a match nobody has reported), and as many reported matches, each with a
   token for its side-1 player (a REAL confirmation: each request confirms another match);
2. gunicorn starts (gthread, ``--workers`` x ``--threads``: 4 x 4 as in docs/production.md) on a free
   port with ``bench/wsgi_bench.py``: the product's settings with DEBUG off, PostgreSQL, and Redis
   (database ``--redis-db``) as the cache (``core.cache.FailOpenRedisCache``) and the broker, the
   outbox publishing to queues of this run only (removed at the end), one trusted proxy
   (``CRAWFORD_NUM_PROXIES=1``), plus ``/bench/noop/`` (``bench/noop.py``), which the product
   never has;
3. in ``--rounds`` rounds over the endpoints (so that a change in what else the machine runs weighs
   on every endpoint alike), each endpoint gets one warm-up second, then its share of ``--seconds``
   of load from ``--connections`` keep-alive connections (threads + http.client; by default one per server thread, so that a
   request waiting on PostgreSQL or Redis leaves no thread idle: the server's capacity is
   measured, not one client's latency); only responses with the expected status count;
4. it prints, per endpoint, requests/second, latency, the ratio to the no-op next to its goal, and
   stops gunicorn, also when something fails or on Ctrl-C. Then it checks in the database that
   every report and confirmation answered 200 changed its match as it should.
The exit status is 1 when an endpoint answered with an unexpected status, missed its goal, ran
out of subjects, or the database does not show the writes answered.

The throttles are lifted by a per-second rate (``CRAWFORD_THROTTLE_<SCOPE>=100000/second``): they
run as in production (their counters in Redis) but never refuse; with a per-minute rate each
counter would keep a minute of history, which at these rates is tens of thousands of entries read
and written by every request. Anonymous reads come from 1,024 client addresses (the proxy's
``X-Forwarded-For``), writes from a different user each: as many clients would, each counter's
history is short.

Server and load generator share this machine's CPUs; the load generator's own CPU use is printed
next to each figure, because on a small machine it takes CPU from the server and so lowers the
no-op's rate more than the others' (making the ratios look better than on separate machines).
"""

from __future__ import annotations

import argparse
import atexit
import http.client
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

# Imported here, not when the queues are removed: that may run at exit, when no import can.
import redis

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
DB_NAME = "crawford_bench"
REDIS_PORT = 6379
#: The goals: the ratio to the no-op each endpoint must reach.
GOAL_REPORT = 0.10
GOAL_DETAIL = 0.25
#: Client addresses of the anonymous reads (RFC 5737 documentation ranges: headers only, no
#: packet ever goes to them).
CLIENT_ADDRESSES = [f"{net}.{i}" for net in ("192.0.2", "198.51.100", "203.0.113", "233.252.0") for i in range(256)]
WARMUP_SECONDS = 1.0
REQUEST_TIMEOUT = 10.0
SETUP_TIMEOUT = 300
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0

# Finds the read subjects in the demo data (the confirmed match with games of median size) and
# makes the write subjects in bulk: N scheduled 5-point matches between two new players each, with
# an API token for side 0's user (a first report), and N matches that side 0 reported 5-3, with a
# token for side 1's user (a confirmation). Their sides' consent is given, as an event's or a club
# night's match has it. Prints them as one JSON line.
SETUP_SCRIPT = """
import json
from django.db.models import Count
from django.utils import timezone
import secrets
from accounts.models import ApiToken, User
from accounts.models_tokens import key_digest
from matches.models import Match, Player, Report, Side

COUNT, TAG = __COUNT__, "__TAG__"
sizes = list(Match.objects.filter(status="confirmed").annotate(n=Count("games")).filter(n__gt=0)
             .order_by("n", "pk").values_list("pk", "n"))
detail_id, detail_games = sizes[len(sizes) // 2]

def players(kind):
    users = User.objects.bulk_create([User(username=f"bench-{TAG}-{kind}-{i}", password="!") for i in range(COUNT)])
    found = Player.objects.bulk_create([Player(user=u, display_name=f"Bench {kind} {i}") for i, u in enumerate(users)])
    sides = Side.objects.bulk_create([Side(player_a=p) for p in found])
    return users, sides

def matches(status):
    users0, sides0 = players(status + "0")
    users1, sides1 = players(status + "1")
    made = Match.objects.bulk_create([Match(side0=a, side1=b, length=5, status=status, consent0="given",
                                            consent1="given", created_by=u) for a, b, u in zip(sides0, sides1, users0)])
    return made, users0, users1

def tokens(users):
    keys = [secrets.token_hex(20) for _ in users]
    ApiToken.objects.bulk_create([ApiToken(key_digest=key_digest(k), user=u, name="bench") for k, u in zip(keys, users)])
    return keys

scheduled, reporters, _ = matches("scheduled")
reported, players0, confirmers = matches("reported")
Report.objects.bulk_create([Report(match=m, side=0, reporter=u, score0=5, score1=3, winner=0)
                            for m, u in zip(reported, players0)])
print(json.dumps({"detail_id": detail_id, "detail_games": detail_games,
                  "report": [[m.pk, t] for m, t in zip(scheduled, tokens(reporters))],
                  "confirm": [[m.pk, t] for m, t in zip(reported, tokens(confirmers))]}))
"""
# What the loads left in the database: how many of the subjects are reported with side 0's
# pending report of 5-3 alone, and how many confirmed 5-3 with a confirmed and an agreed report.
CHECK_SCRIPT = """
import json
from django.db.models import Count, Q
from matches.models import Match
live = ~Q(reports__status="superseded")
def count(ids, status, **reports):
    return (Match.objects.filter(pk__in=ids, status=status)
            .annotate(n=Count("reports", filter=live), **{k: Count("reports", filter=live & Q(**v)) for k, v in reports.items()})
            .filter(n=len(reports), **{k: 1 for k in reports}).count())
print(json.dumps({
    "reported": count(__REPORT__, "reported", pending=dict(reports__status="pending", reports__side=0, reports__score0=5,
                                                           reports__score1=3)),
    "confirmed": count(__CONFIRM__, "confirmed", confirmed=dict(reports__status="confirmed", reports__score0=5),
                       agreed=dict(reports__status="agreed", reports__score0=5)),
}))
"""


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    expected: frozenset[int]
    target: float | None = None  # the goal: the least acceptable ratio to the no-op
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    #: Each request's own subject: (path, headers), taken once each by one request; None: the
    #: endpoint's ``path`` and ``headers`` every time.
    subjects: Subjects | None = None


class Subjects:
    """Requests that each go once (a report on a match nobody reported, say), shared by the load's
    threads; :meth:`take` answers None when they have all gone."""

    def __init__(self, requests: list[tuple[str, dict[str, str]]]):
        self._requests = requests
        self._next = itertools.count()
        self._lock = threading.Lock()
        self.exhausted = False

    def take(self) -> tuple[str, dict[str, str]] | None:
        with self._lock:
            index = next(self._next)
        if index >= len(self._requests):
            self.exhausted = True
            return None
        return self._requests[index]


@dataclass
class Result:
    endpoint: Endpoint
    seconds: float
    latencies: list[float] = field(default_factory=list)
    unexpected: Counter = field(default_factory=Counter)
    answered: int = 0  # expected answers, warm-up included (each took a subject)
    sample: str = ""
    client_cpu: float = 0.0
    server_cpu: float | None = None

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def latency_ms(self, quantile: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(quantile * len(ordered)))]


def bench_env(db_name: str = DB_NAME, redis_db: int = 0, prefix: str | None = None) -> dict[str, str]:
    """The environment of every child process: the bench database, Redis, production settings.
    Without ``prefix`` the run's queues get a prefix of their own, removed from Redis when this
    process ends."""
    if prefix is None:
        prefix = f"crawford-bench-{os.getpid()}-{secrets.token_hex(4)}-"
        atexit.register(forget_queues, redis_db, prefix)
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"postgres://postgres@{HOST}:5432/{db_name}",
        # The cache (core.cache.FailOpenRedisCache) and the broker, as in production.
        "REDIS_URL": f"redis://{HOST}:{REDIS_PORT}/{redis_db}",
        # The outbox publishes after each commit, as in production, to queues of this run alone
        # (no worker takes them; they are removed at the end).
        "CRAWFORD_QUEUE_PREFIX": prefix,
        "CONN_MAX_AGE": "60",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(48),
        "DJANGO_ALLOWED_HOSTS": HOST,
        # Plain HTTP on loopback: with DEBUG off every request would otherwise be redirected.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        # Behind one proxy, as in docs/production.md: the client's address is the X-Forwarded-For's.
        "CRAWFORD_NUM_PROXIES": "1",
        # The throttles run, in Redis, but never refuse: a per-second rate keeps each counter's
        # history to a second (they are tested in tests/test_throttling.py).
        **{f"CRAWFORD_THROTTLE_{scope}": "100000/second" for scope in ("ANON", "USER", "REPORTS", "DISPUTES", "UPLOADS")},
    })
    return env


def run(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=SETUP_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])}... failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def database_ready(env: dict[str, str], db_name: str, *, fresh: bool) -> None:
    """Make the bench database ``db_name`` (dropped first with ``fresh``, else kept if it exists)
    and migrate it. Every bench's database is made here."""
    if fresh:
        run(["dropdb", "-h", HOST, "-U", "postgres", "--if-exists", db_name], env)
    exists = run(["psql", "-h", HOST, "-U", "postgres", "-d", "postgres", "-tAc",
                  f"SELECT 1 FROM pg_database WHERE datname = '{db_name}'"], env)
    if exists.strip() != "1":
        run(["createdb", "-h", HOST, "-U", "postgres", db_name], env)
    run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env)


def prepare(env: dict[str, str], db_name: str, count: int, fresh: bool) -> dict:
    """Create (anew with ``fresh``), migrate and fill the bench database; return the subjects."""
    database_ready(env, db_name, fresh=fresh)
    manage = [sys.executable, "manage.py"]
    # The demo's counts (its first line after any notes), not the logins it prints last.
    print(next(line for line in run([*manage, "demo_data"], env).splitlines() if " matches (" in line))
    script = SETUP_SCRIPT.replace("__COUNT__", str(count)).replace("__TAG__", secrets.token_hex(4))
    out = run([*manage, "shell", "-v", "0", "-c", script], env)
    analyze(env, db_name)
    return json.loads(out.strip().splitlines()[-1])


def analyze(env: dict[str, str], db_name: str) -> None:
    """Give PostgreSQL's planner the statistics of the rows just inserted in bulk, as autovacuum
    does in production soon after; the bench would otherwise measure plans made for empty tables."""
    run(["psql", "-h", HOST, "-U", "postgres", "-d", db_name, "-qc", "ANALYZE"], env)


def writes_seen(env: dict[str, str], subjects: dict, used: dict[str, int]) -> dict[str, int]:
    """How many of the first ``used[kind]`` subjects of each kind the database shows written."""
    script = (CHECK_SCRIPT.replace("__REPORT__", repr([pk for pk, _ in subjects["report"][:used["report"]]]))
              .replace("__CONFIRM__", repr([pk for pk, _ in subjects["confirm"][:used["confirm"]]])))
    out = run([sys.executable, "manage.py", "shell", "-v", "0", "-c", script], env)
    return json.loads(out.strip().splitlines()[-1])


def forget_queues(redis_db: int, prefix: str) -> None:
    """Remove this run's queues and their bindings from Redis (what the outbox published)."""
    client = redis.Redis(host=HOST, port=REDIS_PORT, db=redis_db)
    keys = list(client.scan_iter(f"*{prefix}*"))
    if keys:
        client.delete(*keys)
    for key in client.scan_iter("_kombu.*"):
        if client.type(key) == b"set":
            stale = [member for member in client.smembers(key) if prefix.encode() in member]
            if stale:
                client.srem(key, *stale)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start_server(env: dict[str, str], port: int, workers: int, threads: int, log) -> subprocess.Popen:
    args = [sys.executable, "-m", "gunicorn", "bench.wsgi_bench:application", "--chdir", str(ROOT),
            "--worker-class", "gthread", "--workers", str(workers), "--threads", str(threads),
            "--bind", f"{HOST}:{port}", "--keep-alive", "10", "--log-level", "warning"]
    # Its own session, so that stopping it can reach the master and its workers and nothing else.
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_ready(server: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/bench/noop/")
            if conn.getresponse().status == 204:
                return
        except OSError:
            pass
        finally:
            conn.close()
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer on {HOST}:{port} within {START_TIMEOUT:.0f} s")


def stop_server(server: subprocess.Popen) -> None:
    """Stop gunicorn gracefully (SIGTERM to the master), then its whole session if it lingers."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=STOP_TIMEOUT)


def server_cpu_seconds(server: subprocess.Popen) -> float | None:
    """CPU time used so far by gunicorn's master and workers (Linux /proc), or None."""
    try:
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        total = 0
        for pid in [server.pid, *map(int, children)]:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def call(conn: http.client.HTTPConnection, endpoint: Endpoint, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    conn.request(endpoint.method, path, body=endpoint.body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def load(endpoint: Endpoint, port: int, connections: int, seconds: float, server: subprocess.Popen) -> Result:
    """``connections`` keep-alive connections send requests back to back for a warm-up second and
    then ``seconds``; the requests that complete in the measured window are counted."""
    start = time.perf_counter()
    measure_from, stop_at = start + WARMUP_SECONDS, start + WARMUP_SECONDS + seconds
    result = Result(endpoint, seconds)
    lock = threading.Lock()

    def client(number: int) -> None:
        latencies, unexpected, sample, answered = [], Counter(), "", 0
        addresses = itertools.cycle(CLIENT_ADDRESSES[number::connections])
        conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        while (sent := time.perf_counter()) < stop_at:
            path, headers = endpoint.path, endpoint.headers
            if endpoint.subjects is not None:
                taken = endpoint.subjects.take()
                if taken is None:
                    break
                path, headers = taken
            headers = {**headers, "X-Forwarded-For": next(addresses)}
            try:
                status, body = call(conn, endpoint, path, headers)
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
                unexpected[type(error).__name__] += 1
                time.sleep(0.01)
                continue
            done = time.perf_counter()
            answered += status in endpoint.expected
            if not measure_from <= done <= stop_at:
                continue
            if status in endpoint.expected:
                latencies.append(done - sent)
            else:
                unexpected[status] += 1
                sample = sample or body[:300].decode("utf-8", "replace")
        conn.close()
        with lock:
            result.latencies.extend(latencies)
            result.unexpected.update(unexpected)
            result.answered += answered
            result.sample = result.sample or sample

    threads = [threading.Thread(target=client, args=(number,), daemon=True) for number in range(connections)]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, measure_from - time.perf_counter()))
    cpu, server_cpu = time.process_time(), server_cpu_seconds(server)
    time.sleep(max(0.0, stop_at - time.perf_counter()))
    result.client_cpu = (time.process_time() - cpu) / seconds
    after = server_cpu_seconds(server)
    result.server_cpu = None if server_cpu is None or after is None else (after - server_cpu) / seconds
    for thread in threads:
        thread.join(timeout=REQUEST_TIMEOUT + 5)
    return result


def endpoints(subjects: dict) -> list[Endpoint]:
    def writes(kind: str, action: str) -> Subjects:
        return Subjects([(f"/api/v1/matches/{pk}/{action}/",
                          {"Authorization": f"Token {token}", "Content-Type": "application/json"})
                         for pk, token in subjects[kind]])

    return [
        Endpoint("no-op", "GET", "/bench/noop/", frozenset({204})),
        Endpoint("match list", "GET", "/api/v1/matches/", frozenset({200})),
        Endpoint(f"match detail ({subjects['detail_games']} games)", "GET", f"/api/v1/matches/{subjects['detail_id']}/",
                 frozenset({200}), target=GOAL_DETAIL),
        Endpoint("first report (each a new match)", "POST", "", frozenset({200}), target=GOAL_REPORT,
                 body=json.dumps({"score": [5, 3]}).encode(), subjects=writes("report", "report")),
        Endpoint("confirmation (each a new match)", "POST", "", frozenset({200}), body=b"{}",
                 subjects=writes("confirm", "confirm")),
    ]


def report(results: list[Result], args) -> bool:
    """Print the table; return True when every endpoint answered as expected and met its target."""
    noop = results[0].rate
    print(f"\n{args.connections} connections, {args.seconds:.0f} s each in {getattr(args, 'load_rounds', 1)} rounds "
          f"(each slice after "
          f"{WARMUP_SECONDS:.0f} s warm-up); "
          f"gunicorn gthread {args.workers} workers x {args.threads} threads; {os.cpu_count()} CPUs shared "
          f"with the load generator")
    print(f"{'endpoint':36} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'x no-op':>8} {'goal':>8} "
          f"{'client CPU':>10} {'server CPU':>10}  verdict")
    ok = True
    for result in results:
        ratio = result.rate / noop if noop else float("nan")
        target = result.endpoint.target
        verdict = "ok"
        if result.unexpected:
            verdict = "UNEXPECTED " + ", ".join(f"{k}: {v}" for k, v in result.unexpected.most_common())
        elif result.endpoint.subjects is not None and result.endpoint.subjects.exhausted:
            verdict = "RAN OUT OF SUBJECTS (give --subjects more)"
        elif target is not None and not ratio >= target:
            verdict = "GOAL MISSED"
        ok = ok and verdict == "ok"
        server_cpu = "n/a" if result.server_cpu is None else f"{result.server_cpu:.0%}"
        print(f"{result.endpoint.name:36} {result.rate:8.0f} {result.latency_ms(0.5):7.1f} {result.latency_ms(0.99):7.1f} "
              f"{ratio:7.2f}x {'>= ' + format(target, '.2f') + 'x' if target else '':>8} "
              f"{result.client_cpu:10.0%} {server_cpu:>10}  {verdict}")
        if result.sample:
            print(f"    first unexpected body: {result.sample}")
    return ok


def merged(slices: list[Result]) -> Result:
    """One endpoint's result over all its slices (their CPU shares averaged by time)."""
    total = Result(slices[0].endpoint, sum(r.seconds for r in slices))
    for part in slices:
        total.latencies.extend(part.latencies)
        total.unexpected.update(part.unexpected)
        total.answered += part.answered
        total.sample = total.sample or part.sample
        total.client_cpu += part.client_cpu * part.seconds / total.seconds
    cpus = [r.server_cpu for r in slices]
    total.server_cpu = None if None in cpus else sum(c * r.seconds for c, r in zip(cpus, slices, strict=True)) / total.seconds
    return total


def serve_and_load(env: dict[str, str], endpoints: list, args, db_name: str) -> list[Result]:
    """Start gunicorn on a free port with ``env``, put each endpoint under ``args``' load in turn,
    and stop it again (also on failure or Ctrl-C: SIGTERM unwinds through ``finally``). gunicorn's
    log is shown when something fails."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    port = free_port()
    with tempfile.TemporaryFile(mode="w+") as log:
        server = start_server(env, port, args.workers, args.threads, log)
        try:
            wait_ready(server, port)
            print(f"gunicorn on http://{HOST}:{port}/ (pid {server.pid}), database {db_name}")
            # In rounds, each endpoint a slice of each: a change in what else this machine runs
            # then weighs on every endpoint alike, instead of on whichever was measured then.
            # (``load_rounds``: bench/draw.py and bench/clubs.py, whose --rounds is another thing, take one.)
            slices = getattr(args, "load_rounds", 1)
            rounds = [[load(e, port, args.connections, args.seconds / slices, server) for e in endpoints]
                      for _ in range(slices)]
            return [merged(slices) for slices in zip(*rounds, strict=True)]
        except BaseException:
            log.seek(0)
            sys.stderr.write("gunicorn's log:\n" + log.read()[-4000:])
            raise
        finally:
            stop_server(server)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="measured seconds per endpoint (at most 60)")
    parser.add_argument("--rounds", dest="load_rounds", type=int, default=3,
                        help="rounds over the endpoints, each measuring every endpoint for seconds/rounds (1 to 10)")
    parser.add_argument("--connections", type=int, default=0,
                        help="concurrent keep-alive connections (at most 64; by default workers x threads)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--db", default=DB_NAME, help="the bench's PostgreSQL database (made if missing)")
    parser.add_argument("--redis-db", type=int, default=0, help="the Redis database of the cache and the broker")
    parser.add_argument("--fresh", action="store_true",
                        help="drop the bench database and make it anew (each run adds its subjects to it)")
    parser.add_argument("--subjects", type=int, default=4000,
                        help="matches made for each write endpoint: one per request (at most 50,000)")
    args = parser.parse_args()
    args.connections = args.connections or args.workers * args.threads
    if not (0 < args.seconds <= 60 and 0 < args.connections <= 64 and 0 < args.workers <= 16 and 0 < args.threads <= 64
            and 0 <= args.redis_db <= 15 and 0 < args.subjects <= 50_000 and 1 <= args.load_rounds <= 10):
        parser.error("keep --seconds in (0, 60], --connections in 1..64, --workers in 1..16, --threads in 1..64, "
                     "--redis-db in 0..15, --subjects in 1..50000, --rounds in 1..10")
    if not args.db.replace("_", "").isalnum():
        parser.error("--db is a plain database name (letters, digits and _)")
    prefix = f"crawford-bench-{os.getpid()}-{secrets.token_hex(4)}-"
    env = bench_env(args.db, args.redis_db, prefix)
    try:
        subjects = prepare(env, args.db, args.subjects, args.fresh)
        kinds = endpoints(subjects)
        results = serve_and_load(env, kinds, args, args.db)
    finally:
        forget_queues(args.redis_db, prefix)
    ok = report(results, args)
    used = {"report": results[3].answered, "confirm": results[4].answered}
    seen = writes_seen(env, subjects, used)
    for kind, state in (("report", "reported"), ("confirm", "confirmed")):
        verdict = "ok" if seen[state] == used[kind] else "MISMATCH"
        ok = ok and verdict == "ok"
        print(f"{kind}: {used[kind]} answered 200, {seen[state]} of those matches {state} as reported: {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

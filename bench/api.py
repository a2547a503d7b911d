"""API benchmark: requests per second of the match API, each against a no-op endpoint of the same
server measured in the same run.

    .venv/bin/python bench/api.py [--seconds 5] [--connections 8] [--workers 2] [--threads 4]

Everything runs on loopback (127.0.0.1) and is bounded in time:
1. the PostgreSQL database ``crawford_bench`` is created if missing (``createdb``), migrated and
   given the demo data (``manage.py demo_data``, idempotent);
2. gunicorn starts (gthread workers) on a free port with ``bench/wsgi_bench.py``: the product's
   settings with DEBUG off, plus ``/bench/noop/`` (``bench/noop.py``), which the product never has;
3. each endpoint gets one warm-up second, then ``--seconds`` of load from ``--connections``
   keep-alive connections (threads + http.client); only responses with the expected status count;
4. it prints, per endpoint, requests/second, latency, the ratio to the no-op and the target, and
   stops gunicorn, also when something fails or on Ctrl-C. The exit status is 1 when an endpoint
   answered with an unexpected status or missed its target.

The report load is legitimate: the player who reported the demo's "reported" match repeats that
report (same final score, no logs). The service takes the match's row lock, reads its reports,
finds the report identical and changes nothing, so every request walks the whole locked path and
the match stays "reported".

Server and load generator share this machine's CPUs; the load generator's own CPU use is printed
next to each figure, because on a small machine it takes CPU from the server and so lowers the
no-op's rate more than the others' (making the ratios look better than on separate machines).
"""

from __future__ import annotations

import argparse
import http.client
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

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
DB_NAME = "crawford_bench"
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
WARMUP_SECONDS = 1.0
REQUEST_TIMEOUT = 10.0
SETUP_TIMEOUT = 300
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0

# Finds the benchmark's subjects in the demo data and prints them as one JSON line: the confirmed
# match with games of median size (detail), and the pending report of the "reported" match with
# an API token of its reporter (report).
SETUP_SCRIPT = """
import json
from django.db.models import Count
from rest_framework.authtoken.models import Token
from matches.models import Match, Report
sizes = list(Match.objects.filter(status="confirmed").annotate(n=Count("games")).filter(n__gt=0)
             .order_by("n", "pk").values_list("pk", "n"))
detail_id, detail_games = sizes[len(sizes) // 2]
pending = (Report.objects.filter(status="pending", side__isnull=False, match__status="reported")
           .select_related("reporter").order_by("pk").first())
token, _ = Token.objects.get_or_create(user=pending.reporter)
print(json.dumps({"detail_id": detail_id, "detail_games": detail_games, "report_id": pending.match_id,
                  "score": [pending.score0, pending.score1], "reporter": pending.reporter.username,
                  "token": token.key, "state": STATE(pending.match_id)}))
"""
# The reported match's status and reports, before and after the load: the same if the load only
# repeated an identical report.
STATE_SCRIPT = """
def STATE(match_id):
    from matches.models import Match
    match = Match.objects.get(pk=match_id)
    return [match.status, list(match.reports.order_by("pk").values_list("pk", "status", "score0", "score1"))]
"""


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    expected: frozenset[int]
    target: float | None = None  # the least acceptable ratio to the no-op
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Result:
    endpoint: Endpoint
    seconds: float
    latencies: list[float] = field(default_factory=list)
    unexpected: Counter = field(default_factory=Counter)
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


def bench_env() -> dict[str, str]:
    """The environment of every child process: the bench database and production-like settings."""
    env = dict(os.environ)
    # No broker: the repeated report dispatches no task anyway, and the bench needs no Redis.
    env.pop("REDIS_URL", None)
    env.update({
        "DATABASE_URL": DATABASE_URL,
        "CONN_MAX_AGE": "60",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(48),
        "DJANGO_ALLOWED_HOSTS": HOST,
        # Plain HTTP on loopback: with DEBUG off every request would otherwise be redirected.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        # The load is one client's, far above any real client's rate: the throttles would answer
        # 429 to what is measured here (they are tested in tests/test_throttling.py).
        **{f"CRAWFORD_THROTTLE_{scope}": "100000000/minute"
           for scope in ("ANON", "USER", "REPORTS", "DISPUTES", "UPLOADS")},
    })
    return env


def run(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=SETUP_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])}... failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def prepare(env: dict[str, str]) -> dict:
    """Create, migrate and fill the bench database; return the benchmark's subjects."""
    exists = run(["psql", "-h", HOST, "-U", "postgres", "-d", "postgres", "-tAc",
                  f"SELECT 1 FROM pg_database WHERE datname = '{DB_NAME}'"], env)
    if exists.strip() != "1":
        run(["createdb", "-h", HOST, "-U", "postgres", DB_NAME], env)
    manage = [sys.executable, "manage.py"]
    run([*manage, "migrate", "--noinput", "-v", "0"], env)
    # The demo's counts (its first line after any notes), not the logins it prints last.
    print(next(line for line in run([*manage, "demo_data"], env).splitlines() if " matches (" in line))
    out = run([*manage, "shell", "-v", "0", "-c", STATE_SCRIPT + SETUP_SCRIPT], env)
    return json.loads(out.strip().splitlines()[-1])


def reported_state(env: dict[str, str], match_id: int) -> list:
    script = STATE_SCRIPT + f"import json\nprint(json.dumps(STATE({match_id})))"
    out = run([sys.executable, "manage.py", "shell", "-v", "0", "-c", script], env)
    return json.loads(out.strip().splitlines()[-1])


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


def call(conn: http.client.HTTPConnection, endpoint: Endpoint) -> tuple[int, bytes]:
    conn.request(endpoint.method, endpoint.path, body=endpoint.body, headers=endpoint.headers)
    response = conn.getresponse()
    return response.status, response.read()


def load(endpoint: Endpoint, port: int, connections: int, seconds: float, server: subprocess.Popen) -> Result:
    """``connections`` keep-alive connections send requests back to back for a warm-up second and
    then ``seconds``; the requests that complete in the measured window are counted."""
    start = time.perf_counter()
    measure_from, stop_at = start + WARMUP_SECONDS, start + WARMUP_SECONDS + seconds
    result = Result(endpoint, seconds)
    lock = threading.Lock()

    def client() -> None:
        latencies, unexpected, sample = [], Counter(), ""
        conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        while (sent := time.perf_counter()) < stop_at:
            try:
                status, body = call(conn, endpoint)
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
                unexpected[type(error).__name__] += 1
                time.sleep(0.01)
                continue
            done = time.perf_counter()
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
            result.sample = result.sample or sample

    threads = [threading.Thread(target=client, daemon=True) for _ in range(connections)]
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
    auth = {"Authorization": f"Token {subjects['token']}", "Content-Type": "application/json"}
    body = json.dumps({"score": subjects["score"]}).encode()
    return [
        Endpoint("no-op", "GET", "/bench/noop/", frozenset({204})),
        Endpoint("match list", "GET", "/api/v1/matches/", frozenset({200})),
        Endpoint(f"match detail ({subjects['detail_games']} games)", "GET", f"/api/v1/matches/{subjects['detail_id']}/",
                 frozenset({200}), target=0.25),
        Endpoint(f"report (repeat, as {subjects['reporter']})", "POST", f"/api/v1/matches/{subjects['report_id']}/report/",
                 frozenset({200}), target=0.10, body=body, headers=auth),
    ]


def report(results: list[Result], args) -> bool:
    """Print the table; return True when every endpoint answered as expected and met its target."""
    noop = results[0].rate
    print(f"\n{args.connections} connections, {args.seconds:.0f} s each after {WARMUP_SECONDS:.0f} s warm-up; "
          f"gunicorn gthread {args.workers} workers x {args.threads} threads; {os.cpu_count()} CPUs shared "
          f"with the load generator")
    print(f"{'endpoint':36} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'x no-op':>8} {'target':>8} "
          f"{'client CPU':>10} {'server CPU':>10}  verdict")
    ok = True
    for result in results:
        ratio = result.rate / noop if noop else float("nan")
        target = result.endpoint.target
        verdict = "ok"
        if result.unexpected:
            verdict = "UNEXPECTED " + ", ".join(f"{k}: {v}" for k, v in result.unexpected.most_common())
        elif target is not None and not ratio >= target:
            verdict = "BELOW TARGET"
        ok = ok and verdict == "ok"
        server_cpu = "n/a" if result.server_cpu is None else f"{result.server_cpu:.0%}"
        print(f"{result.endpoint.name:36} {result.rate:8.0f} {result.latency_ms(0.5):7.1f} {result.latency_ms(0.99):7.1f} "
              f"{ratio:7.2f}x {'>= ' + format(target, '.2f') + 'x' if target else '':>8} "
              f"{result.client_cpu:10.0%} {server_cpu:>10}  {verdict}")
        if result.sample:
            print(f"    first unexpected body: {result.sample}")
    return ok


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
            return [load(e, port, args.connections, args.seconds, server) for e in endpoints]
        except BaseException:
            log.seek(0)
            sys.stderr.write("gunicorn's log:\n" + log.read()[-4000:])
            raise
        finally:
            stop_server(server)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per endpoint (at most 60)")
    parser.add_argument("--connections", type=int, default=8, help="concurrent keep-alive connections (at most 64)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    if not (0 < args.seconds <= 60 and 0 < args.connections <= 64 and 0 < args.workers <= 16 and 0 < args.threads <= 64):
        parser.error("keep --seconds in (0, 60], --connections in 1..64, --workers in 1..16, --threads in 1..64")
    env = bench_env()
    subjects = prepare(env)
    results = serve_and_load(env, endpoints(subjects), args, DB_NAME)
    ok = report(results, args)
    after = reported_state(env, subjects["report_id"])
    if after != subjects["state"]:
        print(f"the report load changed match {subjects['report_id']}: {subjects['state']} -> {after}")
        return 1
    print(f"match {subjects['report_id']} after the report load: {after[0]}, its {len(after[1])} report(s) unchanged")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Analysis workers benchmark: how the analysis of real matches scales from one Celery
worker process of the ``analysis`` queue to two.

    .venv/bin/python bench/analysis_workers.py [--matches 23] [--plies 0] [--db crawford_bench_analysis]
                                               [--redis-db 6] [--fresh] [--timeout 900]

Everything runs on loopback and through the product's own paths:
1. the PostgreSQL database ``--db`` is created if missing (``--fresh``: dropped first) and migrated;
   the first ``--matches`` real match files of ../shared/data/mat (the edge cases left out) are
   imported through the import services (checked, every name mapped to a guest, written): a file
   imported by an earlier run is found as its match (the import's duplicate), so runs reuse them;
2. for 1 and then 2 worker processes (``celery -A config worker -Q <prefix>analysis --pool=solo``
   each, the production shape's command, on queues of this run only, removed at the end): the
   workers are started and waited for, then every match's analysis is asked for at ``--plies``
   (the longest matches first)
   through ``analysis.services.match_analysis_request`` (its task written in the outbox and sent
   to Redis after the commit), and the time from the first request to the last analysis done is
   measured by polling the rows;
3. it prints the decisions analysed, the time and decisions per second with each number of
   workers and the ratio, next to the goal (two workers at least 1.8 times as fast as one), and
   stops the workers, also on failure or Ctrl-C.
Run no test suite on the same Redis database meanwhile: its fixtures clear the cache, which
empties that database, the bench's queued messages with it (they would wait for beat's relay).
The exit status is 1 when an analysis failed, did not finish within ``--timeout`` seconds, or the
ratio misses its goal. Two workers need two free cores: on a machine whose cores others are busy
with, the ratio shows that too (the CPU time the workers used is printed beside it).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
MAT_DIR = ROOT.parent.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
GOAL = 1.8
HOST = "127.0.0.1"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=23, help="how many real files (23: every one but the edge cases)")
    parser.add_argument("--plies", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--db", default="crawford_bench_analysis")
    parser.add_argument("--redis-db", type=int, default=6)
    parser.add_argument("--fresh", action="store_true", help="drop and make the database anew")
    parser.add_argument("--timeout", type=float, default=900.0)
    return parser.parse_args()


def environment(args) -> dict[str, str]:
    prefix = f"crawford-bench-analysis-{os.getpid()}-{uuid.uuid4().hex[:8]}-"
    return {**os.environ, "DATABASE_URL": f"postgres://postgres@{HOST}:5432/{args.db}",
            "REDIS_URL": f"redis://{HOST}:6379/{args.redis_db}", "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "true", "CONN_MAX_AGE": "0", "CRAWFORD_QUEUE_PREFIX": prefix,
            "CRAWFORD_ANALYSIS_PLIES": str(args.plies), "DJANGO_LOG_LEVEL": "WARNING",
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}


def database(args, env) -> None:
    if args.fresh:
        subprocess.run(["dropdb", "-h", HOST, "-U", "postgres", "--if-exists", args.db], check=True)
    exists = subprocess.run(["psql", "-h", HOST, "-U", "postgres", "-tAc",
                             f"SELECT 1 FROM pg_database WHERE datname = '{args.db}'"], capture_output=True, text=True)
    if exists.stdout.strip() != "1":
        subprocess.run(["createdb", "-h", HOST, "-U", "postgres", args.db], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)


def matches_imported(count: int) -> list[int]:
    """The ids of the matches of the first ``count`` real files, imported through the services
    (or found imported by an earlier run)."""
    from accounts.models import User
    from matches.models import Game, ImportFile, ImportJob
    from matches.services.imports.jobs import import_job_run
    from matches.services.imports.names import import_job_map
    from matches.services.imports.upload import import_job_create

    names = sorted(path.name for path in MAT_DIR.glob("*.mat") if not path.name.startswith("edge_"))[:count]
    owner, _ = User.objects.get_or_create(username="bench-analysis", defaults={"password": "!"})
    job = import_job_run(job_id=import_job_create(owner=owner, files=[(name, (MAT_DIR / name).read_bytes())
                                                                      for name in names], dispatch=False).pk)
    if job.status == ImportJob.Status.MAPPING:
        import_job_map(job_id=job.pk, user=owner, mapping={entry["name"]: "guest" for entry in job.names},
                       dispatch=False)
        job = import_job_run(job_id=job.pk)
    ids = [pk for pk in ImportFile.objects.filter(job=job).order_by("pk").values_list("match_id", flat=True) if pk]
    if len(ids) < len(names):
        failed = list(ImportFile.objects.filter(job=job, match__isnull=True).values_list("name", "status"))
        print(f"only {len(ids)} of {len(names)} files imported: {failed}")
    # The longest matches first (the most actions): the workers' last tasks are short ones, so the
    # time measured is the workers' throughput, not the one long match left running alone.
    sizes = {pk: 0 for pk in ids}
    for match_id, log in Game.objects.filter(match_id__in=ids).values_list("match_id", "log"):
        sizes[match_id] += len(log)
    return sorted(ids, key=lambda pk: (-sizes[pk], pk))


def start_workers(count: int, env: dict[str, str], directory: Path) -> list[tuple[subprocess.Popen, Path]]:
    queue = env["CRAWFORD_QUEUE_PREFIX"] + "analysis"
    workers = []
    for index in range(count):
        log = directory / f"worker-{count}-{index}.log"
        name = f"{queue}-{count}-{index}"
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue, "-n", f"{name}@%h",
                 "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        workers.append((process, log))
        deadline = time.monotonic() + 60
        while f"{name}@" not in log.read_text(errors="replace") or " ready." not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"a worker did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.1)
    return workers


def stop_workers(workers) -> None:
    for process, _log in workers:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process, _log in workers:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def children_cpu(workers) -> float:
    total = 0.0
    for process, _log in workers:
        try:
            with open(f"/proc/{process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def one_round(ids: list[int], plies: int, workers: int, env, directory: Path, timeout: float) -> dict:
    from django.db import close_old_connections

    from analysis.models import MatchAnalysis
    from analysis.services import match_analysis_request

    started = start_workers(workers, env, directory)
    try:
        begin = time.monotonic()
        generations = {match_id: match_analysis_request(match_id, actor=None, plies=plies).generation for match_id in ids}
        while True:
            close_old_connections()
            rows = list(MatchAnalysis.objects.filter(pk__in=ids).values_list("pk", "generation", "status", "total",
                                                                             "failure"))
            mine = [row for row in rows if row[1] == generations[row[0]]]
            failed = [row for row in mine if row[2] == "failed"]
            if failed:
                raise SystemExit(f"analyses failed: {failed}")
            if len(mine) == len(ids) and all(row[2] == "done" for row in mine):
                seconds = time.monotonic() - begin
                break
            if time.monotonic() - begin > timeout:
                raise SystemExit(f"not done after {timeout} s: {[row[:3] for row in mine if row[2] != 'done']}")
            time.sleep(0.1)
        cpu = children_cpu(started)
    finally:
        stop_workers(started)
    decisions = sum(row[3] for row in mine)
    return {"workers": workers, "seconds": seconds, "decisions": decisions, "per_second": decisions / seconds,
            "cpu": cpu}


def main() -> int:
    args = parse_args()
    env = environment(args)
    database(args, env)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    ids = matches_imported(args.matches)
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        with tempfile.TemporaryDirectory() as directory:
            # The imports queued analyses of their own (matches.hooks): forget them, measure ours.
            for key in client.scan_iter(f"*{settings.QUEUE_PREFIX}*"):
                client.delete(key)
            figures = []
            for workers in (1, 2):
                figures.append(one_round(ids, args.plies, workers, env, Path(directory), args.timeout))
    finally:
        for key in client.scan_iter(f"*{settings.QUEUE_PREFIX}*"):
            client.delete(key)
    print(f"analysis of {len(ids)} real matches at {args.plies}-ply through the service and the analysis queue "
          f"({os.cpu_count()} CPUs here, load average {os.getloadavg()[0]:.1f}):")
    for row in figures:
        print(f"  {row['workers']} worker(s): {row['decisions']} decisions in {row['seconds']:.1f} s, "
              f"{row['per_second']:.0f} decisions/s (workers' CPU {row['cpu']:.1f} s: "
              f"{row['decisions'] / max(row['cpu'], 1e-9):.0f} decisions per CPU second)")
    ratio = figures[1]["per_second"] / figures[0]["per_second"]
    verdict = "ok" if ratio >= GOAL else "MISSED"
    print(f"  2 workers / 1 worker: {ratio:.2f}x (goal >= {GOAL}x: {verdict}); the workers had "
          f"{figures[0]['cpu'] / figures[0]['seconds']:.2f} and {figures[1]['cpu'] / figures[1]['seconds']:.2f} "
          f"of a CPU on average")
    # What two free cores would give: the CPU each decision costs with two workers against one.
    print(f"  the work per decision with 2 workers, against 1: {figures[1]['cpu'] / max(figures[0]['cpu'], 1e-9):.2f}x "
          f"(1.00: two free cores would make it {2 * figures[0]['cpu'] / max(figures[1]['cpu'], 1e-9):.2f}x as fast)")
    return 0 if ratio >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())

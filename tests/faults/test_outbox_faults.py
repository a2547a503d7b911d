"""Nothing lost when Redis, a worker or PostgreSQL fails, on the production
shape: gunicorn with DEBUG off, Celery workers and beat, a PostgreSQL and a Redis of the tests' own,
stopped, killed and started under them (tests/faults/stack.py).

- Redis stopped while results are reported, confirmed and overridden and an import is started,
  through the API and the pages: every request is answered at once, the tasks wait in the outbox;
  Redis back, every email and rating is delivered and the import completes, and nothing twice.
- The imports worker killed (kill -9) mid-import: a new worker completes the import, each file
  processed once, no match twice.
- PostgreSQL restarted under reads and writes: errors only while it is down, each a 503 with
  Retry-After, and no half-written change (the invariants of tests/faults/scenario.py).

Before the outbox, the first failed at once (a ``.delay()`` in ``on_commit`` raised with Redis
down: 500s, and the emails of committed results were lost), and the second left the job running
for an hour (Redis's visibility timeout). Each test prints its figures (``pytest -s``) and appends
them to the file CRAWFORD_FAULT_FIGURES names, when set.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from tests.faults.scenario import (
    PASSWORD,
    Log,
    emails_to,
    figures_record,
    invariants_broken,
    make,
    mat_file,
    mat_names,
    new_tag,
    outbox_top,
    page_post,
    poll,
)

pytestmark = pytest.mark.slow

NOTIFY = "matches.tasks.match_notify_task"
RATE = "matches.tasks.match_rating_apply_task"
IMPORT = "matches.tasks_imports.import_job_run_task"
CONFIRMED = "Match result confirmed"
PLEASE_CONFIRM = "Please confirm the result of your match"


def token_of(stack, log: Log, username: str) -> str:
    response = log.call("api token", lambda: stack.post("/api/v1/auth/token/",
                                                        json={"username": username, "password": PASSWORD}))
    assert response is not None and response.status_code == 200, log.unexpected()
    return response.json()["token"]


def auth(token: str) -> dict:
    return {"Authorization": f"Token {token}"}


def outbox_rows(stack, top: int) -> list[tuple]:
    """The scenario's outbox rows: (id, task, args, sent, done, attempts)."""
    return stack.sql("SELECT id, task, args, sent_at IS NOT NULL, done_at IS NOT NULL, attempts FROM core_outboxtask "
                     "WHERE id > %s ORDER BY id", top)


def ratings_of(stack, match_ids: list[int]) -> Counter:
    return Counter(match_id for (match_id,) in stack.sql(
        "SELECT match_id FROM matches_ratingchange WHERE match_id = ANY(%s)", match_ids))


# --- Redis down -------------------------------------------------------------------------------------


def test_with_redis_down_results_and_an_import_are_taken_and_every_task_is_delivered_once_it_is_back(stack):
    tag = new_tag()
    made = make(stack, tag, people=["ann", "ben", "cat", "dan", "eve"], matches=[
        *[("played", "ann", "ben", 3)] * 4,      # ann reports (API), ben confirms (page): rated
        *[("waiting", "ann", "cat", 3)] * 2,     # ann reports (page): cat is asked to confirm
        ("friendly", "organiser", "dan/eve", 3),  # the organiser's result (API): neither consented, not rated
    ])
    users, matches = made["users"], made["matches"]
    played, waiting, [friendly] = matches["played"], matches["waiting"], matches["friendly"]
    import_names = mat_names()[8:11]
    files = [("files", (name, mat_file(name, tag), "application/octet-stream")) for name in import_names]
    top = outbox_top(stack)
    # Production: the workers and beat run throughout, and Redis fails under them.
    # A row sent and not done is sent again after 15 s here (its tasks take a second): what a worker
    # held when Redis's loss took it down goes out again within the scenario's wait, where
    # production waits past the longest time limit.
    resend = {"CRAWFORD_OUTBOX_RESEND_SECONDS": "15"}
    worker = stack.worker(queues="quick,imports", concurrency=2, env=resend)
    beat = stack.beat()

    stack.redis.stop()
    down = time.monotonic()
    log = Log()
    ann, organiser = token_of(stack, log, users["ann"]), token_of(stack, log, "organiser")
    ann_pages, ben_pages = stack.browser(), stack.browser()
    log.call("sign in", lambda: ann_pages.sign_in(users["ann"], PASSWORD), expected=302)
    log.call("sign in", lambda: ben_pages.sign_in(users["ben"], PASSWORD), expected=302)
    for match_id in played:
        log.call("api report", lambda m=match_id: stack.post(f"/api/v1/matches/{m}/report/", json={"score": [3, 0]},
                                                             headers=auth(ann)))
        page_post(log, ben_pages, "page confirm", f"/matches/{match_id}/", f"/matches/{match_id}/confirm/")
        log.call("api match", lambda m=match_id: stack.get(f"/api/v1/matches/{m}/", headers=auth(ann)))
    for match_id in waiting:
        page_post(log, ann_pages, "page report", f"/matches/{match_id}/", f"/matches/{match_id}/report/",
                  {"report-score0": "3", "report-score1": "1", "report-statement": ""})
    log.call("api override", lambda: stack.post(f"/api/v1/matches/{friendly}/override/", json={"score": [1, 3]},
                                                headers=auth(organiser)))
    started = page_post(log, ann_pages, "page import", "/imports/", "/imports/", files=files)
    job_id = int(started.headers["Location"].rstrip("/").rsplit("/", 1)[1]) if started is not None else None
    log.call("page import progress", lambda: ann_pages.get(f"/imports/{job_id}/"))
    health = log.call("health", lambda: stack.get("/health/"))
    during = time.monotonic() - down

    assert not log.unexpected(), log.unexpected()
    assert "redis" in health.json()["degraded"]
    rows = outbox_rows(stack, top)
    assert not [row for row in rows if row[3] or row[4]], "nothing is sent while Redis is down"
    waiting_tasks = Counter(task for _, task, *_ in rows)
    # One email task per change of state (4 reported + 4 confirmed + 2 reported + 1 confirmed),
    # a rating per confirmed rated match, the import.
    assert waiting_tasks == {NOTIFY: 11, RATE: 5, IMPORT: 1}, waiting_tasks
    assert health.json()["outbox"]["unsent"] >= 17
    assert emails_to(stack, tag) == []

    stack.redis.start()
    up = time.monotonic()
    # The imported matches' analyses go to a worker of their own queue, as in production
    # (docs/production.md, "Production shape"); it starts once Redis is back, so the scenario's worker under the
    # fault is the one it has always been.
    stack.worker(queues="analysis", name="analysis")
    expected_emails = sorted(
        [(f"ann-{tag}@example.org", CONFIRMED)] * 4 + [(f"ben-{tag}@example.org", CONFIRMED)] * 4
        + [(f"cat-{tag}@example.org", PLEASE_CONFIRM)] * 2
        + [(f"dan-{tag}@example.org", CONFIRMED), (f"eve-{tag}@example.org", CONFIRMED)])
    reached: dict[str, float] = {}
    supervised = {"worker": worker, "restarts": 0}

    def supervise() -> None:
        # As the production shape's supervisor does (systemd, Restart=always): a worker that Redis's loss took
        # down (kombu fails in the ack of a message in flight on the lost connection) starts again.
        if not supervised["worker"].alive:
            supervised["restarts"] += 1
            supervised["worker"] = stack.worker(queues="quick,imports", concurrency=2, env=resend,
                                                name=f"worker-again{supervised['restarts']}")

    def delivered() -> bool:
        supervise()
        state = {
            "emails": emails_to(stack, tag) == expected_emails,
            "ratings": ratings_of(stack, [*played, friendly]) == Counter({m: 2 for m in played}),
            "import": stack.sql("SELECT status FROM matches_importjob WHERE id = %s", job_id) == [("done",)],
        }
        if stack.sql("SELECT status FROM matches_importjob WHERE id = %s", job_id) == [("mapping",)]:
            # The files are checked: ann says who the players are (new guests), and it goes on.
            job = stack.get(f"/api/v1/imports/{job_id}/", headers=auth(ann)).json()
            stack.post(f"/api/v1/imports/{job_id}/mapping/", headers=auth(ann),
                       json={"mapping": {entry["name"]: "guest" for entry in job["names"]}})
        for what, done in state.items():
            if done:
                reached.setdefault(what, time.monotonic() - up)
        return all(state.values())

    def explain() -> str:
        return (f"emails {emails_to(stack, tag)}\nratings {ratings_of(stack, played)}\nrows {outbox_rows(stack, top)}\n"
                f"worker:\n{supervised['worker'].log()[-3000:]}\nbeat:\n{beat.log()[-2000:]}")

    poll("every email, rating and the import delivered after Redis returned", delivered, timeout=90, explain=explain)
    last_delivered = time.monotonic() - up
    poll("every outbox row of the scenario done",
         lambda: all(row[4] for row in outbox_rows(stack, top)), timeout=30, explain=explain)
    # A few relay and sweeper periods more: nothing is delivered twice.
    time.sleep(4)
    assert emails_to(stack, tag) == expected_emails
    assert ratings_of(stack, [*played, friendly]) == Counter({m: 2 for m in played})
    files_state = stack.sql("SELECT status, count(*) FROM matches_importfile WHERE job_id = %s GROUP BY status", job_id)
    assert files_state == [("imported", 3)], files_state
    assert stack.sql("SELECT done, total FROM matches_importjob WHERE id = %s", job_id) == [(3, 3)]
    assert beat.alive and supervised["worker"].alive
    assert not invariants_broken(stack), invariants_broken(stack)

    rows = outbox_rows(stack, top)
    # Each imported match written once Redis was back is analysed once, on its own queue.
    assert Counter(task for _, task, *_ in rows)["analysis.tasks.match_analysis_task"] == 3
    figures_record("redis_down", {
        "requests_during_fault": len(log.answers), "answers": log.statuses(), **log.latencies(),
        "fault_seconds": round(during, 1), "outbox_rows_waiting": dict(waiting_tasks),
        "seconds_to_last_delivery": round(last_delivered, 1),
        "seconds_to": {what: round(seconds, 1) for what, seconds in reached.items()},
        "emails_delivered": len(expected_emails), "rating_changes": 2 * len(played), "import_files": 3,
        "tasks_delivered": len(rows), "sends": sum(row[5] for row in rows),
        "worker_restarts": supervised["restarts"],
    })


# --- a worker killed mid-import ------------------------------------------------------------------------


def test_an_import_whose_worker_is_killed_is_completed_by_a_new_worker_each_file_once(stack):
    tag = new_tag()
    users = make(stack, tag, people=["importer"], matches=[])["users"]
    log = Log()
    token = token_of(stack, log, users["importer"])
    # The long matches first: the kill comes while files remain.
    names = sorted(mat_names(), key=lambda name: ("17pt" not in name and "13pt" not in name, name))
    files = [("files", (name, mat_file(name, tag), "application/octet-stream")) for name in names]
    stack.worker(queues="quick", name="quick")
    stack.beat()
    first = stack.worker(queues="imports", name="imports1")

    answer = log.call("api import", lambda: stack.post("/api/v1/imports/", files=files, headers=auth(token)),
                      expected=202)
    assert answer is not None and answer.status_code == 202, log.unexpected()
    job_id = answer.json()["id"]

    def done() -> int:
        return stack.sql("SELECT done FROM matches_importjob WHERE id = %s", job_id)[0][0]

    poll("the files checked", lambda: stack.sql("SELECT status FROM matches_importjob WHERE id = %s", job_id)
         == [("mapping",)], timeout=60, explain=first.log)
    players = [entry["name"] for entry in stack.get(f"/api/v1/imports/{job_id}/", headers=auth(token)).json()["names"]]
    mapped = stack.post(f"/api/v1/imports/{job_id}/mapping/", json={"mapping": dict.fromkeys(players, "guest")},
                        headers=auth(token))
    assert mapped.status_code == 202, mapped.text[:500]
    refused = done()  # files refused or duplicates when checked
    poll("two files imported", lambda: done() >= refused + 2, timeout=60, interval=0.02, explain=first.log)
    first.kill()  # kill -9: its message stays unacknowledged in Redis for the visibility timeout (hours)
    killed_at = done()
    [(status, total)] = stack.sql("SELECT status, total FROM matches_importjob WHERE id = %s", job_id)
    assert status == "running" and killed_at < total, "the import ended before the kill: nothing was shown"

    second = stack.worker(queues="imports", name="imports2")
    restarted = time.monotonic()
    poll("the import completed by the new worker",
         lambda: stack.sql("SELECT status FROM matches_importjob WHERE id = %s", job_id) == [("done",)],
         timeout=60, explain=lambda: second.log()[-3000:])
    completed = time.monotonic() - restarted

    [(done_count, total, redispatched)] = stack.sql(
        "SELECT done, total, redispatched FROM matches_importjob WHERE id = %s", job_id)
    assert (done_count, total) == (len(names), len(names)) and redispatched >= 1
    statuses = dict(stack.sql("SELECT status, count(*) FROM matches_importfile WHERE job_id = %s GROUP BY status",
                              job_id))
    assert "pending" not in statuses and statuses.get("imported", 0) >= len(names) - 6, statuses
    # Each file processed once: one match per imported file, each audited once, none twice by its hash.
    per_file = stack.sql(
        "SELECT f.name, f.match_id, (SELECT count(*) FROM rulings_auditentry a WHERE a.action = 'match.imported' "
        "AND a.after->>'file' = f.name AND a.actor_id = j.owner_id) FROM matches_importfile f "
        "JOIN matches_importjob j ON j.id = f.job_id WHERE f.job_id = %s AND f.status = 'imported'", job_id)
    assert all(audits == 1 for _, _, audits in per_file), per_file
    assert len({match_id for _, match_id, _ in per_file}) == len(per_file)
    tagged = stack.sql("SELECT count(*), count(DISTINCT m.source_hash) FROM matches_match m "
                       "JOIN matches_side s ON s.id = m.side0_id JOIN matches_player p ON p.id = s.player_a_id "
                       "WHERE p.display_name LIKE %s", f"%.{tag}")
    assert tagged == [(len(per_file), len(per_file))], (tagged, statuses)
    assert not invariants_broken(stack), invariants_broken(stack)

    figures_record("worker_killed_mid_import", {
        "files": len(names), "done_when_killed": killed_at, "seconds_to_complete_after_new_worker": round(completed, 1),
        "redispatched": redispatched, "files_by_status": statuses, "matches": len(per_file),
    })


# --- PostgreSQL restarted under load ---------------------------------------------------------------------


class Traffic:
    """Reads and writes sent from threads until stopped, each answer kept with its times (Log)."""

    def __init__(self):
        self.log = Log()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def run(self, loop) -> None:
        thread = threading.Thread(target=loop, args=(self._stop,), daemon=True)
        self._threads.append(thread)
        thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


def test_postgres_restarted_under_load_answers_503_only_while_down_and_leaves_no_half_written_change(stack):
    tag = new_tag()
    made = make(stack, tag, people=["amy", "bea"], matches=[("pool", "amy", "bea", 1)] * 120)
    log = Log()
    amy, bea = token_of(stack, log, made["users"]["amy"]), token_of(stack, log, made["users"]["bea"])
    pool = made["matches"]["pool"]
    traffic = Traffic()
    answers = traffic.log

    def writer(stop: threading.Event) -> None:
        # A report by one side, its confirmation by the other, a match at a time; each sent again
        # after a 503, as a client told to retry does (sooner than Retry-After, to keep the load on).
        def until_answered(label: str, path: str, token: str, body: dict) -> None:
            while not stop.is_set():
                answer = answers.call(label, lambda: stack.post(path, json=body, headers=auth(token), timeout=30),
                                      expected=None)
                if answer is not None and answer.status_code != 503:
                    return
                time.sleep(0.05)

        for match_id in pool:
            until_answered("report", f"/api/v1/matches/{match_id}/report/", amy, {"score": [1, 0]})
            until_answered("confirm", f"/api/v1/matches/{match_id}/confirm/", bea, {})
            if stop.is_set():
                return

    def reader(stop: threading.Event) -> None:
        # A page too: amy's player page (the pages take no token, and a match page of the pool is
        # hidden from anyone but its players until bea's side has consented to it).
        paths = [f"/api/v1/matches/{pool[0]}/", f"/api/v1/matches/?player={made['players']['amy']}",
                 f"/players/{made['players']['amy']}/"]
        index = 0
        while not stop.is_set():
            path = paths[index % len(paths)]
            index += 1
            # As amy (the API's reads), a player of these matches: one the other side has not
            # consented to yet is hidden from anyone else (404); the reads are about PostgreSQL.
            answers.call("read", lambda p=path: stack.get(p, headers=auth(amy), timeout=30), expected=None)
            time.sleep(0.01)

    log_from = len(stack.service.process.log())
    traffic.run(writer)
    traffic.run(reader)
    poll("some results confirmed before the restart",
         lambda: sum(1 for a in answers.answers if a.label == "confirm" and a.status == 200) >= 5, timeout=30)
    stopping = time.monotonic()
    stack.postgres.stop()
    stopped = time.monotonic()
    time.sleep(2)
    starting = time.monotonic()
    stack.postgres.start()
    started = time.monotonic()

    def steady() -> bool:
        after = [a for a in answers.answers if a.sent > started]
        writes = [a for a in after if a.label != "read"]
        return len(writes) >= 10 and all(a.status == 200 for a in after[-10:])

    try:
        poll("answers of 200 again after PostgreSQL started", steady, timeout=60,
             explain=lambda: str(Counter((a.label, a.status) for a in answers.answers)))
        time.sleep(0.5)
    finally:
        traffic.stop()

    statuses = answers.statuses()
    # A write answered 503 may have committed (the answer was lost, not the change): its retry
    # then finds it done and answers 200.
    assert set(statuses) <= {200, 503}, statuses
    errors = [a for a in answers.answers if a.status != 200]
    unavailable = [a for a in errors if a.status == 503]
    assert unavailable, "requests were answered while PostgreSQL was down"
    assert all(a.response.headers.get("Retry-After") for a in unavailable)
    margin = 3.0
    outside = [(a.label, a.status, round(a.sent - stopping, 2), round(a.received - stopping, 2))
               for a in unavailable if a.received < stopping or a.sent > started + margin]
    assert not outside, f"503 outside the restart (times from the stop): {outside}"
    assert not invariants_broken(stack), invariants_broken(stack)
    # Each of the scenario's matches is in one whole state.
    states = dict(stack.sql("SELECT status, count(*) FROM matches_match WHERE id = ANY(%s) GROUP BY status", pool))
    assert set(states) <= {"scheduled", "reported", "confirmed"}, states
    # Every report was sent until answered and then confirmed: only the match in hand when the
    # traffic stopped may wait for its confirmation.
    assert states.get("reported", 0) <= 1 and states["confirmed"] >= 10, states
    reports = stack.sql("SELECT count(*) FROM matches_report WHERE match_id = ANY(%s)", pool)[0][0]
    # Nothing failed unhandled (a 500 is logged as "Internal Server Error"): the tracebacks logged on
    # purpose (a task sent whose row could not be marked sent) are the outbox's own.
    written = stack.service.process.log()[log_from:]
    assert "Internal Server Error" not in written, written[-3000:]

    figures_record("postgres_restart", {
        "requests": len(answers.answers), "answers": statuses, **answers.latencies(),
        "requests_during_fault": sum(1 for a in answers.answers if a.received >= stopping and a.sent <= started),
        "stop_seconds": round(stopped - stopping, 1), "down_seconds": round(starting - stopped, 1),
        "start_seconds": round(started - starting, 1),
        "errors_after_start": sum(1 for a in errors if a.sent > started),
        "first_ok_after_start_seconds": round(min((a.received for a in answers.answers
                                                   if a.sent > started and a.status == 200), default=started) - started, 2),
        "matches_by_status": states, "reports": reports,
    })

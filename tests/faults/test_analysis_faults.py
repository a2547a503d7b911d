"""The analysis queue under faults, in the production shape (tests/faults/stack.py):

- the analysis worker killed (kill -9) in the middle of an analysis: /health/ is degraded while no
  analysis worker runs, the sweeper sends the analysis again (no progress for
  ``CRAWFORD_ANALYSIS_STALL_SECONDS``), and a new worker completes every analysis within two
  minutes of its start, none twice;
- Redis restarted (it keeps nothing on disk) with analyses queued and no analysis worker: the
  relay, which asks Redis how long it has been up, sends them again within seconds of its return,
  rather than after the queue's resend time (half an hour), and a worker completes them within
  two minutes; /health/ is degraded meanwhile.

The sweeper and the relay run every second here (FAULT_TIMINGS, and the stall time below), so that
a scenario recovers in seconds.
"""

from __future__ import annotations

import time

import pytest

from tests.faults.scenario import figures_record, make, mat_file, new_tag, poll, zip_of

pytestmark = pytest.mark.slow

#: The longest real matches first (a 17-point match takes a couple of seconds at 0-ply): the kill
#: comes while one is being analysed.
LONG = ["galaxy_17pt_match8170603.mat", "galaxy_17pt_match9102134.mat", "studio_13pt_heretik_llabba.mat",
        "studio_13pt_llabba_diablodeldados.mat"]
#: Every process of the scenario sees the same sweeper timings.
TIMINGS = {"CRAWFORD_ANALYSIS_SWEEP_SECONDS": "1", "CRAWFORD_ANALYSIS_STALL_SECONDS": "3"}


def auth(stack, username: str) -> dict:
    return {"Authorization": f"Token {stack.token(username, 'crawford-demo')}"}


def imported_matches(stack, tag: str) -> list[int]:
    """A player imports the long match files (renamed for this scenario) and maps every name to a
    guest: their matches are written, each with its analysis queued. Returns the matches' ids."""
    users = make(stack, tag, people=["importer"], matches=[])["users"]
    headers = auth(stack, users["importer"])
    archive = zip_of([(name, mat_file(name, tag)) for name in LONG])
    started = stack.post("/api/v1/imports/", files={"files": ("long.zip", archive)}, headers=headers)
    assert started.status_code == 202, started.text[:500]
    job_id = started.json()["id"]
    poll("the files checked", lambda: stack.sql("SELECT status FROM matches_importjob WHERE id = %s", job_id)
         == [("mapping",)], timeout=60)
    names = [entry["name"] for entry in stack.get(f"/api/v1/imports/{job_id}/", headers=headers).json()["names"]]
    mapped = stack.post(f"/api/v1/imports/{job_id}/mapping/", json={"mapping": dict.fromkeys(names, "guest")},
                        headers=headers)
    assert mapped.status_code == 202, mapped.text[:500]
    poll("the import done", lambda: stack.sql("SELECT status FROM matches_importjob WHERE id = %s", job_id)
         == [("done",)], timeout=90)
    ids = [row[0] for row in stack.sql("SELECT match_id FROM matches_importfile WHERE job_id = %s AND "
                                       "status = 'imported' ORDER BY id", job_id)]
    assert len(ids) == len(LONG)
    return ids


def states(stack, ids: list[int]) -> dict[int, tuple[str, int, int]]:
    rows = stack.sql("SELECT match_id, status, generation, attempt FROM analysis_matchanalysis "
                     "WHERE match_id = ANY(%s)", ids)
    return {match_id: (status, generation, attempt) for match_id, status, generation, attempt in rows}


def all_done(stack, ids: list[int]) -> bool:
    found = states(stack, ids)
    return len(found) == len(ids) and all(status == "done" for status, _g, _a in found.values())


def waiting(stack) -> int:
    """The messages in Redis's analysis queue, every priority's list of it (beat's heartbeats for it
    among them)."""
    client = stack.redis.client()
    return sum(client.llen(key) for key in client.scan_iter("analysis*") if client.type(key) == b"list")


def sends(stack, ids: list[int]) -> list[int]:
    """How many times each of the analyses' outbox rows not done was sent."""
    return [row[0] for row in stack.sql("SELECT attempts FROM core_outboxtask WHERE done_at IS NULL AND "
                                        "task = 'analysis.tasks.match_analysis_task' AND (args->>0)::int = ANY(%s)",
                                        ids)]


def health(stack) -> dict:
    answer = stack.get("/health/")
    assert answer.status_code == 200
    return answer.json()


def test_an_analysis_whose_worker_is_killed_is_completed_by_a_new_worker(stack):
    tag = new_tag()
    stack.worker(queues="quick,imports", name="quick", env=TIMINGS)
    stack.beat(env=TIMINGS)
    ids = imported_matches(stack, tag)
    assert all(status == "queued" for status, _g, _a in states(stack, ids).values())

    first = stack.worker(queues="analysis", name="analysis1", env=TIMINGS)
    poll("an analysis under way", lambda: any(status == "running" for status, _g, _a in states(stack, ids).values()),
         timeout=60, interval=0.02, explain=first.log)
    first.kill()
    killed = {match_id: state for match_id, state in states(stack, ids).items() if state[0] == "running"}
    assert killed, "no analysis was running at the kill"
    # Without an analysis worker the queue is told apart: stale, or holding work none takes.
    poll("/health/ degraded for the analysis queue", lambda: "queue:analysis" in health(stack)["degraded"],
         timeout=30)

    second = stack.worker(queues="analysis", name="analysis2", env=TIMINGS)
    restarted = time.monotonic()
    poll("every analysis done by the new worker", lambda: all_done(stack, ids), timeout=120,
         explain=lambda: second.log()[-3000:])
    completed = time.monotonic() - restarted
    after = states(stack, ids)
    for match_id in killed:
        _status, generation, attempt = after[match_id]
        assert generation == 1 and attempt >= 2  # the killed run's generation, taken over by a new run
    # Each analysis stored once: its outbox rows are all done, none given up.
    rows = stack.sql("SELECT count(*) FILTER (WHERE done_at IS NULL), count(*) FROM core_outboxtask "
                     "WHERE task = 'analysis.tasks.match_analysis_task' AND (args->>0)::int = ANY(%s)", ids)
    assert rows[0][0] == 0
    poll("/health/ ok again for the analysis queue", lambda: "queue:analysis" not in health(stack)["degraded"],
         timeout=30)
    figures_record("analysis_worker_killed", {"analyses": len(ids), "killed_mid_run": len(killed),
                                              "seconds_to_complete_after_new_worker": round(completed, 1)})
    print(f"\nanalysis worker killed mid-run: {len(ids)} analyses done {completed:.1f} s after a new worker")


def test_analyses_queued_when_redis_restarts_are_sent_again_and_completed(stack):
    tag = new_tag()
    stack.worker(queues="quick,imports", name="quick", env=TIMINGS)
    stack.beat(env=TIMINGS)
    ids = imported_matches(stack, tag)  # queued, and no analysis worker takes them
    queued = waiting(stack)
    assert queued >= len(ids) and sends(stack, ids) == [1] * len(ids)
    stack.redis.stop()  # killed: everything it held in memory is gone
    stack.redis.start()
    returned = time.monotonic()
    poll("/health/ degraded while the analyses wait", lambda: "queue:analysis" in health(stack)["degraded"],
         timeout=30)
    # The relay hears that Redis started again and sends what it lost; a quick worker that the
    # restart took down is started again, as a supervisor would.
    quick = next(process for process in stack.processes if process.name == "quick")
    if not quick.alive:
        stack.worker(queues="quick,imports", name="quick-again", env=TIMINGS)
    poll("the lost analyses sent again", lambda: sends(stack, ids) == [2] * len(ids), timeout=60,
         explain=lambda: f"sends {sends(stack, ids)}\n" + repr(stack.sql(
             "SELECT id, sent_at, now(), last_error FROM core_outboxtask WHERE done_at IS NULL")) + "\n"
         + repr(stack.redis.client().info("server")["uptime_in_seconds"]) + "\n" + "\n".join(
             f"--- {process.name} (alive: {process.alive}):\n"
             + "\n".join(line for line in process.log().splitlines() if "WARNING" in line or "ERROR" in line)[-3000:]
             for process in stack.processes))
    resent = time.monotonic() - returned
    worker = stack.worker(queues="analysis", name="analysis", env=TIMINGS)
    poll("every analysis done", lambda: all_done(stack, ids), timeout=120, explain=lambda: worker.log()[-3000:])
    completed = time.monotonic() - returned
    assert resent < 60 and completed < 120 + 30  # the worker's own start counted in too
    assert all(generation == 1 for _status, generation, _attempt in states(stack, ids).values())
    figures_record("redis_restarted_with_analyses_queued", {
        "analyses": len(ids), "queued_in_redis": queued, "seconds_to_resend": round(resent, 1),
        "seconds_to_complete": round(completed, 1)})
    print(f"\nRedis restarted with {queued} messages queued: sent again after {resent:.1f} s, "
          f"every analysis done {completed:.1f} s after Redis returned")

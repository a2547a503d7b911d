"""GET /health/: what is up, for a load balancer (core/health.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.utils.nodenames import gethostname
from django.utils import timezone

from core import health
from core.local_worker import LocalWorker
from core.models import OutboxTask, WorkerHeartbeat
from core.tasks import worker_heartbeat_task

pytestmark = pytest.mark.django_db


def beat(queue: str, seconds_ago: float) -> None:
    health.worker_heartbeat_record(queue=queue, worker="w1", now=timezone.now() - timedelta(seconds=seconds_ago))


def test_all_well_is_200_ok_with_every_part_named(client, settings, django_assert_num_queries):
    settings.HEARTBEAT_STALE_SECONDS = 120
    beat("quick", 5)
    beat("imports", 30)
    beat("analysis", 30)
    beat("beat", 10)
    # The database's SELECT 1, the heartbeats, the outbox's backlog, the analyses: one query each.
    with django_assert_num_queries(4):
        response = client.get("/health/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.json()
    assert (body["status"], body["degraded"], body["database"], body["redis"]) == ("ok", [], {"up": True}, {"up": True})
    assert set(body["queues"]) == {"quick", "imports", "analysis"}
    assert body["queues"]["quick"]["stale"] is False and 4 <= body["queues"]["quick"]["age_seconds"] < 60
    assert body["queues"]["imports"]["last_heartbeat"] is not None
    assert body["outbox"] == {"unsent": 0, "oldest_unsent_seconds": None, "sent_not_done": 0,
                              "oldest_sent_not_done_seconds": None, "given_up": 0}
    assert body["analysis"] == {"queued": 0, "running": 0, "stuck": 0, "oldest_queued_seconds": None}
    assert "sessionid" not in response.cookies


def test_it_needs_no_sign_in_and_answers_head(client):
    assert client.head("/health/").status_code == 200
    assert client.post("/health/").status_code == 405


def test_redis_unreachable_is_200_with_redis_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    for queue in (*settings.QUEUES, "beat"):
        beat(queue, 1)
    response = client.get("/health/")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "degraded" and body["degraded"] == ["redis"]
    assert body["redis"]["up"] is False and "111" in body["redis"]["error"]


def test_a_queue_without_a_recent_heartbeat_is_stale(client, settings):
    settings.HEARTBEAT_STALE_SECONDS = 120
    beat("quick", 1)
    beat("analysis", 1)
    beat("beat", 1)
    beat("imports", 600)  # its worker busy or dead for ten minutes
    body = client.get("/health/").json()
    assert body["degraded"] == ["queue:imports"] and body["queues"]["imports"]["stale"] is True
    WorkerHeartbeat.objects.filter(queue="imports").delete()  # never seen
    body = client.get("/health/").json()
    assert body["queues"]["imports"] == {"last_heartbeat": None, "age_seconds": None, "stale": True,
                                         "waiting": 0, "idle": False}


def test_it_counts_the_outbox_backlog(client, settings):
    now = timezone.now()
    for queue in (*settings.QUEUES, "beat"):
        beat(queue, 1)
    OutboxTask.objects.create(task="t", queue="quick", created_at=now - timedelta(seconds=90))
    OutboxTask.objects.create(task="t", queue="quick", created_at=now - timedelta(seconds=30))
    OutboxTask.objects.create(task="t", queue="quick", sent_at=now, attempts=1)
    OutboxTask.objects.create(task="t", queue="quick", sent_at=now, attempts=settings.OUTBOX_MAX_ATTEMPTS)
    OutboxTask.objects.create(task="t", queue="quick", sent_at=now, attempts=1, done_at=now)
    body = client.get("/health/").json()
    outbox = body["outbox"]
    assert (outbox["unsent"], outbox["sent_not_done"], outbox["given_up"]) == (2, 2, 1)
    assert 90 <= outbox["oldest_unsent_seconds"] < 120
    assert body["degraded"] == ["outbox"]  # a row the relay gave up on needs a person


@pytest.mark.parametrize(("local", "row", "overdue"), [
    (False, {"created_at": 119}, False),
    (False, {"created_at": 121}, True),  # unsent past the stale time: nothing is sending it
    (True, {"created_at": 121}, True),  # on the laptop too: no local worker is taking it
    (False, {"sent_at": 1920 + 119}, False),  # the analysis and imports queues' resend time, and more
    (False, {"sent_at": 1920 + 121}, True),  # sent, not done, and not sent again: its worker is gone
    (True, {"sent_at": 10 * 10 + 119}, False),  # a local worker takes it again within grace x attempts
    (True, {"sent_at": 10 * 10 + 121}, True),
])
def test_work_waiting_longer_than_it_should_is_degraded_with_its_age(client, settings, local, row, overdue):
    settings.LOCAL_TASKS = local
    settings.HEALTH_OUTBOX_STALE_SECONDS = 120
    settings.OUTBOX_GRACE_SECONDS, settings.OUTBOX_MAX_ATTEMPTS = 10, 10
    settings.OUTBOX_RESEND_SECONDS = {"quick": 420, "imports": 1920, "analysis": 1920}
    for queue in (*settings.QUEUES, "beat"):
        beat(queue, 1)
    now = timezone.now()
    ((field, seconds),) = row.items()
    fields = {field: now - timedelta(seconds=seconds)}
    if field == "sent_at":
        fields["attempts"] = 1
    OutboxTask.objects.create(task="t", queue="analysis", **fields)
    body = client.get("/health/").json()
    assert body["degraded"] == (["outbox"] if overdue else [])
    age = body["outbox"]["oldest_unsent_seconds" if field == "created_at" else "oldest_sent_not_done_seconds"]
    assert seconds <= age < seconds + 30


def test_an_analysis_running_without_progress_is_degraded_as_stuck(client, settings):
    from analysis.models import MatchAnalysis
    from tests.matches.factories_ratings import match_between, player

    settings.ANALYSIS_STUCK_SECONDS = 300
    for queue in (*settings.QUEUES, "beat"):
        beat(queue, 1)
    now = timezone.now()
    match = match_between(player("ann"), player("ben"), length=3)
    row = MatchAnalysis.objects.create(match=match, plies=0, status=MatchAnalysis.Status.RUNNING,
                                       requested_at=now - timedelta(seconds=400), progressed_at=now - timedelta(seconds=290))
    body = client.get("/health/").json()
    assert (body["status"], body["analysis"]["running"], body["analysis"]["stuck"]) == ("ok", 1, 0)
    MatchAnalysis.objects.filter(pk=row.pk).update(progressed_at=now - timedelta(seconds=310))
    body = client.get("/health/").json()
    assert (body["status"], body["degraded"], body["analysis"]["stuck"]) == ("degraded", ["analysis:stuck"], 1)


def test_beat_gone_silent_is_degraded_and_its_heartbeat_comes_from_its_own_job(client, settings):
    from core.tasks import beat_heartbeat_task

    settings.HEARTBEAT_STALE_SECONDS = 120
    for queue in settings.QUEUES:
        beat(queue, 1)
    body = client.get("/health/").json()  # beat never heard of
    assert body["degraded"] == ["beat"] and body["beat"]["stale"] is True
    beat_heartbeat_task.apply()
    body = client.get("/health/").json()
    assert (body["status"], body["beat"]["stale"]) == ("ok", False)
    beat("beat", 300)  # stopped five minutes ago
    assert client.get("/health/").json()["degraded"] == ["beat"]


def test_a_queue_holding_work_that_no_worker_took_for_a_minute_is_degraded_with_the_numbers(client, settings):
    import redis

    from core.outbox import queue_name

    settings.HEALTH_QUEUE_IDLE_SECONDS = 60
    for queue in (*settings.QUEUES, "beat"):
        beat(queue, 1)
    beat("analysis", 90)  # not stale yet (120 s), but a minute and a half without taking a message
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    key = queue_name("analysis")
    try:
        body = client.get("/health/").json()
        assert body["status"] == "ok" and body["queues"]["analysis"]["waiting"] == 0  # nothing waits
        broker.lpush(key, *[b"{}"] * 85)
        body = client.get("/health/").json()
        assert body["degraded"] == ["queue:analysis"]
        assert (body["queues"]["analysis"]["waiting"], body["queues"]["analysis"]["idle"]) == (85, True)
        beat("analysis", 5)  # a worker took one: busy, not gone
        assert client.get("/health/").json()["status"] == "ok"
    finally:
        broker.delete(key)


def test_the_database_down_is_503_with_retry_after(client, monkeypatch):
    monkeypatch.setattr(health, "database_up", lambda: False)
    response = client.get("/health/")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    body = response.json()
    assert (body["status"], body["degraded"], body["database"]) == ("down", ["database"], {"up": False})
    assert body["redis"] == {"up": True}


def test_the_database_check_says_down_when_the_query_fails(monkeypatch):
    class Broken:
        def __enter__(self):
            raise OSError("connection refused")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: Broken())
    assert health.database_up() is False


def test_with_no_broker_the_local_workers_queues_are_watched_as_a_brokers_are(client, settings):
    settings.LOCAL_TASKS = True
    settings.REDIS_URL = None
    body = client.get("/health/").json()
    # No local worker has run yet: every queue is stale, as it would be without Celery workers.
    assert (body["status"], body["workers"], body["redis"]) == ("degraded", "local", {"up": None})
    assert set(body["degraded"]) == {"queue:quick", "queue:imports", "queue:analysis", "beat"}
    # The quick worker runs beat's jobs, beat's heartbeat among them (manage.py outbox_worker).
    LocalWorker(settings.QUEUES, periodic=True, poll_seconds=0, max_idle_polls=1).run()
    body = client.get("/health/").json()
    assert (body["status"], body["degraded"]) == ("ok", [])
    assert {name: queue["stale"] for name, queue in body["queues"].items()} == dict.fromkeys(settings.QUEUES, False)


def test_the_heartbeat_task_records_its_queue_and_worker():
    beat("imports", 600)
    worker_heartbeat_task.apply(args=["imports"])
    [seen] = WorkerHeartbeat.objects.all()  # one row per queue, written over
    assert seen.queue == "imports" and seen.worker == gethostname()
    assert timezone.now() - seen.seen_at < timedelta(minutes=1)

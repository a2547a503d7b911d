"""GET /health/: what is up, for a load balancer (core/health.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.utils.nodenames import gethostname
from django.utils import timezone

from core import health
from core.models import OutboxTask, WorkerHeartbeat
from core.tasks import worker_heartbeat_task

pytestmark = pytest.mark.django_db


def beat(queue: str, seconds_ago: float) -> None:
    health.worker_heartbeat_record(queue=queue, worker="w1", now=timezone.now() - timedelta(seconds=seconds_ago))


def test_all_well_is_200_ok_with_every_part_named(client, settings, django_assert_max_num_queries):
    settings.HEARTBEAT_STALE_SECONDS = 120
    beat("quick", 5)
    beat("imports", 30)
    beat("analysis", 30)
    with django_assert_max_num_queries(6):
        response = client.get("/health/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.json()
    assert (body["status"], body["degraded"], body["database"], body["redis"]) == ("ok", [], {"up": True}, {"up": True})
    assert set(body["queues"]) == {"quick", "imports", "analysis"}
    assert body["queues"]["quick"]["stale"] is False and 4 <= body["queues"]["quick"]["age_seconds"] < 60
    assert body["queues"]["imports"]["last_heartbeat"] is not None
    assert body["outbox"] == {"unsent": 0, "oldest_unsent_seconds": None, "sent_not_done": 0, "given_up": 0}
    assert "sessionid" not in response.cookies


def test_it_needs_no_sign_in_and_answers_head(client):
    assert client.head("/health/").status_code == 200
    assert client.post("/health/").status_code == 405


def test_redis_unreachable_is_200_with_redis_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    beat("quick", 1)
    beat("imports", 1)
    beat("analysis", 1)
    response = client.get("/health/")
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "degraded" and body["degraded"] == ["redis"]
    assert body["redis"]["up"] is False and "111" in body["redis"]["error"]


def test_a_queue_without_a_recent_heartbeat_is_stale(client, settings):
    settings.HEARTBEAT_STALE_SECONDS = 120
    beat("quick", 1)
    beat("analysis", 1)
    beat("imports", 600)  # its worker busy or dead for ten minutes
    body = client.get("/health/").json()
    assert body["degraded"] == ["queue:imports"] and body["queues"]["imports"]["stale"] is True
    WorkerHeartbeat.objects.filter(queue="imports").delete()  # never seen
    body = client.get("/health/").json()
    assert body["queues"]["imports"] == {"last_heartbeat": None, "age_seconds": None, "stale": True}


def test_it_counts_the_outbox_backlog(client, settings):
    now = timezone.now()
    beat("quick", 1)
    beat("imports", 1)
    beat("analysis", 1)
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


def test_with_no_broker_there_are_no_queues_to_watch(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.REDIS_URL = None
    body = client.get("/health/").json()
    assert (body["status"], body["queues"], body["redis"]) == ("ok", {}, {"up": None})


def test_the_heartbeat_task_records_its_queue_and_worker():
    beat("imports", 600)
    worker_heartbeat_task.apply(args=["imports"])
    [seen] = WorkerHeartbeat.objects.all()  # one row per queue, written over
    assert seen.queue == "imports" and seen.worker == gethostname()
    assert timezone.now() - seen.seen_at < timedelta(minutes=1)

"""The dispatch after commit keeps its thread's broker connection (core/outbox.py): opening one and
declaring the queue on it cost a dozen round trips to Redis, more than the publish itself. A
connection that failed is dropped, and the next dispatch connects anew."""

from __future__ import annotations

import pytest
import redis
from django.db import transaction

from core import outbox
from core.outbox import outbox_enqueue

HEARTBEAT = "core.tasks.worker_heartbeat_task"

pytestmark = pytest.mark.django_db


@pytest.fixture
def connections_made(monkeypatch) -> list:
    """The broker connections the dispatches make (each one the kombu connection's)."""
    made: list = []
    real = outbox.broker_connection

    def counted():
        connection = real()
        made.append(connection)
        return connection

    monkeypatch.setattr(outbox, "broker_connection", counted)
    outbox._kept.broker = None
    yield made
    outbox._kept.broker = None


def dispatched(django_capture_on_commit_callbacks, count: int = 1) -> list:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        rows = [outbox_enqueue(HEARTBEAT, "quick") for _ in range(count)]
    for row in rows:
        row.refresh_from_db()
    return rows


def test_the_dispatches_of_a_thread_share_one_broker_connection(settings, connections_made,
                                                                 django_capture_on_commit_callbacks):
    queue = f"{settings.QUEUE_PREFIX}quick"
    client = redis.Redis.from_url(settings.REDIS_URL)
    before = client.llen(queue)
    rows = dispatched(django_capture_on_commit_callbacks, 2) + dispatched(django_capture_on_commit_callbacks)
    assert all(row.sent_at is not None and row.attempts == 1 for row in rows)
    assert client.llen(queue) == before + 3
    assert len(connections_made) == 1


def test_a_failed_connection_is_dropped_and_the_next_dispatch_connects_anew(monkeypatch, connections_made,
                                                                            django_capture_on_commit_callbacks):
    real_publish, broker_down = outbox.outbox_publish, []

    def publish(row, broker):
        if broker_down:
            raise ConnectionError("the broker went away")
        return real_publish(row, broker)

    monkeypatch.setattr(outbox, "outbox_publish", publish)
    [first] = dispatched(django_capture_on_commit_callbacks)
    assert first.sent_at is not None and len(connections_made) == 1
    broker_down.append(True)
    [failed] = dispatched(django_capture_on_commit_callbacks)
    assert failed.sent_at is None and "the broker went away" in failed.last_error
    assert outbox._kept.broker is None
    broker_down.clear()
    outbox.broker_forget()
    [again] = dispatched(django_capture_on_commit_callbacks)
    assert again.sent_at is not None and len(connections_made) == 2

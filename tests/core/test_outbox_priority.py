"""A task's priority (OutboxTask.priority) goes with its message: kombu's Redis transport puts a
message of priority n in its queue's list of the highest step not above n (the settings'
BROKER_PRIORITY_STEPS, the lists named with BROKER_PRIORITY_SEP), a worker takes from them in the
steps' order (the lower number first), and /health/ counts a queue's waiting messages over all its
lists. Read back from the shared Redis (this run's db), on queues of this test's own."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
import redis
from celery import current_app
from django.db import transaction
from django.utils import timezone

from core import outbox
from core.health import queue_lengths
from core.models import OutboxTask
from core.outbox import outbox_enqueue, outbox_relay, queue_name
from tests.conftest import SESSION_QUEUE_PREFIX, forget_queue

HEARTBEAT = "core.tasks.worker_heartbeat_task"

pytestmark = pytest.mark.django_db


@pytest.fixture
def queues(settings):
    """This test's own queue names (a prefix of its own), removed from Redis afterwards."""
    settings.QUEUE_PREFIX = f"{SESSION_QUEUE_PREFIX}priority-{uuid.uuid4().hex[:8]}-"
    outbox._kept.broker = None
    yield redis.Redis.from_url(settings.REDIS_URL)
    outbox._kept.broker = None
    forget_queue(settings.REDIS_URL, settings.QUEUE_PREFIX)


def lists(client, queue: str) -> dict[str, list[dict]]:
    """The messages in each of ``queue``'s lists on Redis, by the list's name after the queue's."""
    name = queue_name(queue)
    found = {}
    for key in client.scan_iter(f"{name}*"):
        suffix = key.decode()[len(name):]
        found[suffix] = [json.loads(message) for message in client.lrange(key, 0, -1)]
    return found


def dispatched(django_capture_on_commit_callbacks, *priorities: int) -> list[OutboxTask]:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        return [outbox_enqueue(HEARTBEAT, "quick", priority=priority) for priority in priorities]


def test_a_message_goes_to_its_priority_list_with_its_priority(queues, django_capture_on_commit_callbacks):
    first, last = dispatched(django_capture_on_commit_callbacks, 0, 9)
    found = lists(queues, "quick")
    assert set(found) == {"", "\x06\x169"}
    (plain,), (behind,) = found[""], found["\x06\x169"]
    assert plain["properties"]["priority"] == 0 and behind["properties"]["priority"] == 9
    assert plain["headers"]["kwargsrepr"] == repr({"outbox_id": first.pk})
    assert behind["headers"]["kwargsrepr"] == repr({"outbox_id": last.pk})


def test_the_relay_sends_a_message_again_with_its_priority(queues, settings):
    with transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick", priority=6)  # never dispatched: the test's block
    OutboxTask.objects.filter(pk=row.pk).update(sent_at=None, attempts=0,
                                                created_at=timezone.now() - timedelta(minutes=5))
    assert outbox_relay() == 1
    (message,) = lists(queues, "quick")["\x06\x166"]
    assert message["properties"]["priority"] == 6


def test_health_counts_the_messages_of_every_priority_list(queues, django_capture_on_commit_callbacks):
    dispatched(django_capture_on_commit_callbacks, 0, 2, 3, 5, 6, 9, 9)
    assert {suffix: len(messages) for suffix, messages in lists(queues, "quick").items()} == {
        "": 2, "\x06\x163": 2, "\x06\x166": 1, "\x06\x169": 2}
    assert queue_lengths()["quick"] == 7


def test_a_worker_takes_the_lower_number_first(queues, django_capture_on_commit_callbacks, settings):
    # What a Celery worker's consumer does: kombu's Redis channel with the settings' transport
    # options, polling the queue's lists in the steps' order.
    rows = dispatched(django_capture_on_commit_callbacks, 9, 6, 0, 9, 3)
    taken = []
    with current_app.connection_for_read() as connection:
        assert connection.default_channel.priority_steps == settings.BROKER_PRIORITY_STEPS
        queue = connection.SimpleQueue(queue_name("quick"))
        for _ in rows:
            message = queue.get(timeout=5)
            taken.append(message.payload[1]["outbox_id"])  # the body: (args, kwargs, embed)
            message.ack()
        queue.close()
    assert taken == [rows[2].pk, rows[4].pk, rows[1].pk, rows[0].pk, rows[3].pk]


@pytest.mark.parametrize("priority", [-1, 10, True, "9", 1.5])
def test_a_priority_outside_0_to_9_is_refused_and_nothing_written(priority):
    with pytest.raises(ValueError, match="priority is 0 to 9"), transaction.atomic():
        outbox_enqueue(HEARTBEAT, "quick", priority=priority)
    assert not OutboxTask.objects.exists()

"""The task outbox (core/outbox.py): a change's tasks are rows of its own transaction, sent after
the commit without ever failing the request, sent again by the relay, and run once per row."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.core import mail
from django.core.cache import cache
from django.db import OperationalError, connection, transaction
from django.utils import timezone

from core import outbox
from core.local_worker import LocalWorker
from core.models import OutboxTask
from core.outbox import outbox_enqueue, outbox_prune, outbox_relay
from matches.models import Match, RatingChange
from matches.tasks import match_notify_task, match_rating_apply_task
from tests.matches.factories_api import client_for, make_cast
from tests.matches.factories_ratings import confirm, match_between, player, run_tasks_inline

HEARTBEAT = "core.tasks.worker_heartbeat_task"
CLOSED_PORT = "redis://127.0.0.1:1/0"


def row_aged(seconds: float, **fields) -> OutboxTask:
    """An outbox row written ``seconds`` ago (with ``fields``), as a committed change left it."""
    fields = {"task": HEARTBEAT, "args": ["quick"], "queue": "quick", **fields}
    return OutboxTask.objects.create(created_at=timezone.now() - timedelta(seconds=seconds), **fields)


@pytest.fixture
def published(monkeypatch) -> list[int]:
    """The outbox rows published to the broker (the publish itself is recorded, not made)."""
    sent: list[int] = []
    monkeypatch.setattr(outbox, "outbox_publish", lambda row, broker: sent.append(row.pk))
    return sent


class ConnectCounter:
    """Counts the connections redis-py tries to open to the closed port (kombu's Redis transport
    goes through it; the cache's connections to the real Redis are not counted)."""

    def __init__(self, monkeypatch):
        self.count = 0
        real = redis.connection.AbstractConnection.connect

        def connect(connection):
            if getattr(connection, "port", None) == 1:
                self.count += 1
            return real(connection)

        monkeypatch.setattr(redis.connection.AbstractConnection, "connect", connect)


# --- written in the transaction ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_row_is_written_in_the_changes_transaction_and_sent_only_after_the_commit(
        published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")
        # Written marked sent (the broker is not known down), so that the publish needs no UPDATE.
        stored = OutboxTask.objects.get(pk=row.pk)
        assert (stored.sent_at, stored.attempts) == (stored.created_at, 1) and published == []
    assert published == [row.pk]
    row.refresh_from_db()
    assert (row.task, row.args, row.queue, row.attempts) == (HEARTBEAT, ["quick"], "quick", 1)
    assert row.sent_at is not None and row.done_at is None and row.last_error == ""


@pytest.mark.django_db
def test_a_publish_that_succeeds_writes_nothing_after_the_commit(published, django_capture_on_commit_callbacks,
                                                                 django_assert_num_queries):
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")
    with django_assert_num_queries(0):
        for callback in callbacks:
            callback()
    assert published == [row.pk]


@pytest.mark.django_db
def test_a_failed_publish_marks_the_row_unsent_again_for_the_relay(settings, monkeypatch,
                                                                    django_capture_on_commit_callbacks):
    def refused(row, broker):
        raise ConnectionError("the broker went away")

    monkeypatch.setattr(outbox, "outbox_publish", refused)
    settings.OUTBOX_GRACE_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")
    row.refresh_from_db()
    assert (row.sent_at, row.attempts) == (None, 0) and "the broker went away" in row.last_error
    # Unsent again, it is the relay's after the grace time, not after the resend time.
    outbox.broker_forget()
    sent = []
    monkeypatch.setattr(outbox, "outbox_publish", lambda row, broker: sent.append(row.pk))
    assert outbox_relay() == 1 and sent == [row.pk]
    row.refresh_from_db()
    assert row.attempts == 1 and row.sent_at is not None and row.last_error == ""


@pytest.mark.django_db
def test_a_row_written_while_the_broker_is_known_down_is_written_unsent_and_not_tried(
        published, monkeypatch, django_capture_on_commit_callbacks):
    monkeypatch.setattr(outbox, "_broker_down_until", float("inf"))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")
        assert OutboxTask.objects.filter(pk=row.pk, sent_at=None, attempts=0).exists()
    assert published == []
    row.refresh_from_db()
    assert (row.sent_at, row.attempts) == (None, 0)


@pytest.mark.django_db
def test_a_row_written_marked_sent_is_marked_unsent_when_the_broker_is_down_by_the_commit(
        published, monkeypatch, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")
        monkeypatch.setattr(outbox, "_broker_down_until", float("inf"))  # another thread's publish failed
    assert published == []
    row.refresh_from_db()
    assert (row.sent_at, row.attempts) == (None, 0) and "known down" in row.last_error


@pytest.mark.django_db
def test_a_row_written_unsent_is_marked_sent_after_its_publish(published, monkeypatch,
                                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        monkeypatch.setattr(outbox, "_broker_down_until", float("inf"))
        row = outbox_enqueue(HEARTBEAT, "quick")
        outbox.broker_forget()  # the broker is back by the commit
    assert published == [row.pk]
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1


@pytest.mark.django_db
def test_a_row_marked_sent_whose_publish_never_came_is_sent_again_after_the_resend_time(settings, published):
    """The window the marking costs: a process that died between its commit and its publish left
    its row marked sent; the relay sends it once its queue's resend time has passed."""
    settings.OUTBOX_RESEND_SECONDS = {"quick": 400, "imports": 2000}
    now = timezone.now()
    with transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")  # its dispatch never runs
    assert outbox_relay(now=now + timedelta(seconds=60)) == 0
    assert outbox_relay(now=now + timedelta(seconds=401)) == 1 and published == [row.pk]
    row.refresh_from_db()
    assert row.attempts == 2


@pytest.mark.django_db
def test_nothing_is_written_nor_sent_when_the_change_rolls_back(published, django_capture_on_commit_callbacks):
    with (django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(LookupError),
          transaction.atomic()):
        outbox_enqueue(HEARTBEAT, "quick")
        raise LookupError("the change fails after its task was written")
    assert callbacks == [] and published == [] and not OutboxTask.objects.exists()


@pytest.mark.django_db
def test_a_refused_report_writes_no_task(django_capture_on_commit_callbacks):
    cast = make_cast()
    with django_capture_on_commit_callbacks() as callbacks:
        response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 5]},
                                               format="json")
    assert response.status_code == 400 and callbacks == [] and not OutboxTask.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_be_called_outside_a_transaction():
    with pytest.raises(RuntimeError, match=r"inside transaction\.atomic"):
        outbox_enqueue(HEARTBEAT, "quick")
    assert not OutboxTask.objects.exists()


@pytest.mark.django_db
def test_it_refuses_arguments_that_are_not_ids_or_primitives():
    with pytest.raises(TypeError), transaction.atomic():
        outbox_enqueue(HEARTBEAT, {"queue": "quick"})
    assert not OutboxTask.objects.exists()


@pytest.mark.django_db
def test_each_task_goes_to_its_queue():
    with transaction.atomic():
        quick = outbox_enqueue(match_notify_task, 1, "reported")
        imports = outbox_enqueue("matches.tasks_imports.import_job_run_task", 1)
    assert (quick.queue, imports.queue) == ("quick", "imports")


# --- a broker that is down -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_broker_error_after_commit_leaves_the_report_answered_and_its_tasks_unsent(settings, monkeypatch):
    settings.CELERY_BROKER_URL = CLOSED_PORT
    connects = ConnectCounter(monkeypatch)
    cast = make_cast()
    response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 3]},
                                           format="json")
    assert response.status_code == 200, response.content
    assert Match.objects.get(pk=cast.match.pk).status == Match.Status.REPORTED
    [row] = OutboxTask.objects.all()
    assert (row.task, row.args, row.sent_at, row.attempts) == ("matches.tasks.match_notify_task",
                                                               [cast.match.pk, "reported"], None, 0)
    assert "broker" in row.last_error
    # One connection tried, no retry loop (kombu's defaults try again for about 19 s).
    assert connects.count == 1
    # The next change does not even try: the broker is known to be down for a few seconds.
    response = client_for(cast.bob).post(f"/api/v1/matches/{cast.match.pk}/confirm/", format="json")
    assert response.status_code == 200, response.content
    assert connects.count == 1
    assert OutboxTask.objects.filter(sent_at=None).count() == 3  # the report's, the confirmation's two


@pytest.mark.django_db
def test_a_dispatch_reaches_the_real_broker_on_the_rows_queue(settings, django_capture_on_commit_callbacks):
    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = f"{settings.QUEUE_PREFIX}quick"
    before = client.llen(queue)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox_enqueue(HEARTBEAT, "quick")
    assert client.llen(queue) == before + 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1 and row.last_error == ""


# --- the relay -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_relay_sends_the_rows_not_sent_and_again_those_sent_long_ago_and_not_done(settings, published):
    settings.OUTBOX_GRACE_SECONDS = 10
    settings.OUTBOX_RESEND_SECONDS = {"quick": 400, "imports": 2000}
    now = timezone.now()
    unsent = row_aged(60)
    young = row_aged(1)  # still being dispatched after its commit
    stale = row_aged(900, sent_at=now - timedelta(seconds=500), attempts=1)
    recent = row_aged(900, sent_at=now - timedelta(seconds=100), attempts=1)
    done = row_aged(900, sent_at=now - timedelta(seconds=500), attempts=1, done_at=now)
    long_import = row_aged(900, queue="imports", sent_at=now - timedelta(seconds=500), attempts=1)
    given_up = row_aged(900, sent_at=now - timedelta(seconds=500), attempts=settings.OUTBOX_MAX_ATTEMPTS)

    assert outbox_relay(now=now) == 2
    assert published == [unsent.pk, stale.pk]
    assert {row.pk: row.attempts for row in OutboxTask.objects.filter(sent_at=now)} == {unsent.pk: 1, stale.pk: 2}
    for untouched in (young, recent, done, long_import, given_up):
        assert OutboxTask.objects.get(pk=untouched.pk).attempts == untouched.attempts
    assert outbox_relay(now=now) == 0  # nothing left to send


@pytest.mark.django_db
def test_the_relay_sends_a_bounded_batch_oldest_first(settings, published):
    settings.OUTBOX_BATCH = 2
    rows = [row_aged(seconds) for seconds in (30, 50, 40)]
    assert outbox_relay() == 2
    assert published == [rows[0].pk, rows[1].pk]  # by key: the order they were written


@pytest.mark.django_db
def test_the_relay_with_the_broker_down_sends_nothing_and_keeps_the_rows(settings, monkeypatch):
    settings.CELERY_BROKER_URL = CLOSED_PORT
    connects = ConnectCounter(monkeypatch)
    rows = [row_aged(60), row_aged(60)]
    assert outbox_relay() == 0
    assert connects.count == 1
    assert all(row.sent_at is None and row.attempts == 0 for row in OutboxTask.objects.all())
    assert "broker" in OutboxTask.objects.get(pk=rows[0].pk).last_error


@pytest.mark.django_db(transaction=True)
def test_two_relays_at_once_never_send_a_row_twice(published):
    row_aged(60)
    row_aged(60)
    counts: list[int] = []

    def other_relay():
        try:
            counts.append(outbox_relay())
        finally:
            connection.close()

    with transaction.atomic():
        # This relay holds the first row (as while it publishes it) when another one runs, in its
        # own connection: that one skips the row held, neither waits nor sends it.
        [held] = outbox.claimed(OutboxTask.objects.all())[:1]
        thread = threading.Thread(target=other_relay)
        thread.start()
        thread.join(30)
    assert counts == [1] and published == [OutboxTask.objects.exclude(pk=held.pk).get().pk]


@pytest.mark.django_db
def test_the_relay_sends_again_at_once_what_was_sent_before_the_broker_last_started(settings, published,
                                                                                    monkeypatch):
    # Redis restarted 50 s ago with nothing on disk: what was sent before is gone from its queues.
    settings.OUTBOX_RESEND_SECONDS = {"quick": 420, "imports": 1920, "analysis": 1920}
    now = timezone.now()
    monkeypatch.setattr(outbox, "broker_started_at", lambda now=None: timezone.now() - timedelta(seconds=50))
    lost = row_aged(900, queue="analysis", sent_at=now - timedelta(seconds=100), attempts=1)
    after = row_aged(900, queue="analysis", sent_at=now - timedelta(seconds=10), attempts=1)
    done = row_aged(900, queue="quick", sent_at=now - timedelta(seconds=100), attempts=1, done_at=now)
    assert outbox_relay(now=now) == 1
    assert published == [lost.pk]
    assert OutboxTask.objects.get(pk=lost.pk).attempts == 2
    assert OutboxTask.objects.get(pk=after.pk).attempts == OutboxTask.objects.get(pk=done.pk).attempts == 1
    assert outbox_relay(now=now) == 0  # sent again after the restart: not again


@pytest.mark.django_db
def test_the_brokers_start_is_read_from_its_uptime_and_unknown_when_it_cannot_be(settings):
    import redis as redis_client

    now = timezone.now()
    settings.OUTBOX_RESEND_AFTER_BROKER_RESTART = True
    uptime = redis_client.Redis.from_url(settings.CELERY_BROKER_URL).info("server")["uptime_in_seconds"]
    started = outbox.broker_started_at(now)
    assert now - timedelta(seconds=uptime + 2) <= started <= now - timedelta(seconds=uptime - 2)
    settings.CELERY_BROKER_URL = CLOSED_PORT
    assert outbox.broker_started_at(now) is None  # not answering: nothing is taken for lost
    settings.CELERY_BROKER_URL = "memory://"
    assert outbox.broker_started_at(now) is None
    settings.CELERY_BROKER_URL, settings.OUTBOX_RESEND_AFTER_BROKER_RESTART = settings.REDIS_URL, False
    assert outbox.broker_started_at(now) is None


@pytest.mark.django_db(transaction=True)
def test_a_web_process_relay_sends_what_waits_with_beat_stopped(settings, published):
    # No beat at all: the relay thread each web server process starts sends the rows on its own.
    settings.OUTBOX_GRACE_SECONDS = 0
    settings.OUTBOX_RELAY_SECONDS = 0.05
    rows = [row_aged(60), row_aged(60)]
    loop = outbox.relay_in_process_start()
    try:
        assert outbox.relay_in_process_start() is loop  # one per process
        deadline = time.monotonic() + 30
        while len(published) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        outbox.relay_in_process_stop()
    assert sorted(published) == sorted(row.pk for row in rows)
    assert all(row.sent_at is not None for row in OutboxTask.objects.all())
    settings.OUTBOX_RELAY_IN_WEB = False  # a site that turns it off has beat's relay alone
    assert outbox.relay_in_process_start() is None
    settings.OUTBOX_RELAY_IN_WEB, settings.LOCAL_TASKS = True, True  # the laptop: the local workers take the rows
    assert outbox.relay_in_process_start() is None


def test_the_site_loaded_by_a_web_server_runs_the_relay_in_its_process():
    # A fresh process, as a gunicorn worker loads the site: a thread of its own runs the relay.
    code = ("import threading, config.wsgi\n"
            "print(sorted(t.name for t in threading.enumerate() if t.name == 'outbox-relay'))")
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/unused",
           "REDIS_URL": "redis://127.0.0.1:6379/15"}
    ran = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent.parent, env=env,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip().splitlines()[-1] == "['outbox-relay']"


# --- once per row ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_second_delivery_of_a_rating_row_does_nothing(monkeypatch, django_capture_on_commit_callbacks):
    dispatched = run_tasks_inline(monkeypatch)
    alice, bob = player("alice", rating=1600), player("bob")
    with django_capture_on_commit_callbacks(execute=True):
        match = confirm(match_between(alice, bob, length=7), (7, 3))
    assert ("matches.tasks.match_rating_apply_task", (match.pk,)) in dispatched
    row = OutboxTask.objects.get(task="matches.tasks.match_rating_apply_task")
    assert row.done_at is not None and RatingChange.objects.filter(match=match).count() == 2
    # Even with the ratings gone (so that the service would write them again), the row says done.
    RatingChange.objects.filter(match=match).delete()
    assert match_rating_apply_task(match.pk, outbox_id=row.pk) is None
    assert not RatingChange.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_a_second_delivery_of_an_email_row_sends_nothing_even_without_the_cache(
        monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    alice, bob = player("alice"), player("bob")
    with django_capture_on_commit_callbacks(execute=True):
        match = confirm(match_between(alice, bob), (5, 2))
    row = OutboxTask.objects.get(task="matches.tasks.match_notify_task", args=[match.pk, "confirmed"])
    confirmed = [m for m in mail.outbox if m.subject == "Match result confirmed"]
    assert row.done_at is not None and len(confirmed) == 2
    cache.clear()  # the notification's own claim forgotten (a cache restarted, say)
    assert match_notify_task(match.pk, "confirmed", outbox_id=row.pk) is None
    assert len([m for m in mail.outbox if m.subject == "Match result confirmed"]) == 2


@pytest.mark.django_db
def test_a_row_not_done_is_run_and_marked_done_with_its_effect():
    alice, bob = player("alice", rating=1600), player("bob")
    match = confirm(match_between(alice, bob, length=7), (7, 3))
    row = OutboxTask.objects.get(task="matches.tasks.match_rating_apply_task")
    assert row.done_at is None  # nothing ran: on_commit callbacks are not run in this test
    assert match_rating_apply_task(match.pk, outbox_id=row.pk) == 2
    row.refresh_from_db()
    assert row.done_at is not None and RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_a_task_that_fails_for_good_marks_its_row_done_with_the_error():
    with transaction.atomic():
        row = outbox_enqueue(match_notify_task, 0, "confirmed")
    result = match_notify_task.apply(args=row.args, kwargs={"outbox_id": row.pk})
    assert result.failed()
    row.refresh_from_db()
    assert row.done_at is not None and "DoesNotExist" in row.last_error


@pytest.mark.django_db
def test_a_transient_failure_leaves_the_row_to_do(monkeypatch):
    alice, bob = player("alice"), player("bob")
    confirm(match_between(alice, bob, length=7), (7, 3))
    row = OutboxTask.objects.get(task="matches.tasks.match_rating_apply_task")

    def down(**kwargs):
        raise OperationalError("connection lost")

    monkeypatch.setattr("matches.tasks.match_rating_apply", down)
    match_rating_apply_task.apply(args=row.args, kwargs={"outbox_id": row.pk})
    row.refresh_from_db()
    assert row.done_at is None


# --- without a broker, pruning ------------------------------------------------------------------


@pytest.mark.django_db
def test_with_no_broker_the_row_waits_for_a_local_worker_and_nothing_runs_in_this_process(
        settings, django_capture_on_commit_callbacks, published):
    settings.LOCAL_TASKS = True
    alice, bob = player("alice", rating=1600), player("bob")
    match = match_between(alice, bob, length=7)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        confirm(match, (7, 3))
    row = OutboxTask.objects.get(task="matches.tasks.match_rating_apply_task")
    # Written unsent, nothing published nor run after the commit: the row is the message.
    assert (row.sent_at, row.attempts, row.done_at) == (None, 0, None)
    assert published == [] and not RatingChange.objects.filter(match=match).exists()
    assert not [callback for callback in callbacks if getattr(callback, "func", None) is outbox._dispatch]
    assert outbox_relay() == 0  # no broker to send to: the relay leaves the rows to the local workers
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    assert RatingChange.objects.filter(match=match).count() == 2
    row.refresh_from_db()
    assert row.sent_at is not None and row.done_at is not None and row.attempts == 1


@pytest.mark.django_db
def test_pruning_forgets_the_rows_done_long_ago_only(settings):
    settings.OUTBOX_KEEP_DAYS = 7
    now = timezone.now()
    old = row_aged(9 * 86400, done_at=now - timedelta(days=8))
    recent = row_aged(9 * 86400, done_at=now - timedelta(days=6))
    waiting = row_aged(9 * 86400)
    assert outbox_prune(now=now) == 1
    assert set(OutboxTask.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}
    assert not OutboxTask.objects.filter(pk=old.pk).exists()

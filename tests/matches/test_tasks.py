"""Tasks as interfaces: each loads by id and calls one service, a second run changes nothing,
only transient failures are retried, and a real worker applies a rating dispatched on commit."""

from __future__ import annotations

import json
import re
import time

import pytest
from django.core import mail
from django.db import OperationalError

from config.celery import app as celery_app
from core import outbox
from core.errors import Conflict
from core.models import OutboxTask
from core.tasks import MAX_RETRIES
from matches import tasks
from matches.models import Match, Player, RatingChange
from matches.services.reporting import Claim, match_confirm, match_report
from tests.matches.factories_ratings import confirm, match_between, player, run_tasks_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return player("alice", rating=1600, experience=500)


@pytest.fixture
def bob():
    return player("bob", rating=1500, experience=500)


def snapshot(*players: Player) -> list:
    """Every row a result task may change for these players, and the emails sent."""
    return [
        list(Player.objects.filter(pk__in=[p.pk for p in players]).order_by("pk")
             .values_list("pk", "rating", "experience")),
        list(RatingChange.objects.filter(player__in=players).order_by("pk")
             .values_list("pk", "player_id", "match_id", "rating_after")),
        [(m.subject, tuple(m.to)) for m in mail.outbox],
    ]


# --- each task twice --------------------------------------------------------------------------


def test_the_rating_task_run_twice_gives_the_same_result(alice, bob):
    match = confirm(match_between(alice, bob, length=7), (7, 3))
    assert tasks.match_rating_apply_task(match.pk) == 2
    after = snapshot(alice, bob)
    assert tasks.match_rating_apply_task(match.pk) == 2
    assert snapshot(alice, bob) == after and match.rating_changes.count() == 2


def test_the_catch_up_task_run_twice_gives_the_same_result(alice, bob):
    confirm(match_between(alice, bob, length=7), (7, 3))
    confirm(match_between(bob, alice, length=3), (3, 1))
    assert tasks.ratings_catch_up() == 2
    after = snapshot(alice, bob)
    assert tasks.ratings_catch_up() == 0
    assert snapshot(alice, bob) == after and RatingChange.objects.filter(player__in=[alice, bob]).count() == 4


def test_the_notify_task_run_twice_gives_the_same_result(alice, bob):
    match = confirm(match_between(alice, bob), (5, 2))
    assert tasks.match_notify_task(match.pk, "confirmed") == 2
    after = snapshot(alice, bob)
    assert tasks.match_notify_task(match.pk, "confirmed") == 2
    assert snapshot(alice, bob) == after and len(mail.outbox) == 2


def test_services_dispatch_ids_and_primitives_only(alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    dispatched = run_tasks_inline(monkeypatch, run=False)
    match = match_between(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(match, (5, 2))
    assert dispatched == [
        ("matches.tasks.match_notify_task", (match.pk, "reported")),
        ("matches.tasks.match_notify_task", (match.pk, "confirmed")),
        ("matches.tasks.match_rating_apply_task", (match.pk,)),
    ]
    assert json.loads(json.dumps([args for _, args in dispatched])) == [list(args) for _, args in dispatched]


def test_the_periodic_jobs_name_registered_tasks():
    scheduled = {entry["task"] for entry in celery_app.conf.beat_schedule.values()}
    assert "matches.tasks.ratings_catch_up" in scheduled
    # As a worker does when it starts: import every app's tasks module (autodiscovery is lazy, so
    # in a test process only the modules some other test imported would be registered).
    celery_app.loader.import_default_modules()
    assert scheduled <= set(celery_app.tasks)


# --- retries ----------------------------------------------------------------------------------


def flaky(monkeypatch, failures: list[BaseException]) -> list[int]:
    """Make the rating task's service fail with ``failures`` first; returns the calls made."""
    calls: list[int] = []
    real = tasks.match_rating_apply

    def apply(*, match_id):
        calls.append(match_id)
        if failures:
            raise failures.pop(0)
        return real(match_id=match_id)

    monkeypatch.setattr(tasks, "match_rating_apply", apply)
    return calls


def test_a_lost_database_connection_is_retried(alice, bob, monkeypatch):
    match = confirm(match_between(alice, bob, length=7), (7, 3))
    calls = flaky(monkeypatch, [OperationalError("server closed the connection unexpectedly")])
    result = tasks.match_rating_apply_task.apply(args=(match.pk,))
    assert (result.state, result.result) == ("SUCCESS", 2)
    assert calls == [match.pk, match.pk] and match.rating_changes.count() == 2


def test_database_retries_are_bounded(alice, bob, monkeypatch):
    match = confirm(match_between(alice, bob, length=7), (7, 3))
    calls = flaky(monkeypatch, [OperationalError("down")] * 20)
    result = tasks.match_rating_apply_task.apply(args=(match.pk,))
    assert result.state == "FAILURE" and isinstance(result.result, OperationalError)
    assert len(calls) == MAX_RETRIES + 1 and not match.rating_changes.exists()


@pytest.mark.parametrize("error", [Conflict("refused", code="rating_built_on"), ValueError("bug")],
                         ids=["domain error", "programming error"])
def test_a_permanent_failure_of_the_rating_task_is_not_retried(alice, bob, monkeypatch, error):
    match = confirm(match_between(alice, bob, length=7), (7, 3))
    calls = flaky(monkeypatch, [error, error])
    result = tasks.match_rating_apply_task.apply(args=(match.pk,))
    assert result.state == "FAILURE" and result.result is error and calls == [match.pk]


def test_a_missing_match_fails_the_rating_task_at_once(monkeypatch):
    calls = flaky(monkeypatch, [])
    result = tasks.match_rating_apply_task.apply(args=(0,))
    assert result.state == "FAILURE" and isinstance(result.result, Match.DoesNotExist)
    assert calls == [0]


# --- a real worker ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_applies_the_rating_of_a_match_confirmed_through_the_service(celery_worker_process):
    alice = player("alice", rating=1600, experience=500)
    bob = player("bob", rating=1500, experience=500)
    match = match_between(alice, bob, length=7)
    match_report(match_id=match.pk, user=alice.user, claim=Claim((7, 3)))
    match_confirm(match_id=match.pk, user=bob.user)  # commits, then dispatches the rating task

    deadline = time.monotonic() + 60
    while RatingChange.objects.filter(match=match).count() < 2:
        assert celery_worker_process.process.poll() is None, f"the worker stopped:\n{celery_worker_process.log()}"
        assert time.monotonic() < deadline, f"no rating after 60 s; worker log:\n{celery_worker_process.log()}"
        time.sleep(0.25)

    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (round(alice.rating - 1600, 2), round(bob.rating - 1500, 2)) == (4.49, -4.49)
    assert (alice.experience, bob.experience) == (507, 507)
    assert "matches.tasks.match_rating_apply_task" in celery_worker_process.log()


def sent_emails(directory) -> list[str]:
    """The subject and addressee of each email the file-based backend wrote in ``directory``."""
    found = []
    for path in sorted(directory.glob("*.log")) if directory.exists() else []:
        for message in path.read_text().split("-" * 79):
            subject = re.search(r"^Subject: (.*)$", message, re.M)
            if subject:
                found.append(f"{subject.group(1)} -> {re.search(r'^To: (.*)$', message, re.M).group(1)}")
    return sorted(found)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_delivers_a_results_emails_and_rating_through_the_outbox(celery_cluster, tmp_path):
    mailbox = tmp_path / "mail"
    worker = celery_cluster.worker(DJANGO_EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                                   DJANGO_EMAIL_FILE_PATH=str(mailbox))
    alice = player("alice", rating=1600, experience=500)
    bob = player("bob", rating=1500, experience=500)
    match = match_between(alice, bob, length=7)
    match_report(match_id=match.pk, user=alice.user, claim=Claim((7, 3)))
    rows = OutboxTask.objects.filter(args__0=match.pk)
    # The request for confirmation is sent only while the match waits for it: let it go first.
    deadline = time.monotonic() + 60
    while rows.filter(done_at=None).exists():
        assert time.monotonic() < deadline, f"the report's task not done after 60 s:\n{worker.log()}"
        time.sleep(0.25)
    match_confirm(match_id=match.pk, user=bob.user)
    assert sorted(rows.values_list("task", flat=True)) == [
        "matches.tasks.match_notify_task", "matches.tasks.match_notify_task", "matches.tasks.match_rating_apply_task"]

    deadline = time.monotonic() + 60
    while rows.filter(done_at=None).exists():
        assert worker.process.poll() is None, f"the worker stopped:\n{worker.log()}"
        assert time.monotonic() < deadline, f"tasks not done after 60 s:\n{list(rows.values())}\n{worker.log()}"
        time.sleep(0.25)

    assert RatingChange.objects.filter(match=match).count() == 2
    assert sent_emails(mailbox) == [
        "Match result confirmed -> alice@example.com", "Match result confirmed -> bob@example.com",
        "Please confirm the result of your match -> bob@example.com",
    ]
    assert all(row.sent_at is not None and row.attempts == 1 and row.last_error == "" for row in rows)
    # Each row delivered again (as the relay or a redelivery would): nothing more happens.
    with outbox.broker_connection() as broker:
        for row in rows:
            outbox.outbox_publish(row, broker)
    deadline = time.monotonic() + 60
    while len(re.findall(r"succeeded in [0-9.e-]+s: None$", worker.log(), re.M)) < 3:
        assert time.monotonic() < deadline, f"the second deliveries did not run:\n{worker.log()}"
        time.sleep(0.25)
    assert RatingChange.objects.filter(match=match).count() == 2 and len(sent_emails(mailbox)) == 3

"""analysis.tasks.match_analysis_task called in-process: done once per outbox row and generation,
transient faults retried (bounded), anything else and the time limit failing the run with a reason."""

from __future__ import annotations

import pytest
from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.db import OperationalError

from analysis import tasks
from analysis.models import MatchAnalysis
from analysis.services import match_analysis_request
from core.local_worker import LocalWorker
from core.models import OutboxTask
from core.tasks import MAX_RETRIES

pytestmark = pytest.mark.django_db
TASK = "analysis.tasks.match_analysis_task"


@pytest.fixture
def zero_ply(played):
    MatchAnalysis.objects.filter(pk=played.match.pk).update(plies=0)
    return played


def flaky(monkeypatch, failures: list[BaseException]) -> list[int]:
    """Make the task's service fail with ``failures`` first; returns the calls made."""
    calls: list[int] = []
    real = tasks.match_analysis_run

    def run(match_id, *, generation=None):
        calls.append(match_id)
        if failures:
            raise failures.pop(0)
        return real(match_id, generation=generation)

    monkeypatch.setattr(tasks, "match_analysis_run", run)
    return calls


def test_the_task_runs_its_outbox_row_once(zero_ply):
    match = zero_ply.match
    row = OutboxTask.objects.get(task=TASK, args=[match.pk, 1])
    first = tasks.match_analysis_task.apply(args=(match.pk, 1), kwargs={"outbox_id": row.pk})
    assert (first.state, first.result) == ("SUCCESS", "done")
    assert OutboxTask.objects.get(pk=row.pk).done_at is not None
    analysed = MatchAnalysis.objects.get(pk=match.pk)
    assert tasks.match_analysis_task.apply(args=(match.pk, 1), kwargs={"outbox_id": row.pk}).result is None
    # Delivered without its row (the relay's row pruned): the done generation is not run again.
    assert tasks.match_analysis_task.apply(args=(match.pk, 1)).result == "done"
    again = MatchAnalysis.objects.get(pk=match.pk)
    assert (again.attempt, again.analysed_at) == (analysed.attempt, analysed.analysed_at) == (1, analysed.analysed_at)


def test_a_lost_database_is_retried_and_the_run_then_finishes(zero_ply, monkeypatch):
    calls = flaky(monkeypatch, [OperationalError("server closed the connection unexpectedly")])
    result = tasks.match_analysis_task.apply(args=(zero_ply.match.pk, 1))
    assert (result.state, result.result) == ("SUCCESS", "done") and len(calls) == 2


def test_retries_are_bounded_and_then_the_run_fails_with_a_reason(zero_ply, monkeypatch):
    calls = flaky(monkeypatch, [OperationalError("down")] * 20)
    result = tasks.match_analysis_task.apply(args=(zero_ply.match.pk, 1))
    assert result.state == "FAILURE" and len(calls) == MAX_RETRIES + 1
    row = MatchAnalysis.objects.get(pk=zero_ply.match.pk)
    assert (row.status, row.failure_code) == ("failed", "gave_up")


def test_a_bug_is_not_retried_and_fails_the_run(zero_ply, monkeypatch):
    calls = flaky(monkeypatch, [ValueError("bug")])
    result = tasks.match_analysis_task.apply(args=(zero_ply.match.pk, 1))
    assert result.state == "FAILURE" and calls == [zero_ply.match.pk]
    assert MatchAnalysis.objects.get(pk=zero_ply.match.pk).failure_code == "error"


def test_the_soft_time_limit_fails_a_run_at_0_ply_with_a_reason(zero_ply, monkeypatch):
    flaky(monkeypatch, [SoftTimeLimitExceeded()])
    assert tasks.match_analysis_task.apply(args=(zero_ply.match.pk, 1)).result == "failed"
    row = MatchAnalysis.objects.get(pk=zero_ply.match.pk)
    assert (row.status, row.failure_code) == ("failed", "time_limit")


def test_the_soft_time_limit_queues_a_deeper_run_again_one_ply_lower_once(played, monkeypatch):
    MatchAnalysis.objects.filter(pk=played.match.pk).update(plies=1)
    first = OutboxTask.objects.get(task=TASK, args=[played.match.pk, 1])
    flaky(monkeypatch, [SoftTimeLimitExceeded(), SoftTimeLimitExceeded()])
    assert tasks.match_analysis_task.apply(args=(played.match.pk, 1), kwargs={"outbox_id": first.pk}).result == "queued"
    row = MatchAnalysis.objects.get(pk=played.match.pk)
    assert (row.status, row.plies, row.lowered_from, row.generation) == ("queued", 0, 1, 1)
    again = OutboxTask.objects.get(task=TASK, args=[played.match.pk, 1], done_at=None)  # its own row
    assert again.pk != first.pk and OutboxTask.objects.get(pk=first.pk).done_at is not None
    # Out of time once more, now at 0-ply: failed with the reason.
    assert tasks.match_analysis_task.apply(args=(played.match.pk, 1), kwargs={"outbox_id": again.pk}).result == "failed"
    row = MatchAnalysis.objects.get(pk=played.match.pk)
    assert (row.status, row.failure_code, row.lowered_from) == ("failed", "time_limit", 1)


def test_the_task_has_its_queue_limits_and_late_acks(settings):
    task = tasks.match_analysis_task
    assert (task.soft_time_limit, task.time_limit, task.acks_late) == (
        settings.ANALYSIS_SOFT_TIME_LIMIT, settings.ANALYSIS_TIME_LIMIT, True)
    assert settings.CELERY_TASK_ROUTES[task.name]["queue"].endswith("analysis")
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > settings.ANALYSIS_TIME_LIMIT
    assert settings.OUTBOX_RESEND_SECONDS["analysis"] > settings.ANALYSIS_TIME_LIMIT
    assert "analysis" in settings.QUEUES


def test_without_a_broker_a_request_is_analysed_by_the_local_analysis_worker(played, settings,
                                                                            django_capture_on_commit_callbacks):
    # The laptop run (no REDIS_URL): the row waits in the outbox; the analysis queue's local worker
    # takes it and runs the task on its main thread, as it does every other task of its queue.
    settings.LOCAL_TASKS = True
    assert TASK in current_app.tasks  # registered by the app, not only by a worker's discovery
    with django_capture_on_commit_callbacks(execute=True):
        match_analysis_request(played.match, actor=played.organiser, plies=0)
    assert MatchAnalysis.objects.get(pk=played.match.pk).status == "queued"  # nothing ran in the request
    LocalWorker(["quick"], poll_seconds=0, max_idle_polls=1).run()
    assert MatchAnalysis.objects.get(pk=played.match.pk).status == "queued"  # not the quick queue's
    LocalWorker(["analysis"], poll_seconds=0, max_idle_polls=1).run()
    row = MatchAnalysis.objects.get(pk=played.match.pk)
    assert (row.status, row.generation, row.plies) == ("done", 2, 0)
    assert OutboxTask.objects.get(task=TASK, args=[played.match.pk, 2]).done_at is not None

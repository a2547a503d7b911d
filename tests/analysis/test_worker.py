"""The analysis task on a real Celery worker of the ``analysis`` queue (tests/conftest.py's
``celery_cluster``), through the outbox: it runs to done at 0-ply with its progress seen rising,
a second request replaces the first (and a second delivery of a done run changes nothing), a
transient fault (the database lost on the first attempt: CRAWFORD_ANALYSIS_FAIL_FIRST) is retried,
and a confirmation's analysis is run before a player's uploads queued earlier (their priority)."""

from __future__ import annotations

import time

import pytest
from celery import current_app

from analysis.models import MatchAnalysis
from analysis.services import TASK, match_analysis_request
from core.outbox import queue_name
from tests.analysis.conftest import confirm_with_file, same_verdict
from tests.analysis.test_uploads import imported
from tests.factories import UserFactory
from tests.matches.factories_api import make_cast

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
LONG = "studio_13pt_llabba_diablodeldados.mat"  # 10 games: a few hundred decisions


def wait_for(worker, check, what: str, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert worker.process.poll() is None, f"the worker stopped:\n{worker.log()}"
        assert time.monotonic() < deadline, f"{what} not seen after {seconds} s; worker log:\n{worker.log()}"
        time.sleep(0.01)


def row(match_id: int) -> MatchAnalysis:
    return MatchAnalysis.objects.get(pk=match_id)


def test_a_confirmed_match_is_analysed_at_0_ply_with_its_progress_rising(celery_cluster, settings):
    settings.ANALYSIS_PLIES = 0
    worker = celery_cluster.worker(queues=("analysis",), CRAWFORD_ANALYSIS_PROGRESS_MS="0")
    cast = make_cast(length=13)
    confirm_with_file(cast.match, cast.alice, cast.bob, LONG)  # commits: the outbox sends the task
    seen = []

    def finished():
        current = row(cast.match.pk)
        if current.status == "running" and (not seen or seen[-1] != current.done):
            seen.append(current.done)
        return current.status == "done" and current

    done = wait_for(worker, finished, "the analysis done")
    assert (done.plies, done.generation, done.attempt, done.done) == (0, 1, 1, done.total)
    partial = [value for value in seen if 0 < value < done.total]
    assert len(partial) >= 3 and partial == sorted(partial), seen  # rising, seen between start and end
    assert done.pr0 is not None and done.result["plies"] == 0
    assert f"{TASK}[" in worker.log()


def test_a_second_request_replaces_the_first_and_a_second_delivery_changes_nothing(celery_cluster, settings):
    settings.ANALYSIS_PLIES = 0
    worker = celery_cluster.worker(queues=("analysis",))
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    first = wait_for(worker, lambda: row(cast.match.pk).status == "done" and row(cast.match.pk), "the first run")
    match_analysis_request(cast.match, actor=cast.organiser, plies=0)
    second = wait_for(worker, lambda: (r := row(cast.match.pk)).status == "done" and r.generation == 2 and r,
                      "the second run")
    assert second.analysed_at > first.analysed_at
    assert same_verdict(first, second)  # the same games, the same verdict
    assert MatchAnalysis.objects.count() == 1
    # The first generation's task delivered again (a redelivery): the worker runs it and changes nothing.
    current_app.send_task(TASK, args=[cast.match.pk, 1], queue=queue_name("analysis"))
    current_app.send_task(TASK, args=[cast.match.pk, 2], queue=queue_name("analysis"))
    wait_for(worker, lambda: worker.log().count(f"{TASK}[") >= 4 * 2 and worker.log().count("succeeded") >= 4,
             "the two redeliveries")
    again = row(cast.match.pk)
    assert (again.generation, again.attempt, again.analysed_at, again.status) == (2, 1, second.analysed_at, "done")


def test_a_lost_database_on_the_first_attempt_is_retried_by_the_worker(celery_cluster, settings):
    settings.ANALYSIS_PLIES = 0
    worker = celery_cluster.worker(queues=("analysis",), CRAWFORD_ANALYSIS_FAIL_FIRST="1")
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    done = wait_for(worker, lambda: row(cast.match.pk).status == "done" and row(cast.match.pk), "the retried run")
    assert done.attempt == 1  # the failed attempt failed before claiming the row
    log = worker.log()
    assert "Retry in 5s" in log and "injected" in log, log


def test_a_confirmations_analysis_is_run_before_the_players_uploads_queued_earlier(celery_cluster, settings):
    # Two matches a player uploaded, queued first (behind the others: UPLOADS_PRIORITY), then a
    # confirmed match's analysis; no worker yet, so the three wait on the broker together.
    settings.ANALYSIS_PLIES = 0
    uploader = UserFactory(username="uploader")
    uploads = imported(uploader, 2, seed=40)
    cast = make_cast(length=3)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    assert [row(pk).queued_for_id for pk in uploads] == [uploader.pk, uploader.pk]
    assert row(cast.match.pk).queued_for_id is None
    assert not MatchAnalysis.objects.exclude(status="queued").exists()
    worker = celery_cluster.worker(queues=("analysis",))
    every = [cast.match.pk, *uploads]
    wait_for(worker, lambda: MatchAnalysis.objects.filter(pk__in=every, status="done").count() == 3,
             "the three analyses done")
    started = sorted(every, key=lambda pk: row(pk).started_at)
    assert started[0] == cast.match.pk, [(pk, row(pk).started_at) for pk in every]
    assert set(started[1:]) == set(uploads)

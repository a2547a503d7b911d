"""The analyses' sweeper (analysis.services.match_analyses_sweep): an analysis whose worker died
(running, no progress for ANALYSIS_STALL_SECONDS) is sent again for the same generation and taken
over by its next run; after ANALYSIS_MAX_REDISPATCH sends it fails with a reason; one making
progress, queued, done or failed is left alone. A run lowered after running out of time says so on
the match's page and in the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from analysis.models import MatchAnalysis
from analysis.services import TASK, match_analyses_sweep, match_analysis_run
from analysis.texts import failure_text
from core.models import OutboxTask
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def stalled(played, settings):
    settings.ANALYSIS_STALL_SECONDS, settings.ANALYSIS_MAX_REDISPATCH = 120, 2
    MatchAnalysis.objects.filter(pk=played.match.pk).update(
        plies=0, status="running", attempt=1, started_at=timezone.now() - timedelta(seconds=200),
        progressed_at=timezone.now() - timedelta(seconds=121))
    return played


def test_an_analysis_whose_worker_died_is_sent_again_and_its_next_run_takes_it_over(stalled):
    match_id = stalled.match.pk
    first = OutboxTask.objects.get(task=TASK, args=[match_id, 1])
    assert match_analyses_sweep() == (1, 0)
    assert OutboxTask.objects.get(pk=first.pk).done_at is not None  # a late redelivery of it changes nothing
    again = OutboxTask.objects.get(task=TASK, args=[match_id, 1], done_at=None)
    assert match_analyses_sweep() == (0, 0)  # claimed: the next sweep waits for another stall
    row = match_analysis_run(match_id, generation=1)
    assert (row.status, row.attempt) == ("done", 2)
    assert again.pk != first.pk


def test_an_analysis_whose_worker_keeps_dying_fails_with_its_reason(stalled):
    match_id = stalled.match.pk
    MatchAnalysis.objects.filter(pk=match_id).update(attempt=3)  # run three times, sent again twice
    assert match_analyses_sweep() == (0, 1)
    row = MatchAnalysis.objects.get(pk=match_id)
    assert (row.status, row.failure_code) == ("failed", "worker_lost")
    assert "stopped several times" in str(failure_text("worker_lost"))
    assert not OutboxTask.objects.filter(task=TASK, args=[match_id, 1], done_at=None).exclude(
        pk=OutboxTask.objects.get(task=TASK, args=[match_id, 1]).pk).exists()


@pytest.mark.parametrize("change", [
    {"progressed_at": 60},  # still making progress
    {"status": "queued"}, {"status": "failed", "failure_code": "error", "failure": "a bug"},
])
def test_an_analysis_making_progress_or_not_running_is_left_alone(stalled, change):
    if "progressed_at" in change:
        change = {"progressed_at": timezone.now() - timedelta(seconds=change["progressed_at"])}
    MatchAnalysis.objects.filter(pk=stalled.match.pk).update(**change)
    assert match_analyses_sweep() == (0, 0)
    assert OutboxTask.objects.filter(task=TASK).count() == 1


def test_a_run_lowered_after_running_out_of_time_says_so_on_the_page_and_in_the_api(played):
    MatchAnalysis.objects.filter(pk=played.match.pk).update(plies=0, lowered_from=1)
    match_analysis_run(played.match.pk, generation=1)
    page = client_for(played.alice).get(f"/matches/{played.match.pk}/").content.decode()
    assert "it took longer than its time limit, so it was analysed at" in page and "1-ply" in page
    body = client_for(played.alice).get(f"/api/v1/matches/{played.match.pk}/analysis/").json()
    assert (body["plies"], body["lowered_from"]) == (0, 1)

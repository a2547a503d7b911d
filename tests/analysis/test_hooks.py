"""When a match is queued for analysis on its own: a result confirmed with game logs (once for the
same games), not without logs, and a match file imported (matches.hooks)."""

from __future__ import annotations

import pytest
from django.db import transaction

from analysis import gnubg_adapter
from analysis.models import MatchAnalysis
from analysis.services import match_analysis_queue_if_needed
from core.models import OutboxTask
from matches.models import ImportJob, Match
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from matches.services.reporting import claim_make, match_confirm, match_locked, match_report
from tests.analysis.conftest import MAT_DIR, SHORT, confirm_with_file
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
TASK = "analysis.tasks.match_analysis_task"


def queued(match_id: int) -> list[list]:
    return [row.args for row in OutboxTask.objects.filter(task=TASK, args__0=match_id).order_by("pk")]


def test_a_result_confirmed_with_game_logs_queues_one_analysis(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        confirm_with_file(cast.match, cast.alice, cast.bob)
    row = MatchAnalysis.objects.get(pk=cast.match.pk)
    assert (row.status, row.generation, row.plies, row.requested_by) == ("queued", 1, 2, None)
    assert queued(cast.match.pk) == [[cast.match.pk, 1]]
    assert callbacks  # dispatched after the commit, through the outbox


def test_a_result_confirmed_without_game_logs_queues_nothing(cast):
    match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (3, 1), None))
    match_confirm(match_id=cast.match.pk, user=cast.bob)
    assert Match.objects.get(pk=cast.match.pk).status == "confirmed"
    assert not MatchAnalysis.objects.exists() and queued(cast.match.pk) == []


def test_the_same_games_at_the_same_depth_are_not_queued_twice(played, settings):
    def confirmed_again():
        with transaction.atomic():
            return match_analysis_queue_if_needed(match_locked(played.match.pk))

    assert confirmed_again() is None
    assert queued(played.match.pk) == [[played.match.pk, 1]]
    settings.ANALYSIS_PLIES = 0  # the same games, another depth: analysed again
    assert confirmed_again().generation == 2
    MatchAnalysis.objects.filter(pk=played.match.pk).update(status="failed", failure_code="error")
    assert confirmed_again().generation == 3  # a failed one is tried again
    assert queued(played.match.pk) == [[played.match.pk, 1], [played.match.pk, 2], [played.match.pk, 3]]


def test_without_gnubg_a_confirmation_queues_nothing(cast, monkeypatch):
    monkeypatch.setattr(gnubg_adapter, "available", lambda: False)
    confirm_with_file(cast.match, cast.alice, cast.bob)
    assert not MatchAnalysis.objects.exists() and queued(cast.match.pk) == []


def test_an_imported_match_file_is_queued_for_analysis():
    owner = UserFactory(username="owner")
    job = import_job_run(job_id=import_job_create(owner=owner, files=[(SHORT, (MAT_DIR / SHORT).read_bytes())],
                                                  dispatch=False).pk)
    assert job.status == ImportJob.Status.MAPPING
    import_job_map(job_id=job.pk, user=owner, mapping={entry["name"]: "guest" for entry in job.names}, dispatch=False)
    import_job_run(job_id=job.pk)
    match = Match.objects.get(source_hash__isnull=False)
    assert MatchAnalysis.objects.get(pk=match.pk).status == "queued"
    assert queued(match.pk) == [[match.pk, 1]]

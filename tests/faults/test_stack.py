"""The harness itself (tests/faults/stack.py): what the scenarios of the outbox and the sweeper
will lean on works, so a failure there is never the harness's."""

from __future__ import annotations

import pytest

from tests.faults.scenario import invariants_broken

pytestmark = pytest.mark.slow


def test_a_worker_takes_tasks_from_the_private_redis_and_dies_when_killed(stack):
    worker = stack.worker()
    task_id = stack.shell("from matches.tasks import ratings_catch_up; print(ratings_catch_up.delay().id)").strip()
    worker.wait_for_log(rf"ratings_catch_up\[{task_id}\] succeeded", timeout=60)
    worker.kill()
    assert not worker.alive


def test_beat_starts_with_its_own_schedule_and_stops(stack):
    beat = stack.beat()
    assert beat.alive
    beat.terminate()
    assert not beat.alive


def test_emails_sent_by_any_process_of_the_stack_are_counted(stack):
    before = len(stack.emails())
    stack.shell("from django.core.mail import send_mail\n"
                "send_mail('One', 'body', 'crawford@example.org', ['a@example.org'])\n"
                "send_mail('Two', 'body', 'crawford@example.org', ['b@example.org', 'c@example.org'])")
    sent = stack.emails()[before:]
    assert [(m["Subject"], m["To"]) for m in sent] == [("One", "a@example.org"), ("Two", "b@example.org, c@example.org")]


def test_sql_reads_the_private_database(stack):
    assert stack.sql("SELECT current_setting('port')::int") == [(stack.postgres.port,)]
    assert stack.sql("SELECT count(*) FROM matches_match")[0][0] > 0


def test_the_invariants_of_the_scenarios_find_a_half_written_change(stack):
    assert not invariants_broken(stack)
    [(match_id, reporter)] = stack.sql("SELECT m.id, u.id FROM matches_match m, accounts_user u WHERE m.status = "
                                       "'scheduled' AND m.consent1 = 'pending' AND u.username = 'organiser' LIMIT 1")
    # A report written without its audit entry, its side's consent nor its match's new status.
    [(report,)] = stack.sql("INSERT INTO matches_report (match_id, side, reporter_id, score0, score1, status, statement, "
                            "created_at) VALUES (%s, 1, %s, 0, 0, 'pending', '', now()) RETURNING id", match_id, reporter)
    try:
        broken = invariants_broken(stack)
    finally:
        stack.sql("DELETE FROM matches_report WHERE id = %s", report)
    assert broken == {"a side that reported has consented": [(report,)], "every report is audited": [(report,)]}
    assert not invariants_broken(stack)

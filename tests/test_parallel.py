"""The suite in parallel (pytest-xdist, the README's ``-n auto``): the fault tests go to one worker
together, every other test alone; each worker has its own test database and its own cache keys."""

from __future__ import annotations

import os

import dj_database_url
import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import pytest_xdist_make_scheduler


@pytest.fixture
def load_config(request, monkeypatch):
    """The session's config as the controller of ``-n 2`` sees it."""
    monkeypatch.setattr(request.config.option, "dist", "load")
    monkeypatch.setattr(request.config.option, "tx", ["popen", "popen"])
    return request.config


def test_the_fault_tests_go_to_one_worker_together_and_every_other_test_alone(load_config):
    scheduler = pytest_xdist_make_scheduler(config=load_config, log=None)
    faults = ["tests/faults/test_stack.py::test_sql_reads_the_private_database",
              "tests/faults/test_degrade.py::test_with_postgres_down_requests_answer_503_with_retry_after_then_200_again"]
    others = ["tests/e2e/test_report_flow.py::test_alice_reports_bob_confirms_and_both_see_the_confirmed_result",
              "tests/test_faults_elsewhere.py::test_a[tests/faults/]", "tests/engine/test_moves.py::test_a[1]"]
    assert {scheduler._split_scope(nodeid) for nodeid in faults} == {"tests/faults/"}
    assert [scheduler._split_scope(nodeid) for nodeid in others] == others


def test_another_distribution_asked_for_is_xdists_own(load_config, monkeypatch):
    monkeypatch.setattr(load_config.option, "dist", "loadfile")
    assert pytest_xdist_make_scheduler(config=load_config, log=None) is None


@pytest.mark.django_db
def test_a_worker_has_its_own_test_database_and_cache_keys():
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    prefix, database = settings.CACHES["default"]["KEY_PREFIX"], connection.settings_dict["NAME"]
    if worker:
        assert (prefix, database[-len(worker) - 1:]) == (f"test-{worker}", f"_{worker}")
    else:  # one process: the test database of the configured one, no prefix
        configured = dj_database_url.parse(os.environ["DATABASE_URL"])["NAME"]
        assert (prefix, database) == ("", f"test_{configured}")


def test_the_kept_database_is_looked_at_once_the_worker_suffix_is_given(django_db_createdb, request):
    """tests/conftest.py's ``django_db_createdb`` asks the kept database (by default the name in the
    settings) after pytest-django gave it the worker's suffix: otherwise a worker would look at
    test_crawford, not test_crawford_gw0, and keep a database that no longer migrates."""
    assert django_db_createdb in (True, False)
    assert "django_db_modify_db_settings" in request.fixturenames

"""core.middleware: a request that meets PostgreSQL unreachable answers 503 with Retry-After (the
API's error body under /api/, a short page otherwise), never a server error; a lock not had in time
stays a 409. The real outage, a stopped PostgreSQL under gunicorn, is in tests/faults."""

from __future__ import annotations

import logging
from contextlib import contextmanager

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client, RequestFactory
from psycopg.errors import LockNotAvailable

from config.views import server_failure
from core import middleware as core_middleware
from core.middleware import DATABASE_RETRY_AFTER, database_unavailable
from core.outages import OutageLog
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_outage_log(monkeypatch):
    """The outage log is per process: each test starts with the database known to be up."""
    monkeypatch.setattr(core_middleware, "_database_outage", OutageLog(core_middleware.logger, "The database (PostgreSQL)"))


@contextmanager
def database_down(monkeypatch, error=OperationalError):
    """Every query fails as with PostgreSQL gone (the connection refused or dropped)."""

    def fail(self, sql, params, *args):
        raise error("connection to server at \"127.0.0.1\", port 5432 failed: Connection refused")

    with monkeypatch.context() as patch:
        patch.setattr(CursorWrapper, "_execute", fail)
        yield


def assert_unavailable_api(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert response.json() == {"detail": "the service is briefly unavailable; please try again in a few seconds",
                               "code": "service_unavailable"}


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_the_api_answers_503_with_retry_after_when_the_database_is_down(monkeypatch, error):
    match = MatchFactory()
    cast = make_cast()
    alice = client_for(cast.alice)
    with database_down(monkeypatch, error):
        assert_unavailable_api(Client().get("/api/v1/matches/"))
        assert_unavailable_api(Client().get(f"/api/v1/matches/{match.pk}/"))
        assert_unavailable_api(alice.post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 3]}, format="json"))
        assert_unavailable_api(Client().post("/api/v1/auth/token/", {"username": "alice", "password": "x"},
                                             content_type="application/json"))


def test_a_page_answers_a_short_503_page_when_the_database_is_down(monkeypatch):
    match = MatchFactory()
    with database_down(monkeypatch):
        response = Client().get(f"/matches/{match.pk}/")
        # The sign-in page needs no database until someone signs in.
        assert Client().get("/accounts/login/").status_code == 200
    assert response.status_code == 503
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert response["Content-Type"].startswith("text/html")
    assert "Crawford cannot reach its database just now" in response.content.decode()


def test_a_signed_in_page_answers_503_though_the_session_cannot_be_read(monkeypatch, client):
    cast = make_cast()
    client.force_login(cast.alice)
    with database_down(monkeypatch):
        response = client.get(f"/matches/{cast.match.pk}/")
    assert response.status_code == 503
    assert "Briefly unavailable" in response.content.decode()


def test_the_outage_is_logged_once_and_its_end_once(monkeypatch, caplog):
    match = MatchFactory()
    with caplog.at_level(logging.WARNING):
        with database_down(monkeypatch):
            for _ in range(3):
                assert Client().get(f"/api/v1/matches/{match.pk}/").status_code == 503
        assert Client().get(f"/api/v1/matches/{match.pk}/").status_code == 200
    # One line for the outage, one for its end: not one per request (django.request's included).
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2, messages
    assert messages[0].startswith("The database (PostgreSQL) is unavailable (OperationalError: connection to server")
    assert messages[1].startswith("The database (PostgreSQL) answers again after")
    assert messages[1].endswith("(2 more failures since the last message)")


def test_a_lock_not_had_in_time_is_not_an_outage():
    error = OperationalError("canceling statement due to lock timeout")
    error.__cause__ = LockNotAvailable("canceling statement due to lock timeout")
    assert not database_unavailable(error)
    assert database_unavailable(OperationalError("server closed the connection unexpectedly"))
    assert not database_unavailable(ValueError("no"))


@pytest.mark.parametrize(("path", "kind"), [("/api/v1/matches/", "application/json"), ("/matches/1/", "text/html")])
def test_a_database_failure_outside_the_views_answers_503_too(path, kind):
    """The project's 500 handler: a session saved as the response goes out fails outside any view."""
    request = RequestFactory().get(path)
    try:
        raise OperationalError("the database system is shutting down")
    except OperationalError:
        response = server_failure(request)
    assert response.status_code == 503
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert response["Content-Type"].startswith(kind)
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_failure(request).status_code == 500

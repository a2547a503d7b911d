"""The kept connection's health check (core/postgresql/base.py): no query while the socket is quiet,
Django's ``SELECT 1`` (and a new connection) once PostgreSQL ended the session."""

import select
import time

import psycopg
import pytest
from django.db import connection, connections

from core.postgresql.base import DatabaseWrapper, connection_quiet

pytestmark = pytest.mark.django_db(transaction=True)


def _checked(monkeypatch) -> list:
    """Run the request-start health check; return the is_usable calls it made (Django's query)."""
    calls = []
    real = DatabaseWrapper.is_usable

    def counted(self):
        calls.append(self.alias)
        return real(self)

    monkeypatch.setattr(DatabaseWrapper, "is_usable", counted)
    connection.health_check_done = False
    connection.close_if_health_check_failed()
    return calls


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_the_service_runs_on_the_backend_with_the_quiet_check():
    assert isinstance(connections["default"], DatabaseWrapper) and connection.health_check_enabled


def test_an_idle_sound_connection_is_used_without_a_query(monkeypatch):
    pid = _backend_pid()
    assert connection_quiet(connection.connection)
    assert _checked(monkeypatch) == []
    assert connection.health_check_done and _backend_pid() == pid


def test_a_connection_postgresql_ended_is_replaced_before_the_requests_first_query(monkeypatch):
    pid = _backend_pid()
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"] or "127.0.0.1", port=settings["PORT"] or 5432, user=settings["USER"],
                         dbname=settings["NAME"], autocommit=True) as other:
        assert other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0] is True
    # PostgreSQL's termination message reaches the socket, which turns readable.
    poller = select.poll()
    poller.register(connection.connection.pgconn.socket, select.POLLIN)
    deadline = time.monotonic() + 5
    while not poller.poll(100) and time.monotonic() < deadline:
        pass
    assert not connection_quiet(connection.connection)
    assert _checked(monkeypatch) == ["default"]
    assert connection.connection is None  # closed: the next query opens a new session
    assert _backend_pid() != pid


def test_a_connection_inside_a_transaction_gets_djangos_check(monkeypatch):
    _backend_pid()
    connection.connection.execute("BEGIN")
    try:
        assert not connection_quiet(connection.connection)
        assert _checked(monkeypatch) == ["default"]
    finally:
        if connection.connection is not None:
            connection.connection.execute("ROLLBACK")


def test_a_closed_connection_is_not_quiet():
    _backend_pid()
    raw = connection.connection
    connection.close()
    assert not connection_quiet(raw)

"""core.locking: rows locked in key order, a lock not had in time answered 409 with Retry-After by
its type (PostgreSQL's lock_not_available), on the API and on pages, with nothing saved."""

from __future__ import annotations

import ast
import threading

import pytest
from django.db import OperationalError, connection, transaction
from django.test import Client

from core.api import exception_handler
from core.errors import Locked
from core.locking import as_locked, lock_failed, locked_one, locked_rows
from matches.models import Match, Report
from tests.factories import MatchFactory, PlayerFactory
from tests.matches.factories_api import client_for
from tests.test_layers import ROOT, app_modules


def _hold_lock(match_id: int, taken: threading.Event, release: threading.Event) -> threading.Thread:
    """A second connection that locks the match row until ``release`` is set."""

    def hold():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match_id)
                taken.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(30)
    return thread


def _short_lock_timeout() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '150ms'")


@pytest.mark.django_db
def test_locked_rows_come_in_the_order_of_their_keys():
    players = [PlayerFactory() for _ in range(4)]
    keys = [players[2].pk, players[0].pk, players[3].pk, players[0].pk]
    with transaction.atomic():
        rows = locked_rows(type(players[0]).objects.all(), keys)
    assert [row.pk for row in rows] == sorted({players[0].pk, players[2].pk, players[3].pk})


@pytest.mark.django_db
def test_the_connection_has_the_lock_timeout_of_the_settings(settings):
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = 'lock_timeout'")
        assert int(cursor.fetchone()[0]) == settings.LOCK_TIMEOUT_MS


def test_a_lock_failure_is_known_by_its_type_not_by_its_text():
    from psycopg.errors import LockNotAvailable

    wrapped = OperationalError("canceling statement")
    wrapped.__cause__ = LockNotAvailable("canceling statement due to lock timeout")
    assert lock_failed(wrapped) and isinstance(as_locked(wrapped), Locked)
    # A message that merely mentions a lock is another failure (a server gone, say), not a 409.
    lookalike = OperationalError("could not obtain lock: server closed the connection")
    assert not lock_failed(lookalike) and as_locked(lookalike) is lookalike
    response = exception_handler(wrapped, {})
    assert response.status_code == 409 and response["Retry-After"] == "1"
    assert response.data == {"detail": "busy, try again", "code": "locked"}


@pytest.mark.django_db(transaction=True)
def test_a_row_held_past_the_lock_timeout_raises_lock_not_available():
    match = MatchFactory()
    taken, release = threading.Event(), threading.Event()
    holder = _hold_lock(match.pk, taken, release)
    try:
        _short_lock_timeout()
        with pytest.raises(OperationalError) as raised, transaction.atomic():
            locked_one(Match.objects.all(), pk=match.pk)
        assert lock_failed(raised.value)
    finally:
        release.set()
        holder.join(30)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("surface", ["api", "page"])
def test_a_report_on_a_match_someone_holds_is_a_409_with_retry_after_and_saves_nothing(surface):
    match = MatchFactory(length=5)
    alice = match.side0.player_a.user
    taken, release = threading.Event(), threading.Event()
    holder = _hold_lock(match.pk, taken, release)
    try:
        _short_lock_timeout()
        if surface == "api":
            response = client_for(alice).post(f"/api/v1/matches/{match.pk}/report/", {"score": [5, 3]}, format="json")
            assert response.json()["code"] == "locked"
        else:
            client = Client()
            client.force_login(alice)
            response = client.post(f"/matches/{match.pk}/report/", {"report-score0": 5, "report-score1": 3})
            assert "Nothing was saved" in response.content.decode()
        assert response.status_code == 409 and response["Retry-After"] == "1"
    finally:
        release.set()
        holder.join(30)
    assert not Report.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_every_row_lock_is_taken_through_core_locking():
    """One locking module: a lock taken elsewhere could forget the key order or the lock scope."""
    elsewhere = [
        f"{path.relative_to(ROOT)}, line {node.lineno}"
        for path in app_modules(ROOT) if path.relative_to(ROOT).as_posix() != "core/locking.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "select_for_update"
    ]
    assert elsewhere == []

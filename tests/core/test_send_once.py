"""An email claimed in the cache is never lost: every sender builds its messages (recipients, their
languages, the texts, all read from the database) before it claims the announcement, and releases
the claim on any failure after it (core.mail.send_once). A failure at any point, a database error
in the middle of the work included, leaves no claim behind: the retry sends, exactly once."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.cache import caches
from django.db import OperationalError, connection
from django.utils import timezone

from accounts.organiser.services import organiser_approve, organiser_request
from matches.models import PlayerClaim
from matches.services.reporting import Claim, match_confirm, match_report
from matches.tasks import claim_notify_task, match_notify_task
from rulings.models import Dispute, Ruling
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from rulings.tasks import rulings_notify_task
from tests.factories import UserFactory
from tests.matches.factories_api import make_cast
from tests.matches.factories_ratings import match_between, player
from tests.rulings.factories import confirm_score

pytestmark = pytest.mark.django_db


def fails_once(monkeypatch, module, name: str, error: BaseException) -> None:
    """``module.name`` raises ``error`` on its first call, then works."""
    real = getattr(module, name)
    calls = []

    def once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, once)


def sent_to() -> list[str]:
    return sorted(to for message in mail.outbox for to in message.to)


@pytest.fixture
def confirmed():
    alice, bob = player("alice"), player("bob")
    match = match_between(alice, bob, length=5)
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    match_confirm(match_id=match.pk, user=bob.user)
    mail.outbox.clear()
    return match


@pytest.fixture
def database_stops_after_a_claim(monkeypatch):
    """The database stops answering the first query after the first claim is taken (PostgreSQL
    stopped for a few seconds), then answers again."""
    state = {"claimed": False, "failed": False}
    backend = type(caches["default"])
    real_add = backend.add

    def add(self, key, *args, **kwargs):
        added = real_add(self, key, *args, **kwargs)
        if added and key.startswith("crawford:"):
            state["claimed"] = True
        return added

    def wrapper(execute, sql, params, many, context):
        if state["claimed"] and not state["failed"]:
            state["failed"] = True
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    monkeypatch.setattr(backend, "add", add)
    with connection.execute_wrapper(wrapper):
        yield state


def test_a_database_stop_after_the_claim_loses_no_confirmed_email(confirmed, database_stops_after_a_claim):
    """The production case: both "confirmed" emails of a match were lost with PostgreSQL stopped
    for 20 s. The task retries on the database error; both players get the email, once each."""
    result = match_notify_task.apply(args=(confirmed.pk, "confirmed"))
    assert (result.state, result.result) == ("SUCCESS", 2)
    assert match_notify_task.apply(args=(confirmed.pk, "confirmed")).result == 2  # a second delivery
    assert sent_to() == ["alice@example.com", "bob@example.com"]


def test_a_database_error_reading_the_languages_then_a_retry_sends_the_result_once(confirmed, monkeypatch):
    from matches.services import notifications

    fails_once(monkeypatch, notifications, "languages_of", OperationalError("the database is gone"))
    with pytest.raises(OperationalError):
        match_notify_task(confirmed.pk, "confirmed")
    assert mail.outbox == []
    assert match_notify_task(confirmed.pk, "confirmed") == 2  # the retry
    assert match_notify_task(confirmed.pk, "confirmed") == 2  # a redelivery sends nothing more
    assert sent_to() == ["alice@example.com", "bob@example.com"]


def test_a_failure_building_the_claim_decision_then_a_retry_sends_it_once(monkeypatch):
    from matches.services import notifications

    claimant = UserFactory(username="claire")
    guest = player("guest")
    claim = PlayerClaim.objects.create(user=claimant, player=guest, status=PlayerClaim.Status.APPROVED,
                                       statement="It is me.", decided_at=timezone.now())
    fails_once(monkeypatch, notifications, "_claim_message", OperationalError("the database is gone"))
    with pytest.raises(OperationalError):
        claim_notify_task(claim.pk)
    assert claim_notify_task(claim.pk) == 1
    assert claim_notify_task(claim.pk) == 1
    assert sent_to() == ["claire@example.com"]


def test_a_failure_writing_a_ruling_email_then_a_retry_sends_it_once(monkeypatch, django_capture_on_commit_callbacks):
    from rulings.services import notifications

    cast = make_cast()
    confirm_score(cast.match, (5, 3))
    dispute = dispute_open(match_id=cast.match.pk, user=cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT,
                           statement="I won.")
    ruling = ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.STANDS,
                         params={}, rule="RULES.md §9", reasoning="Both players agree.")
    mail.outbox.clear()
    fails_once(monkeypatch, notifications, "gettext", OperationalError("the database is gone"))
    with pytest.raises(OperationalError):
        rulings_notify_task("ruling", ruling.pk)
    assert rulings_notify_task("ruling", ruling.pk) == 2
    assert rulings_notify_task("ruling", ruling.pk) == 2
    assert sent_to() == ["alice@example.com", "bob@example.com"]


def test_a_database_error_reading_the_language_then_a_retry_tells_the_new_organiser_once(monkeypatch):
    from accounts.organiser import notifications as organiser_notifications
    from accounts.tasks import organiser_notify_task

    staff = UserFactory(username="stan", staff=True)
    request = organiser_request(user=UserFactory(username="nora"), statement="I run the Tuesday club.")
    organiser_approve(request_id=request.pk, user=staff)
    mail.outbox.clear()
    fails_once(monkeypatch, organiser_notifications, "languages_of", OperationalError("the database is gone"))
    with pytest.raises(OperationalError):
        organiser_notify_task("decided", request.pk)
    assert organiser_notify_task("decided", request.pk) == 1
    assert organiser_notify_task("decided", request.pk) == 1
    assert sent_to() == ["nora@example.com"]

"""Result emails: who gets them, that they leave only after the transaction commits, that a
second delivery of the task sends nothing, and which failures are retried."""

from __future__ import annotations

import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import OperationalError, transaction

from core.tasks import MAX_RETRIES, is_transient
from matches import tasks
from matches.models import Match
from matches.services.reporting import Claim, match_confirm, match_contest, match_override, match_report
from matches.tasks import match_notify_task
from tests.matches.factories_ratings import match_between, player, run_tasks_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def dispatched(monkeypatch):
    return run_tasks_inline(monkeypatch)


@pytest.fixture
def alice():
    return player("alice")


@pytest.fixture
def bob():
    return player("bob")


@pytest.fixture
def match(alice, bob):
    return match_between(alice, bob, length=5)


def sent() -> list[tuple[str, tuple[str, ...]]]:
    """(subject, recipients) of every email sent, in order."""
    return [(message.subject, tuple(message.to + message.cc + message.bcc)) for message in mail.outbox]


# --- who hears what ---------------------------------------------------------------------------


def test_the_other_side_is_asked_to_confirm_after_the_report_commits(match, alice, dispatched,
                                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    # Inside the transaction nothing was dispatched, let alone sent.
    assert dispatched == [] and mail.outbox == []
    for callback in callbacks:
        callback()
    assert dispatched == [("matches.tasks.match_notify_task", (match.pk, "reported"))]
    assert sent() == [("Please confirm the result of your match", ("bob@example.com",))]
    assert "5-3" in mail.outbox[0].body and f"/matches/{match.pk}/" in mail.outbox[0].body


def test_nothing_is_sent_when_the_transaction_rolls_back(match, alice, dispatched,
                                                         django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks(execute=True)
    with capture as callbacks, pytest.raises(RuntimeError), transaction.atomic():
        match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
        raise RuntimeError("the request failed after the report")
    assert callbacks == [] and dispatched == [] and mail.outbox == []
    assert not match.reports.exists()


def test_both_sides_hear_of_a_confirmed_result_each_on_his_own(match, alice, bob, dispatched,
                                                               django_capture_on_commit_callbacks):
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    with django_capture_on_commit_callbacks(execute=True):
        match_confirm(match_id=match.pk, user=bob.user)
    # One message per recipient: no player learns the other's address.
    assert sorted(sent()) == [("Match result confirmed", ("alice@example.com",)),
                              ("Match result confirmed", ("bob@example.com",))]


def test_both_sides_hear_of_a_contested_result(match, alice, bob, dispatched, django_capture_on_commit_callbacks):
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    with django_capture_on_commit_callbacks(execute=True):
        match_contest(match_id=match.pk, user=bob.user, statement="I won the last game")
    assert sorted(sent()) == [("Match result disputed", ("alice@example.com",)),
                              ("Match result disputed", ("bob@example.com",))]


def test_both_sides_hear_of_two_reports_that_disagree(match, alice, bob, dispatched,
                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=match.pk, user=bob.user, claim=Claim((3, 5)))
    assert sorted(sent()) == [("Match result disputed", ("alice@example.com",)),
                              ("Match result disputed", ("bob@example.com",))]
    assert "5-3 / 3-5" in mail.outbox[0].body


def test_a_disputed_match_reported_again_and_again_tells_no_one_again(match, alice, bob, dispatched,
                                                                     django_capture_on_commit_callbacks):
    # One email per change of state: the burst of changed reports of a disputed match sent
    # both players one email each per report.
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
        match_report(match_id=match.pk, user=bob.user, claim=Claim((3, 5)))
    mail.outbox.clear()
    for score in [(5, 0), (5, 1), (5, 2), (5, 4), (6, 3), (7, 3), (8, 3), (9, 3), (5, 3), (10, 3)]:
        with django_capture_on_commit_callbacks(execute=True):
            match_report(match_id=match.pk, user=alice.user, claim=Claim(score))
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=match.pk, user=bob.user, claim=Claim((3, 5)))
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    assert sent() == []
    # Agreement is news again: the match is confirmed, and both hear of it once.
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=match.pk, user=bob.user, claim=Claim((10, 3)))
    assert sorted(sent()) == [("Match result confirmed", ("alice@example.com",)),
                              ("Match result confirmed", ("bob@example.com",))]


def test_a_report_changed_before_it_is_confirmed_asks_the_other_side_once(match, alice, dispatched,
                                                                         django_capture_on_commit_callbacks):
    for score in [(5, 3), (5, 2), (5, 4)]:
        with django_capture_on_commit_callbacks(execute=True):
            match_report(match_id=match.pk, user=alice.user, claim=Claim(score))
    assert sent() == [("Please confirm the result of your match", ("bob@example.com",))]
    assert dispatched == [("matches.tasks.match_notify_task", (match.pk, "reported"))]


def test_both_sides_hear_of_the_organisers_result(match, dispatched, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match_override(match_id=match.pk, user=match.organiser, claim=Claim((2, 5)))
    assert sorted(sent()) == [("Match result confirmed", ("alice@example.com",)),
                              ("Match result confirmed", ("bob@example.com",))]
    assert match.organiser.email not in {to for _, tos in sent() for to in tos}


def test_only_players_with_a_user_and_an_address_are_emailed(alice, dispatched, django_capture_on_commit_callbacks):
    carol = player("carol", email="")  # a user without an address
    bob = player("bob")
    dora = player("dora", user=False)  # known only from an imported match file
    pairs = match_between([alice, carol], [bob, dora], length=3)
    with django_capture_on_commit_callbacks(execute=True):
        match_report(match_id=pairs.pk, user=alice.user, claim=Claim((3, 1)))
    assert sent() == [("Please confirm the result of your match", ("bob@example.com",))]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_confirm(match_id=pairs.pk, user=bob.user)
    assert sorted(to for _, tos in sent() for to in tos) == ["alice@example.com", "bob@example.com"]


def test_a_side_without_any_address_gets_nothing(alice):
    nobody = player("nobody", user=False)
    imported = match_between(alice, nobody)
    Match.objects.filter(pk=imported.pk).update(status=Match.Status.CONFIRMED, score0=5, score1=0, winner=0)
    imported.reports.create(side=None, reporter=imported.organiser, score0=5, score1=0, winner=0, status="confirmed")
    assert match_notify_task(imported.pk, "confirmed") == 1
    assert sent() == [("Match result confirmed", ("alice@example.com",))]


def test_a_reminder_for_a_state_the_match_has_left_sends_nothing(match, alice, bob):
    # The "please confirm" task runs late, after bob has already confirmed.
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    match_confirm(match_id=match.pk, user=bob.user)
    assert match_notify_task(match.pk, "reported") == 0
    assert match_notify_task(match.pk, "disputed") == 0
    assert mail.outbox == []


# --- the task run twice, and failures ---------------------------------------------------------


def test_the_task_run_twice_sends_each_email_once(match, alice, bob):
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    assert match_notify_task(match.pk, "reported") == 1
    assert match_notify_task(match.pk, "reported") == 1
    assert len(mail.outbox) == 1
    match_confirm(match_id=match.pk, user=bob.user)
    assert [match_notify_task(match.pk, "confirmed") for _ in range(2)] == [2, 2]
    assert len(mail.outbox) == 3


def test_a_new_report_is_a_new_email(match, alice):
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    match_notify_task(match.pk, "reported")
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 4)))  # alice corrects her report
    match_notify_task(match.pk, "reported")
    assert len(mail.outbox) == 2 and "5-4" in mail.outbox[1].body


@pytest.mark.parametrize(
    ("error", "transient"),
    [
        (smtplib.SMTPServerDisconnected("Connection unexpectedly closed"), True),
        (smtplib.SMTPResponseException(421, b"Service not available, closing channel"), True),
        (smtplib.SMTPResponseException(451, b"Local error in processing"), True),
        (smtplib.SMTPSenderRefused(452, b"Insufficient storage", "noreply@crawford.invalid"), True),
        (smtplib.SMTPConnectError(421, b"Too many connections"), True),
        (ConnectionRefusedError(111, "Connection refused"), True),
        (TimeoutError("timed out"), True),
        (OperationalError("server closed the connection unexpectedly"), True),
        (smtplib.SMTPResponseException(550, b"Mailbox unavailable"), False),
        (smtplib.SMTPDataError(554, b"Transaction failed"), False),
        (smtplib.SMTPAuthenticationError(535, b"Authentication failed"), False),
        (smtplib.SMTPRecipientsRefused({"bob@example.com": (550, b"No such user")}), False),
        (Match.DoesNotExist("Match matching query does not exist."), False),
        (ValueError("unknown notification event"), False),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, BaseException) else str(value),
)
def test_it_tells_transient_failures_from_permanent_ones(error, transient):
    assert is_transient(error) is transient


class FailingBackend(BaseEmailBackend):
    """A mail server that fails with the errors queued in ``failures``, then delivers."""

    failures: list[BaseException] = []
    attempts = 0
    delivered: list = []

    def send_messages(self, messages):
        type(self).attempts += 1
        if self.failures:
            raise self.failures.pop(0)
        type(self).delivered.extend(messages)
        return len(messages)


@pytest.fixture
def server(settings):
    settings.EMAIL_BACKEND = f"{__name__}.FailingBackend"
    FailingBackend.failures, FailingBackend.attempts, FailingBackend.delivered = [], 0, []
    return FailingBackend


@pytest.fixture
def confirmed(match, alice, bob):
    match_report(match_id=match.pk, user=alice.user, claim=Claim((5, 3)))
    match_confirm(match_id=match.pk, user=bob.user)
    return match


@pytest.mark.parametrize("error", [smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
                                   smtplib.SMTPResponseException(451, b"Try again later")],
                         ids=["disconnected", "4xx"])
def test_a_transient_failure_is_retried_until_the_email_leaves(server, confirmed, error):
    server.failures = [error, error]
    result = match_notify_task.apply(args=(confirmed.pk, "confirmed"))
    assert (result.state, result.result) == ("SUCCESS", 2)
    assert server.attempts == 3
    assert sorted(m.to[0] for m in server.delivered) == ["alice@example.com", "bob@example.com"]


def test_retries_are_bounded_and_a_later_run_can_still_send(server, confirmed):
    server.failures = [smtplib.SMTPServerDisconnected("down")] * (MAX_RETRIES + 5)
    result = match_notify_task.apply(args=(confirmed.pk, "confirmed"))
    assert result.state == "FAILURE" and isinstance(result.result, smtplib.SMTPServerDisconnected)
    assert server.attempts == MAX_RETRIES + 1 and server.delivered == []
    # Nothing was sent, so nothing was marked as sent: the next delivery sends.
    server.failures = []
    assert match_notify_task.apply(args=(confirmed.pk, "confirmed")).result == 2
    assert len(server.delivered) == 2


@pytest.mark.parametrize(
    "error",
    [smtplib.SMTPResponseException(550, b"Mailbox unavailable"),
     smtplib.SMTPRecipientsRefused({"bob@example.com": (550, b"No such user")})],
    ids=["5xx", "recipients refused"],
)
def test_a_permanent_failure_is_not_retried(server, confirmed, error):
    server.failures = [error, error]
    result = match_notify_task.apply(args=(confirmed.pk, "confirmed"))
    assert result.state == "FAILURE" and result.result is error
    assert server.attempts == 1 and server.delivered == []


def test_a_missing_match_is_not_retried(server, monkeypatch):
    calls = []
    real = tasks.match_notify

    def notify(**kwargs):
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(tasks, "match_notify", notify)
    result = match_notify_task.apply(args=(0, "confirmed"))
    assert result.state == "FAILURE" and isinstance(result.result, Match.DoesNotExist)
    assert calls == [{"match_id": 0, "event": "confirmed"}] and server.attempts == 0


def test_an_unknown_event_is_refused_and_not_retried(server, confirmed):
    result = match_notify_task.apply(args=(confirmed.pk, "cancelled"))
    assert result.state == "FAILURE" and isinstance(result.result, ValueError)
    assert "cancelled" in str(result.result) and server.attempts == 0

"""The organiser role's services: a player asks, staff approve or refuse (with a reason he is
shown and emailed), staff withdraw it; one open request per user, decided once."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.core import mail
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.models_requests import OrganiserRequest
from accounts.organiser.services import organiser_approve, organiser_refuse, organiser_request, organiser_revoke
from audit.describe import describe
from audit.models import AuditEntry
from core.errors import Conflict, DomainError, NotAllowed
from tournaments.models import Tournament
from tournaments.services import EventRules, tournament_create

pytestmark = pytest.mark.django_db

STATEMENT = "I run the Thursday club at the Red Lion, Leeds."


def _fresh(user: User) -> User:
    return User.objects.get(pk=user.pk)


def test_a_request_approved_by_staff_makes_him_an_organiser_who_creates_an_event(
        pia, sam, dispatched, django_capture_on_commit_callbacks):
    with pytest.raises(NotAllowed):
        tournament_create(user=pia, rules=EventRules(name="Leeds Open"))
    with django_capture_on_commit_callbacks(execute=True):
        request = organiser_request(user=pia, statement=f"  {STATEMENT}\n")
    assert (request.status, request.statement) == ("open", STATEMENT) and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        approved = organiser_approve(request_id=request.pk, user=sam)
    pia = _fresh(pia)
    assert approved.status == "approved" and approved.decided_by == sam and approved.decided_at is not None
    assert pia.role == User.Role.ORGANISER and pia.is_organiser
    assert [(m.subject, m.to) for m in mail.outbox] == [("You are an organiser now", ["pia@example.com"])]
    assert "/organiser/" in mail.outbox[0].body
    event = tournament_create(user=pia, rules=EventRules(name="Leeds Open"))
    assert Tournament.objects.get().organiser == pia and event.name == "Leeds Open"
    said = [describe(e) for e in AuditEntry.objects.filter(action__startswith="organiser.").order_by("pk")]
    assert said == ["Pia asked to become an organiser.", "Sam approved pia's request to become an organiser."]


def test_approving_again_changes_nothing_and_sends_nothing_more(pia, sam, dispatched,
                                                                django_capture_on_commit_callbacks):
    request = organiser_request(user=pia, statement=STATEMENT)
    with django_capture_on_commit_callbacks(execute=True):
        first = organiser_approve(request_id=request.pk, user=sam)
        again = organiser_approve(request_id=request.pk, user=sam)
    assert again.decided_at == first.decided_at and len(mail.outbox) == 1
    assert AuditEntry.objects.filter(action="organiser.approved").count() == 1


def test_a_refusal_carries_its_reason_to_him_and_leaves_his_role(pia, sam, dispatched,
                                                                 django_capture_on_commit_callbacks):
    request = organiser_request(user=pia, statement=STATEMENT)
    with django_capture_on_commit_callbacks(execute=True):
        refused = organiser_refuse(request_id=request.pk, user=sam, reason="  We could not find the Red Lion club.  ")
    assert (refused.status, refused.reason) == ("refused", "We could not find the Red Lion club.")
    assert _fresh(pia).role == User.Role.PLAYER and not _fresh(pia).is_organiser
    assert [(m.subject, m.to) for m in mail.outbox] == [("Your request to become an organiser was refused",
                                                         ["pia@example.com"])]
    assert "We could not find the Red Lion club." in mail.outbox[0].body
    entry = AuditEntry.objects.get(action="organiser.refused")
    assert describe(entry) == ("Sam refused pia's request to become an organiser, saying: We could not find the Red "
                               "Lion club.")
    # Refused, he may ask again (a new request: the refused one stays in his history).
    again = organiser_request(user=pia, statement=STATEMENT + " Since 2019.")
    assert again.pk != request.pk and OrganiserRequest.objects.filter(user=pia).count() == 2


def test_a_second_open_request_is_refused_clearly_and_nothing_is_saved(pia):
    organiser_request(user=pia, statement=STATEMENT)
    with pytest.raises(Conflict) as refused:
        organiser_request(user=pia, statement="Again, please.")
    assert refused.value.code == "request_open" and "waiting for staff" in refused.value.message
    assert OrganiserRequest.objects.filter(user=pia).count() == 1


def test_the_database_keeps_one_open_request_per_user_whatever_writes_it(pia):
    OrganiserRequest.objects.create(user=pia, statement=STATEMENT)
    with pytest.raises(IntegrityError), transaction.atomic():
        OrganiserRequest.objects.create(user=pia, statement="A second one, around the service.")
    assert OrganiserRequest.objects.filter(user=pia).count() == 1


def test_an_organiser_or_staff_has_nothing_to_ask_for(otto, sam):
    for user in (otto, sam):
        with pytest.raises(Conflict) as refused:
            organiser_request(user=user, statement=STATEMENT)
        assert refused.value.code == "already_organiser"
    assert not OrganiserRequest.objects.exists()


@pytest.mark.parametrize(("statement", "message"), [
    ("", "say which club or event you run"),
    ("   \n ", "say which club or event you run"),
    ("x" * 1001, "at most 1000 characters"),
    ("bad\x00byte", "NUL"),
    (None, "say which club or event you run"),
])
def test_a_bad_statement_is_refused_on_its_field_and_nothing_is_saved(pia, statement, message):
    with pytest.raises(DomainError) as refused:
        organiser_request(user=pia, statement=statement)
    assert refused.value.details["field"] == "statement" and message in refused.value.message
    assert refused.value.status == 400 and not OrganiserRequest.objects.exists()


def test_nobody_but_staff_decides_and_nothing_changes(pia, otto, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    for user in (pia, otto):
        for decide, kwargs in ((organiser_approve, {"request_id": request.pk}),
                               (organiser_refuse, {"request_id": request.pk, "reason": "No."}),
                               (organiser_revoke, {"user_id": otto.pk, "reason": "No."})):
            with pytest.raises(NotAllowed) as refused:
                decide(user=user, **kwargs)
            assert refused.value.code == "not_staff"
    request.refresh_from_db()
    assert request.status == "open" and _fresh(pia).role == "player" and _fresh(otto).role == "organiser"
    assert not AuditEntry.objects.exclude(action="organiser.requested").exists()


def test_a_refusal_needs_a_reason_and_a_decided_request_cannot_be_decided_the_other_way(pia, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    with pytest.raises(DomainError) as refused:
        organiser_refuse(request_id=request.pk, user=sam, reason="  ")
    assert refused.value.details["field"] == "reason"
    request.refresh_from_db()
    assert request.status == "open"
    organiser_approve(request_id=request.pk, user=sam)
    with pytest.raises(Conflict) as conflict:
        organiser_refuse(request_id=request.pk, user=sam, reason="Changed my mind.")
    assert conflict.value.code == "already_decided" and "approved" in conflict.value.message
    assert _fresh(pia).role == "organiser"
    with pytest.raises(OrganiserRequest.DoesNotExist):
        organiser_approve(request_id=request.pk + 1000, user=sam)


def test_staff_withdraw_the_role_with_a_reason_and_he_creates_no_more_events(
        otto, sam, dispatched, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        organiser_revoke(user_id=otto.pk, user=sam, reason="The club closed.")
    assert _fresh(otto).role == "player"
    assert [(m.subject, m.to) for m in mail.outbox] == [("Your organiser role was withdrawn", ["otto@example.com"])]
    assert "The club closed." in mail.outbox[0].body
    with pytest.raises(NotAllowed):
        tournament_create(user=_fresh(otto), rules=EventRules(name="Otto Open"))
    assert describe(AuditEntry.objects.get(action="organiser.revoked")) == (
        "Sam withdrew otto's organiser role, saying: The club closed.")
    with pytest.raises(Conflict) as refused:
        organiser_revoke(user_id=otto.pk, user=sam, reason="Again.")
    assert refused.value.code == "not_organiser"


def test_nothing_is_emailed_when_the_decision_rolls_back(pia, sam, dispatched, django_capture_on_commit_callbacks):
    request = organiser_request(user=pia, statement=STATEMENT)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RuntimeError), \
            transaction.atomic():
        organiser_approve(request_id=request.pk, user=sam)
        raise RuntimeError("the request failed after the approval")
    assert callbacks == [] and dispatched == [] and mail.outbox == []
    request.refresh_from_db()
    assert request.status == "open" and _fresh(pia).role == "player"


def test_the_refusal_email_speaks_the_players_own_language(pia, sam, dispatched, django_capture_on_commit_callbacks,
                                                          tmp_path, settings):
    # The core fragment compiled as the only catalog: the email is built by a task, with no request.
    target = tmp_path / "ko" / "LC_MESSAGES"
    target.mkdir(parents=True)
    fragment = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.po"
    subprocess.run(["msgfmt", "-o", str(target / "django.mo"), str(fragment)], check=True)
    settings.LOCALE_PATHS = [str(tmp_path)]
    User.objects.filter(pk=pia.pk).update(preferred_language=User.Language.KOREAN)
    request = organiser_request(user=pia, statement=STATEMENT)
    with django_capture_on_commit_callbacks(execute=True):
        organiser_refuse(request_id=request.pk, user=sam, reason="Red Lion?")
    (sent,) = mail.outbox
    assert sent.subject == "주최자 신청이 거절되었습니다" and "Red Lion?" in sent.body
    assert sent.body.startswith("주최자 신청이 다음 사유로 거절되었습니다.")

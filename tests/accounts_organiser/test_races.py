"""Requests and decisions at the same moment: the applicant's row lock and the one-open-request
constraint decide them one after the other."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.models_requests import OrganiserRequest
from accounts.organiser.services import organiser_approve, organiser_refuse, organiser_request
from tests.concurrency import at_once
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_requests_at_once_leave_one_open_and_refuse_the_other_clearly():
    pia = UserFactory(username="pia")
    outcomes = at_once([lambda: organiser_request(user=pia, statement="North club."),
                        lambda: organiser_request(user=pia, statement="North club, Leeds.")])
    assert sorted(outcomes) == ["done", "request_open"]
    assert OrganiserRequest.objects.filter(user=pia, status="open").count() == 1


def test_an_approval_and_a_refusal_at_once_decide_the_request_once():
    pia, sam = UserFactory(username="pia"), UserFactory(username="sam", staff=True)
    request = organiser_request(user=pia, statement="North club.")
    outcomes = at_once([lambda: organiser_approve(request_id=request.pk, user=sam),
                        lambda: organiser_refuse(request_id=request.pk, user=sam, reason="Unknown club.")])
    assert sorted(outcomes) == ["already_decided", "done"]
    request.refresh_from_db()
    role = User.objects.get(pk=pia.pk).role
    assert (request.status, role) in (("approved", "organiser"), ("refused", "player"))

"""The organiser-requests API: a player asks and reads his own; staff read all, approve and refuse;
bad bodies are 400s naming the field, in the house's error body, with nothing saved."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.models_requests import OrganiserRequest
from accounts.organiser.services import organiser_request
from tests.factories import PlayerFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/organiser-requests/"
STATEMENT = "I run the Thursday club at the Red Lion, Leeds."


def _decide(request_id: int, verb: str) -> str:
    return f"{URL}{request_id}/{verb}/"


def test_request_then_staff_approve_then_he_creates_an_event(pia, sam):
    asked = client_for(pia).post(URL, {"statement": STATEMENT}, format="json")
    assert asked.status_code == 201
    body = asked.json()
    assert (body["status"], body["statement"], body["applicant"], body["reason"]) == ("open", STATEMENT, "Pia Player", "")
    approved = client_for(sam).post(_decide(body["id"], "approve"), {}, format="json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert User.objects.get(pk=pia.pk).role == "organiser"
    made = client_for(pia).post("/api/v1/tournaments/", {"name": "Leeds Open"}, format="json")
    assert made.status_code == 201


def test_a_refusal_is_shown_to_him_with_its_reason_and_his_role_stays(pia, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    refused = client_for(sam).post(_decide(request.pk, "refuse"), {"reason": "Unknown club."}, format="json")
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    mine = client_for(pia).get(URL).json()["results"]
    assert [(r["status"], r["reason"]) for r in mine] == [("refused", "Unknown club.")]
    assert User.objects.get(pk=pia.pk).role == "player"


def test_a_second_open_request_is_a_409_saying_so(pia):
    client = client_for(pia)
    assert client.post(URL, {"statement": STATEMENT}, format="json").status_code == 201
    again = client.post(URL, {"statement": "Again."}, format="json")
    assert again.status_code == 409
    assert again.json() == {"detail": "you have asked already: your request is waiting for staff", "code": "request_open"}
    assert OrganiserRequest.objects.count() == 1


def test_nobody_but_staff_decides(pia, otto):
    request = organiser_request(user=pia, statement=STATEMENT)
    for user in (pia, otto):
        for verb, body in (("approve", {}), ("refuse", {"reason": "No."})):
            response = client_for(user).post(_decide(request.pk, verb), body, format="json")
            assert response.status_code == 403 and response.json()["code"] == "not_staff"
    assert client_for(None).post(_decide(request.pk, "approve"), {}, format="json").status_code == 401
    request.refresh_from_db()
    assert request.status == "open"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({}, "statement", "This field is required."),
    ({"statement": ""}, "statement", "This field may not be blank."),
    ({"statement": 5}, "statement", "Not a valid string."),
    ({"statement": "x" * 1001}, "statement", "Ensure this field has no more than 1000 characters."),
    ({"statement": STATEMENT, "status": "approved"}, "status", "unknown field"),
])
def test_a_bad_request_body_is_a_400_naming_the_field_and_nothing_is_saved(pia, body, field, message):
    response = client_for(pia).post(URL, body, format="json")
    assert response.status_code == 400
    label = "Statement" if field == "statement" else f"“{field}”"  # the field's label; a key no field has: as sent
    assert response.json()["errors"][field] == [message] and response.json()["detail"] == f"{label}: {message}"
    assert not OrganiserRequest.objects.exists()


@pytest.mark.parametrize(("body", "field"), [({}, "reason"), ({"reason": "  "}, "reason"), ({"reason": ["No"]}, "reason"),
                                             ({"reason": "No", "role": "organiser"}, "role")])
def test_a_refusal_without_a_good_reason_is_a_400_and_the_request_stays_open(pia, sam, body, field):
    request = organiser_request(user=pia, statement=STATEMENT)
    response = client_for(sam).post(_decide(request.pk, "refuse"), body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    request.refresh_from_db()
    assert request.status == "open"
    assert client_for(sam).post(_decide(request.pk, "approve"), {"note": "x"}, format="json").status_code == 400


def test_unknown_and_decided_requests(pia, sam):
    request = organiser_request(user=pia, statement=STATEMENT)
    staff = client_for(sam)
    missing = staff.post(_decide(request.pk + 1000, "approve"), {}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert staff.post(_decide(request.pk, "approve"), {}, format="json").status_code == 200
    assert staff.post(_decide(request.pk, "approve"), {}, format="json").status_code == 200  # again: nothing changes
    conflict = staff.post(_decide(request.pk, "refuse"), {"reason": "No."}, format="json")
    assert conflict.status_code == 409 and conflict.json()["code"] == "already_decided"


def test_each_reads_his_own_and_staff_read_all_in_a_fixed_number_of_queries(pia, sam, django_assert_num_queries):
    others = [PlayerFactory(user__username=f"p{n}").user for n in range(5)]
    for user in [pia, *others]:
        organiser_request(user=user, statement=f"{user.username}'s club")
    mine = client_for(pia).get(URL).json()
    assert [r["statement"] for r in mine["results"]] == ["pia's club"]
    staff = client_for(sam)
    staff.get(URL)  # the token's user cached, as for every request after the first
    with django_assert_num_queries(3):  # the token with its user, the count, the page (applicant and player joined)
        everyone = staff.get(URL, {"status": "open"}).json()
    assert everyone["count"] == 6 and {r["applicant"] for r in everyone["results"]} >= {"Pia Player", "P0"}
    assert all("email" not in str(r).lower() and "@" not in str(r) for r in everyone["results"])
    bad = staff.get(URL, {"status": "maybe"})
    assert bad.status_code == 400 and "status" in bad.json()["errors"]

"""CSRF: a write signed in by the session cookie needs the CSRF token, on the pages and on the API
(DRF's SessionAuthentication checks it); without it the answer is 403 and nothing changes. A
write signed by an API token needs none: a browser never sends that header by itself. The test
clients here enforce the checks, as a browser's requests meet them."""

from __future__ import annotations

import io

import pytest
from django.test import Client

from matches.models import ImportJob, Match, Report
from matches.services.reporting import claim_make, match_report
from tests.matches.factories_api import PASSWORD, client_for, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return make_cast()


def signed_in(user) -> tuple[Client, str]:
    """A browser-like client signed in as ``user`` through the sign-in page, and its CSRF token."""
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    token = client.cookies["csrftoken"].value
    response = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD,
                                                "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    return client, client.cookies["csrftoken"].value  # rotated at sign-in


def reports_of(match: Match) -> list[tuple]:
    return list(Report.objects.filter(match=match).values_list("side", "score0", "score1", "status"))


def test_an_api_post_with_the_session_cookie_and_no_csrf_token_is_refused_and_changes_nothing(cast):
    client, _ = signed_in(cast.alice)
    response = client.post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 3]}, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied" and "CSRF" in response.json()["detail"]
    assert reports_of(cast.match) == []


def test_an_api_post_with_the_session_cookie_and_the_csrf_token_is_taken(cast):
    client, token = signed_in(cast.alice)
    response = client.post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 3]},
                           content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200 and response.json()["status"] == "reported"
    assert reports_of(cast.match) == [(0, 5, 3, "pending")]


def test_a_wrong_csrf_token_is_refused_like_none(cast):
    client, token = signed_in(cast.alice)
    response = client.post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 3]},
                           content_type="application/json", HTTP_X_CSRFTOKEN="x" * len(token))
    assert response.status_code == 403
    assert reports_of(cast.match) == []


def test_an_api_upload_with_the_session_cookie_needs_the_csrf_token_too(cast):
    client, token = signed_in(cast.organiser)
    upload = io.BytesIO(b" 1 point match\n")
    upload.name = "one.mat"
    assert client.post("/api/v1/imports/", {"files": [upload]}).status_code == 403
    assert not ImportJob.objects.exists()
    upload.seek(0)
    assert client.post("/api/v1/imports/", {"files": [upload]}, HTTP_X_CSRFTOKEN=token).status_code == 202
    assert ImportJob.objects.count() == 1


def test_an_api_post_with_a_token_needs_no_csrf_token(cast):
    client = client_for(cast.alice, auth="token", enforce_csrf=True)
    response = client.post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 3]}, format="json")
    assert response.status_code == 200
    assert reports_of(cast.match) == [(0, 5, 3, "pending")]


def test_a_page_post_without_the_csrf_token_is_refused_and_changes_nothing(cast):
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    client, _ = signed_in(cast.bob)
    response = client.post(f"/matches/{match.pk}/confirm/")
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.score0 is None
    assert reports_of(match) == [(0, 5, 3, "pending")]


def test_a_page_post_with_the_csrf_token_is_taken(cast):
    match = cast.match
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, (5, 3), None))
    client, token = signed_in(cast.bob)
    response = client.post(f"/matches/{match.pk}/confirm/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == (Match.Status.CONFIRMED, 5, 3)


def test_the_sign_in_page_needs_the_csrf_token(cast):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session

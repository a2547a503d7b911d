"""Request size limits outside the matches API's own tests (tests/matches/test_api_reports.py and
test_api_imports.py cover a report's body and each uploaded file): a form or body over
DATA_UPLOAD_MAX_MEMORY_SIZE, or a whole request over MAX_REQUEST_BYTES (many files), gets a 413,
and nothing is saved."""

from __future__ import annotations

import io

import pytest

from accounts.models import ApiToken
from matches.models import ImportJob
from tests.factories import UserFactory
from tests.matches.factories_api import PASSWORD, client_for

pytestmark = pytest.mark.django_db


def test_an_import_whose_form_is_over_the_limit_gets_a_413_and_starts_nothing(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    upload = io.BytesIO(b" 1 point match\n")
    upload.name = "one.mat"
    response = client_for(UserFactory()).post("/api/v1/imports/", {"files": [upload], "note": "x" * 5000},
                                              format="multipart")
    assert response.status_code == 413
    assert response.json() == {"detail": "the request body is over the limit of 1000\xa0bytes", "code": "body_too_large"}
    assert not ImportJob.objects.exists()


def test_a_token_request_over_the_limit_gets_a_413_and_no_token(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    user = UserFactory(username="alice")
    response = client_for(None).post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD,
                                                             "padding": "x" * 5000}, format="json")
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"
    assert not ApiToken.objects.filter(user=user).exists()


@pytest.mark.parametrize("path", ["/api/v1/imports/", "/imports/"])
def test_a_body_over_the_total_limit_is_refused_before_it_is_read_and_starts_nothing(settings, path):
    settings.MAX_REQUEST_BYTES = 4000
    user = UserFactory()
    files = []
    for number in range(3):  # each file under the per-file limit, together over the total
        upload = io.BytesIO(b" 1 point match\n" + b" " * 1500)
        upload.name = f"m{number}.mat"
        files.append(upload)
    client = client_for(user) if path.startswith("/api/") else client_for(user, auth="session")
    response = client.post(path, {"files": files}, format="multipart")
    assert response.status_code == 413
    if path.startswith("/api/"):
        # The limit in the reader's units (4000 bytes are 3.9 KB).
        assert response.json() == {"detail": "the request body is over the limit of 3.9\xa0KB", "code": "body_too_large"}
    else:
        assert response.content.decode() == "The request body is over the limit of 3.9\xa0KB."
    assert not ImportJob.objects.exists()
    settings.MAX_REQUEST_BYTES = 10**6
    assert client.post(path, {"files": files[:1]}, format="multipart").status_code != 413

"""Request size limits outside the matches API's own tests (tests/matches/test_api_reports.py and
test_api_imports.py cover a report's body and each uploaded file): a form or body over
DATA_UPLOAD_MAX_MEMORY_SIZE gets a 413 in the error body, and nothing is saved."""

from __future__ import annotations

import io

import pytest
from rest_framework.authtoken.models import Token

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
    assert response.json() == {"detail": "the request body is larger than the upload limit", "code": "body_too_large"}
    assert not ImportJob.objects.exists()


def test_a_token_request_over_the_limit_gets_a_413_and_no_token(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    user = UserFactory(username="alice")
    response = client_for(None).post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD,
                                                             "padding": "x" * 5000}, format="json")
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"
    assert not Token.objects.filter(user=user).exists()

"""Project-wide error bodies: the API always answers in JSON, even outside DRF's views."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/matches/abc/", "/api/v1/nothing-here/"])
def test_an_unknown_api_path_gets_the_json_error_body(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_an_unknown_page_gets_a_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_body_over_the_limit_gets_413_in_the_error_body(client, settings):
    from tests.factories import MatchFactory

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    match = MatchFactory()
    client.force_login(match.side0.player_a.user)
    body = '{"statement": "' + "x" * 5000 + '"}'
    response = client.post(f"/api/v1/matches/{match.pk}/contest/", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "body_too_large"
    assert not match.reports.exists()


def test_a_service_refusal_names_its_field_and_location_in_the_error_body():
    from core.api import exception_handler
    from core.errors import Conflict, DomainError

    refusal = DomainError("side is 0 or 1", code="bad_ruling", field="side", reason="bad_side", step=4, secret=[1])
    body = exception_handler(refusal, {}).data
    assert body == {"detail": "side is 0 or 1", "code": "bad_ruling", "field": "side", "reason": "bad_side", "step": 4,
                    "errors": {"side": ["side is 0 or 1"]}}
    stale = exception_handler(Conflict("the table has changed", code="stale_table", version=7), {})
    assert (stale.status_code, stale.data) == (409, {"detail": "the table has changed", "code": "stale_table", "version": 7})

"""JSON read within bounds (core/parsers.py): a body nested too deep is a 400 naming the problem on
every operation that takes JSON, never the RecursionError of Python's json module (a 500); a body
over the limit is the one 413; JSON typed into a page is read with the same bound."""

from __future__ import annotations

import io
import re

import pytest
import yaml
from django.core.exceptions import RequestDataTooBig
from rest_framework.exceptions import ParseError

from chouette.forms import FullRecordForm
from core.parsers import MAX_JSON_DEPTH, JSONParser, JSONTooDeep, json_depth_check, json_loads
from tests.factories import UserFactory
from tests.matches.factories_api import client_for, make_cast

DEEP = "[" * 5000 + "]" * 5000


def nested(levels: int) -> str:
    return '{"a": ' * (levels - 1) + "[]" + "}" * (levels - 1)


# --- the bound itself -------------------------------------------------------------------------


def test_json_nested_to_the_bound_is_read_and_one_level_more_is_refused():
    assert json_loads(nested(MAX_JSON_DEPTH))["a"]["a"] is not None
    with pytest.raises(JSONTooDeep, match=f"nested more than {MAX_JSON_DEPTH} levels"):
        json_loads(nested(MAX_JSON_DEPTH + 1))


def test_brackets_inside_strings_do_not_count():
    text = '{"note": "' + "[{" * 1000 + '\\" [[[[", "games": [[{"type": "roll"}]]}'
    json_depth_check(text)
    assert json_loads(text)["games"] == [[{"type": "roll"}]]


def test_json_nested_a_thousand_levels_deep_is_refused_not_a_recursion_error():
    with pytest.raises(JSONTooDeep):
        json_loads(DEEP)
    with pytest.raises(ValueError, match="NaN is not valid JSON"):
        json_loads('{"score": NaN}')


def test_the_parser_refuses_a_deep_body_as_a_parse_error_and_a_large_one_as_too_big(settings):
    with pytest.raises(ParseError) as refused:
        JSONParser().parse(io.BytesIO(DEEP.encode()))
    assert refused.value.get_codes() == "too_deep"
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    with pytest.raises(RequestDataTooBig):
        JSONParser().parse(io.BytesIO(b'{"statement": "' + b"x" * 2000 + b'"}'))
    assert JSONParser().parse(io.BytesIO(b'{"statement": "' + b"x" * 900 + b'"}'))["statement"] == "x" * 900


# --- through the API --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_deep_body_to_the_token_endpoint_is_a_400_for_anyone():
    client = client_for(None)
    response = client.post("/api/v1/auth/token/", data=DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": f"JSON parse error - the JSON is nested more than {MAX_JSON_DEPTH} levels "
                                         "deep", "code": "too_deep"}


@pytest.mark.django_db
def test_a_deep_body_to_a_report_is_a_400_and_saves_nothing():
    cast = make_cast()
    response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/",
                                           data='{"score": [5, 3], "games": ' + DEEP + "}",
                                           content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "too_deep")
    assert not cast.match.reports.exists()


@pytest.mark.django_db
def test_no_operation_that_takes_json_answers_a_deep_body_with_a_server_error(client):
    """Every operation of the schema with a JSON body, as staff (who may call the most of them),
    with every id 1: refused for its id, its permissions or its body, never a 500."""
    schema = yaml.safe_load(client.get("/api/schema/").content)
    staff = client_for(UserFactory(staff=True))
    staff.raise_request_exception = False
    answers = {}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if "application/json" not in operation.get("requestBody", {}).get("content", {}):
                continue
            url = re.sub(r"\{[^}]+\}", "1", path)
            response = getattr(staff, method)(url, data=DEEP, content_type="application/json")
            answers[f"{method} {path}"] = (response.status_code, response.json().get("code"))
    assert len(answers) > 30
    assert not [op for op, (status, _) in answers.items() if status >= 500]
    assert all(code == "too_deep" for status, code in answers.values() if status == 400)
    assert answers["post /api/v1/matches/"] == (400, "too_deep")


def test_json_typed_into_a_page_is_read_with_the_same_bound():
    form = FullRecordForm(data={"record": DEEP})
    assert not form.is_valid()
    assert form.errors["record"] == [f"not JSON: the JSON is nested more than {MAX_JSON_DEPTH} levels deep"]

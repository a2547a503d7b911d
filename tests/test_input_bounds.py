"""Input bounds (core/api.py, core/bounds.py): the API takes nothing but what its schema says.

Every whole number within what its column holds and what the domain allows (2**31 and -1 are a 400
naming the field, never a database error); in a JSON body each value of its schema's type; no empty
filter and no page or page size outside its range; and the schema says that the strict serializers
refuse unknown properties.
"""

from __future__ import annotations

import pytest
import yaml
from django.urls import get_resolver
from rest_framework import serializers

from core.api import StrictInputSerializer
from core.bounds import INT_MAX, INT_MIN
from matches.models import Match
from matches.services.reporting import Claim, match_report
from tests.clubs.factories import club_cast
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for, make_cast

pytestmark = pytest.mark.django_db


def refused(response, field: str) -> None:
    assert response.status_code == 400, (response.status_code, response.content)
    assert field in response.json()["errors"], response.json()


# --- whole numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(("field", "value"), [
    ("length", 2**31), ("length", -1), ("cube_cap", 2**31), ("automatic_doubles", -1), ("side0", [2**31]),
])
def test_a_match_with_a_number_out_of_bounds_is_a_400_naming_it(field, value):
    cast = make_cast()
    body = {"side0": [cast.match.side0.player_a.pk], "side1": [cast.match.side1.player_a.pk], "length": 0, field: value}
    before = Match.objects.count()
    refused(client_for(cast.organiser).post("/api/v1/matches/", body, format="json"), field)
    assert Match.objects.count() == before


@pytest.mark.parametrize("value", [2**31, -1, 2**70])
def test_a_filter_out_of_bounds_is_a_400_naming_it(value):
    refused(client_for().get("/api/v1/matches/", {"player": value}), "player")
    refused(client_for().get("/api/v1/tournaments/", {"club": value}), "club")


def test_a_chouette_setting_past_its_column_is_a_400_not_a_database_error():
    members = club_cast(name="Bounds Club")
    seats = [members.player(user).pk for user in members.active_users]
    client = client_for(members.owner)
    client.raise_request_exception = False
    body = {"rolloff": [[[seat, 6 - i] for i, seat in enumerate(seats)]], "box_partner_from": 2**31}
    refused(client.post(f"/api/v1/clubs/{members.club.pk}/chouettes/", body, format="json"), "box_partner_from")


def test_team_ids_below_one_are_a_400_naming_them():
    from tests.tournaments.factories import make_organiser
    from tournaments.models import Tournament

    organiser = make_organiser()
    event = Tournament.objects.create(name="Team cup", organiser=organiser, kind=Tournament.Kind.TEAMS,
                                      status=Tournament.Status.OPEN)
    response = client_for(organiser).post(f"/api/v1/tournaments/{event.pk}/teams/",
                                          {"name": "Aces", "captain_id": -1, "member_ids": [2**31]}, format="json")
    refused(response, "captain_id")
    assert "member_ids" in response.json()["errors"]


def strict_serializers() -> list[type[StrictInputSerializer]]:
    assert get_resolver().url_patterns  # imports every API module: their serializers subclass the strict one
    found, todo = [], [StrictInputSerializer]
    while todo:
        for subclass in todo.pop().__subclasses__():
            found.append(subclass)
            todo.append(subclass)
    return found


def integer_fields(fields, path=""):
    for name, field in fields.items():
        inner = getattr(field, "child", None)
        if isinstance(field, serializers.IntegerField):
            yield f"{path}{name}", field
        if isinstance(inner, serializers.IntegerField):
            yield f"{path}{name}[]", inner
        if isinstance(field, serializers.Serializer):
            yield from integer_fields(field.fields, f"{path}{name}.")


def test_every_whole_number_a_strict_serializer_takes_is_bounded_within_its_column():
    checked = 0
    for serializer_class in strict_serializers():
        for path, field in integer_fields(serializer_class().fields):
            where = f"{serializer_class.__qualname__}.{path}"
            assert field.min_value is not None and field.max_value is not None, where
            assert INT_MIN <= field.min_value <= field.max_value, where
            assert field.max_value <= INT_MAX or where.endswith("DrawInputSerializer.seed"), where  # a bigint
            checked += 1
    assert len(strict_serializers()) > 30 and checked > 40


# --- the type of each value in a JSON body ----------------------------------------------------


@pytest.mark.parametrize("statement", [0, 1.5, True, ["x"], {"x": 1}])
def test_a_text_field_given_anything_but_a_string_is_a_400(statement):
    cast = make_cast()
    match_report(match_id=cast.match.pk, user=cast.alice, claim=Claim((5, 3)))
    response = client_for(cast.bob).post(f"/api/v1/matches/{cast.match.pk}/contest/", {"statement": statement},
                                         format="json")
    refused(response, "statement")
    assert response.json()["errors"]["statement"] == ["Not a valid string."]
    cast.match.refresh_from_db()
    assert cast.match.status == Match.Status.REPORTED


@pytest.mark.parametrize(("field", "value"), [("length", "5"), ("length", 5.0), ("length", True),
                                              ("crawford", "yes"), ("crawford", 1), ("move_policy", 1),
                                              ("event", "1"), ("event", True)])
def test_a_number_or_a_flag_given_as_another_type_is_a_400(field, value):
    cast = make_cast()
    body = {"side0": [cast.match.side0.player_a.pk], "side1": [cast.match.side1.player_a.pk], "length": 5, field: value}
    refused(client_for(cast.organiser).post("/api/v1/matches/", body, format="json"), field)


def test_a_query_string_and_a_form_still_carry_numbers_as_text():
    cast = make_cast()
    assert client_for().get("/api/v1/matches/", {"player": str(cast.match.side0.player_a.pk)}).data["count"] == 1
    response = client_for().post("/api/v1/auth/token/", {"username": "alice", "password": "pass-word-123"})
    assert response.status_code == 200 and response.data["token"]


# --- query strings ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/tournaments/"])
def test_an_empty_filter_is_a_400_not_no_filter(path):
    response = client_for().get(f"{path}?status=")
    refused(response, "status")


@pytest.mark.parametrize(("name", "value"), [("page_size", "null"), ("page_size", "abc"), ("page_size", "0"),
                                             ("page_size", "101"), ("page_size", ""), ("page_size", "-1"),
                                             ("page", "0"), ("page", "abc"), ("page", "last"), ("page", str(2**31)),
                                             ("page", "\uff11")])  # a full-width one: a digit, but not ASCII
def test_a_page_or_a_page_size_outside_its_range_is_a_400_naming_it(name, value):
    MatchFactory()
    response = client_for().get("/api/v1/matches/", {name: value})
    refused(response, name)


def test_a_page_in_range_but_past_the_last_is_a_404_and_a_good_page_size_is_taken():
    MatchFactory(), MatchFactory()
    count = Match.objects.count()
    assert client_for().get("/api/v1/matches/", {"page": count + 1, "page_size": 1}).status_code == 404
    response = client_for().get("/api/v1/matches/", {"page": 2, "page_size": 1})
    assert response.status_code == 200 and len(response.data["results"]) == 1 and response.data["count"] == count


# --- the schema says so -----------------------------------------------------------------------


@pytest.fixture
def schema(client):
    return yaml.safe_load(client.get("/api/schema/").content)


def request_components(schema) -> dict:
    """Every request body's component, by name."""
    names = set()
    for item in schema["paths"].values():
        for operation in item.values():
            for content in operation.get("requestBody", {}).get("content", {}).values():
                names.add(content["schema"]["$ref"].rsplit("/", 1)[1])
    return {name: schema["components"]["schemas"][name] for name in names}


def test_every_strict_request_body_refuses_unknown_properties_in_the_schema(schema):
    """Every request body of the API is a strict serializer's: each says additionalProperties: false."""
    components = request_components(schema)
    assert len(components) > 30
    assert {name for name, body in components.items() if body.get("additionalProperties") is not False} == set()
    assert schema["components"]["schemas"]["ResultClaimRequest"]["additionalProperties"] is False


def test_the_schema_bounds_pages_and_whole_numbers(schema):
    parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/v1/matches/"]["get"]["parameters"]}
    assert parameters["page"] == {"type": "integer", "minimum": 1, "maximum": INT_MAX}
    assert parameters["page_size"] == {"type": "integer", "minimum": 1, "maximum": 100}
    assert parameters["player"]["maximum"] == INT_MAX
    create = schema["components"]["schemas"]["MatchCreateRequest"]["properties"]
    assert (create["length"]["minimum"], create["length"]["maximum"]) == (0, 64)
    claim = schema["components"]["schemas"]["ResultClaimRequest"]["properties"]["score"]
    assert claim["items"]["maximum"] == 9999
    assert "400" in schema["paths"]["/api/v1/matches/"]["get"]["responses"]

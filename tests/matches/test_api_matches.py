"""GET/POST /api/v1/matches/ and GET /api/v1/matches/{id}/: list with filters, create, detail."""

import datetime

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match, Player, Report, Side
from matches.services.logs import log_from_json
from matches.services.reporting import claim_make, match_confirm, match_report
from tests.factories import MatchFactory, PlayerFactory, SideFactory, TournamentFactory
from tests.matches.factories_api import ROLES, client_for, json_games, make_cast

pytestmark = pytest.mark.django_db

LIST = "/api/v1/matches/"


def detail_url(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/"


def player_of(user) -> Player:
    return Player.objects.get(user=user)


@pytest.fixture
def cast():
    return make_cast()


# --- list ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_it_lists_matches_to_everyone(cast, role):
    response = client_for(cast.user(role)).get(LIST)
    assert response.status_code == 200 and response.data["count"] == 1
    [item] = response.data["results"]
    assert item["id"] == cast.match.pk and item["status"] == "scheduled" and item["length"] == 5
    assert item["side0"]["name"] == "Alice" and item["side1"]["players"][0]["display_name"] == "Bob"
    assert item["score"] is None and item["winner"] is None and item["event"] is None


def test_the_list_never_shows_emails_or_user_ids(cast):
    response = client_for().get(LIST)
    body = response.content.decode()
    assert cast.alice.email not in body and cast.organiser.email not in body
    assert set(response.data["results"][0]["side0"]["players"][0]) == {"id", "display_name", "country", "rating"}


def test_it_filters_by_player_status_and_event(cast):
    event = TournamentFactory()
    other = MatchFactory(side0=SideFactory(player_a=player_of(cast.carol)), event=event,
                         status=Match.Status.CONFIRMED, score0=5, score1=1, winner=0)
    client = client_for()
    carol = player_of(cast.carol).pk
    assert [m["id"] for m in client.get(LIST, {"player": carol}).data["results"]] == [other.pk]
    assert [m["id"] for m in client.get(LIST, {"status": "confirmed"}).data["results"]] == [other.pk]
    assert [m["id"] for m in client.get(LIST, {"event": event.pk}).data["results"]] == [other.pk]
    assert [m["id"] for m in client.get(LIST, {"player": player_of(cast.alice).pk}).data["results"]] == [cast.match.pk]
    confirmed = client.get(LIST, {"status": "confirmed"}).data["results"][0]
    assert confirmed["score"] == [5, 1] and confirmed["winner"] == 0
    assert confirmed["event"] == {"id": event.pk, "name": event.name}


def test_a_pair_match_is_found_by_either_partner(cast):
    dora = PlayerFactory(user__username="dora")
    pair = Side.objects.create(player_a=player_of(cast.carol), player_b=dora)
    match = MatchFactory(side0=pair)
    response = client_for().get(LIST, {"player": dora.pk})
    [item] = response.data["results"]
    assert item["id"] == match.pk and item["side0"]["name"] == "Carol & Dora"


def test_it_filters_by_creation_date():
    with time_machine.travel(datetime.datetime(2024, 3, 1, 12, tzinfo=datetime.UTC)):
        early = MatchFactory()
    with time_machine.travel(datetime.datetime(2024, 5, 1, 12, tzinfo=datetime.UTC)):
        late = MatchFactory()
    client = client_for()
    assert [m["id"] for m in client.get(LIST, {"date_from": "2024-04-01"}).data["results"]] == [late.pk]
    assert [m["id"] for m in client.get(LIST, {"date_to": "2024-04-01"}).data["results"]] == [early.pk]
    both = client.get(LIST, {"date_from": "2024-03-01", "date_to": "2024-05-01"}).data["results"]
    assert [m["id"] for m in both] == [late.pk, early.pk]  # newest first


@pytest.mark.parametrize(("query", "field", "label"), [
    ({"player": "alice"}, "player", "Player"),
    ({"player": "0"}, "player", "Player"),
    ({"status": "won"}, "status", "Status"),
    ({"event": "x"}, "event", "Event"),
    ({"date_from": "yesterday"}, "date_from", "Date from"),
    ({"date_to": "2024-13-01"}, "date_to", "Date to"),
    ({"date_from": "2024-05-01", "date_to": "2024-04-01"}, "date_to", "Date to"),
    ({"staus": "confirmed"}, "staus", "“staus”"),
])
def test_a_bad_filter_is_a_400_naming_the_field(cast, query, field, label):
    response = client_for().get(LIST, query)
    assert response.status_code == 400
    assert response.data["code"] == "invalid" and list(response.data["errors"]) == [field]
    assert response.data["detail"].startswith(f"{label}: ")  # the field's label, its name in "errors"


def test_the_match_list_costs_the_same_queries_for_1_or_50_matches():
    event = TournamentFactory()
    for _ in range(25):
        MatchFactory(event=event)
        pair = SideFactory(player_b=PlayerFactory())
        MatchFactory(side0=pair, event=event)
    client = client_for()
    with CaptureQueriesContext(connection) as one:
        assert len(client.get(LIST, {"page_size": 1}).data["results"]) == 1
    with CaptureQueriesContext(connection) as fifty:
        assert len(client.get(LIST, {"page_size": 50}).data["results"]) == 50
    # The count, the page (sides and event joined) and at most one query per player slot of a side
    # (with_sides prefetches the players); both pages hold a pair, so both fill every slot.
    assert len(one) == len(fifty) <= 6


# --- create -------------------------------------------------------------------------------------


def create_body(cast, **fields) -> dict:
    return {"side0": [player_of(cast.alice).pk], "side1": [player_of(cast.bob).pk], "length": 7, **fields}


@pytest.mark.parametrize(("role", "expected"), [
    ("alice", 201), ("bob", 201), ("carol", 403), ("organiser", 201), ("other_organiser", 201), ("staff", 201),
    ("anonymous", 401),
])
def test_who_may_create_a_match_between_alice_and_bob(cast, role, expected):
    response = client_for(cast.user(role)).post(LIST, create_body(cast), format="json")
    assert response.status_code == expected, response.data
    created = Match.objects.exclude(pk=cast.match.pk)
    if expected == 201:
        match = created.get()
        assert response.data["id"] == match.pk and match.created_by == cast.user(role)
        assert response.data["status"] == "scheduled" and response.data["rules"]["length"] == 7
    else:
        assert not created.exists()
        assert set(response.data) >= {"detail", "code"}


def test_a_player_creates_a_match_he_plays_in(cast):
    response = client_for(cast.carol, auth="session").post(
        LIST, {"side0": [player_of(cast.alice).pk], "side1": [player_of(cast.carol).pk], "length": 3,
               "crawford": False, "move_policy": "responsible", "scheduled_at": "2025-06-01T18:00:00Z"},
        format="json")
    assert response.status_code == 201, response.data
    match = Match.objects.get(pk=response.data["id"])
    assert (match.length, match.crawford, match.move_policy, match.rated) == (3, False, "responsible", True)
    assert match.scheduled_at == datetime.datetime(2025, 6, 1, 18, tzinfo=datetime.UTC)
    assert response.data["side1"]["name"] == "Carol"
    assert response.data["rules"] == {
        "length": 3, "crawford": False, "move_policy": "responsible", "jacoby": False, "beavers": False,
        "raccoons": False, "automatic_doubles": 0, "cube_cap": None, "rated": True,
    }


def test_a_consultation_pair_is_a_side_of_two_player_ids(cast):
    dora = PlayerFactory(user__username="dora")
    body = create_body(cast, side1=[player_of(cast.bob).pk, dora.pk])
    response = client_for(cast.organiser).post(LIST, body, format="json")
    assert response.status_code == 201, response.data
    match = Match.objects.get(pk=response.data["id"])
    assert match.side1.is_pair and not match.rated  # pairs are never rated
    assert response.data["side1"]["name"] in ("Bob & Dora", "Dora & Bob")


def test_a_money_session_takes_the_money_options(cast):
    body = create_body(cast, length=0, jacoby=True, beavers=True, raccoons=True, automatic_doubles=1, cube_cap=64)
    response = client_for(cast.alice).post(LIST, body, format="json")
    assert response.status_code == 201, response.data
    match = Match.objects.get(pk=response.data["id"])
    assert (match.jacoby, match.beavers, match.raccoons, match.automatic_doubles, match.cube_cap) == (True, True, True, 1, 64)
    assert not match.rated


def test_only_the_events_organiser_adds_a_match_to_his_event(cast):
    event = TournamentFactory(organiser=cast.organiser)
    for user in (cast.other_organiser, cast.alice):
        response = client_for(user).post(LIST, create_body(cast, event=event.pk), format="json")
        assert response.status_code == 403 and response.data["code"] == "not_event_organiser"
    assert not event.match_links.exists()
    response = client_for(cast.organiser).post(LIST, create_body(cast, event=event.pk), format="json")
    assert response.status_code == 201
    assert response.data["event"] == {"id": event.pk, "name": event.name}
    assert Match.objects.get(pk=response.data["id"]).organiser == cast.organiser


@pytest.mark.parametrize(("fields", "field"), [
    ({"status": "confirmed"}, "status"),
    ({"winner": 0}, "winner"),
    ({"score": [7, 0]}, "score"),
    ({"score0": 7}, "score0"),
    ({"rated": False}, "rated"),
    ({"organiser": 1}, "organiser"),
])
def test_it_refuses_read_only_fields_on_create(cast, fields, field):
    response = client_for(cast.alice).post(LIST, create_body(cast, **fields), format="json")
    assert response.status_code == 400
    assert response.data["errors"] == {field: ["this field is read-only"]}
    assert Match.objects.count() == 1


def test_it_refuses_unknown_fields_on_create_and_names_them_all(cast):
    response = client_for(cast.alice).post(LIST, create_body(cast, colour="white", rating=2000), format="json")
    assert response.status_code == 400
    assert response.data["errors"] == {"colour": ["unknown field"], "rating": ["unknown field"]}
    assert response.data["detail"] == "“colour”: unknown field"
    assert Match.objects.count() == 1


@pytest.mark.parametrize(("fields", "field"), [
    ({"side0": []}, "side0"),
    ({"side0": "alice"}, "side0"),
    ({"side1": [1, 1]}, "side1"),
    ({"side1": [1, 2, 3]}, "side1"),
    ({"side1": [999999]}, "side1"),
    ({"length": -1}, "length"),
    ({"length": 65}, "length"),
    ({"length": "seven"}, "length"),
    ({"move_policy": "anything goes"}, "move_policy"),
    ({"event": 999999}, "event"),
    ({"scheduled_at": "soon"}, "scheduled_at"),
])
def test_a_malformed_create_body_is_a_400_naming_the_field(cast, fields, field):
    response = client_for(cast.alice).post(LIST, create_body(cast, **fields), format="json")
    assert response.status_code == 400
    assert list(response.data["errors"]) == [field]
    assert Match.objects.count() == 1


def test_a_body_that_is_not_an_object_is_a_400(cast):
    response = client_for(cast.alice).post(LIST, [1, 2], format="json")
    assert response.status_code == 400 and response.data["code"] == "invalid"
    bad_json = client_for(cast.alice).post(LIST, "{not json", content_type="application/json")
    assert bad_json.status_code == 400 and bad_json.data["code"] == "parse_error"


@pytest.mark.parametrize("fields", [{"jacoby": True}, {"beavers": True}, {"automatic_doubles": 1}])
def test_money_options_in_a_match_are_a_400(cast, fields):
    response = client_for(cast.alice).post(LIST, create_body(cast, **fields), format="json")
    assert response.status_code == 400 and response.data["code"] == "bad_sides"
    assert "money play only" in response.data["detail"]
    assert Match.objects.count() == 1


def test_a_player_on_both_sides_is_a_400(cast):
    alice = player_of(cast.alice).pk
    response = client_for(cast.organiser).post(
        LIST, create_body(cast, side1=[alice, player_of(cast.bob).pk]), format="json")
    assert response.status_code == 400 and response.data["detail"] == "a player cannot be on both sides"
    assert Match.objects.count() == 1


def test_a_bad_cube_cap_is_a_400(cast):
    response = client_for(cast.alice).post(LIST, create_body(cast, length=0, cube_cap=3), format="json")
    assert response.status_code == 400 and "power of two" in response.data["detail"]
    assert Match.objects.count() == 1


def test_session_auth_needs_the_csrf_token_and_token_auth_does_not(cast):
    session = client_for(cast.alice, auth="session", enforce_csrf=True)
    response = session.post(LIST, create_body(cast), format="json")
    assert response.status_code == 403 and "CSRF" in response.data["detail"]
    assert Match.objects.count() == 1
    token = client_for(cast.alice, auth="token", enforce_csrf=True)
    assert token.post(LIST, create_body(cast), format="json").status_code == 201


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_other_methods_on_the_list_are_a_405(cast, method):
    response = getattr(client_for(cast.staff), method)(LIST, {}, format="json")
    assert response.status_code == 405 and response.data["code"] == "method_not_allowed"


# --- detail -------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_it_shows_a_match_to_everyone(cast, role):
    response = client_for(cast.user(role)).get(detail_url(cast.match.pk))
    assert response.status_code == 200
    assert response.data["id"] == cast.match.pk and response.data["games"] == [] and response.data["reports"] == []
    assert response.data["rules"]["length"] == 5 and response.data["rules"]["crawford"] is True


def test_the_detail_shows_games_and_live_reports_without_emails(cast):
    match = cast.match
    games = json_games(5, seed=3)
    log = log_from_json(games, match.rules())
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, log.final_score, log), statement="gg")
    match_confirm(match_id=match.pk, user=cast.bob)
    response = client_for().get(detail_url(match.pk))
    data = response.data
    # 8-0 in full (a gammon at cube 4), shown capped at the length.
    assert data["status"] == "confirmed" and data["score"] == [5, 0] and data["winner"] == 0
    assert log.final_score == (8, 0) and Match.objects.get(pk=match.pk).full_score == (8, 0)
    assert len(data["games"]) == len(games) == 1
    assert data["games"][0] == {"number": 1, "score_before": [0, 0], "crawford": False, "winner": 0, "points": 8,
                                "cube": 4, "ending": "gammon"}
    sides = sorted((r["side"], r["status"], r["with_games"]) for r in data["reports"])
    assert sides == [(0, Report.Status.CONFIRMED, True), (1, Report.Status.AGREED, False)]
    assert {tuple(r["score"]) for r in data["reports"]} == {(5, 0)}
    body = response.content.decode()
    assert cast.alice.email not in body and cast.bob.email not in body and "reporter" not in body


def test_an_unknown_match_is_a_404_in_the_error_shape():
    response = client_for().get(detail_url(999999))
    assert response.status_code == 404
    assert response.data == {"detail": "there is no match 999999", "code": "not_found"}


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_match_cannot_be_changed_through_its_detail(cast, method):
    response = getattr(client_for(cast.staff), method)(detail_url(cast.match.pk), {"status": "confirmed"},
                                                       format="json")
    assert response.status_code == 405
    cast.match.refresh_from_db()
    assert cast.match.status == Match.Status.SCHEDULED

"""GET /api/v1/players/ and /api/v1/players/{id}/: public, paginated, never an email or user id."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, HomeClub
from matches.models import Match, Player
from matches.services.ratings import match_rating_apply
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_api import ROLES, client_for, make_cast

pytestmark = pytest.mark.django_db

LIST = "/api/v1/players/"
PUBLIC_FIELDS = {"id", "display_name", "country", "club", "rating", "experience"}


def detail_url(player_id: int) -> str:
    return f"/api/v1/players/{player_id}/"


@pytest.fixture
def cast():
    return make_cast()


@pytest.mark.parametrize("role", ROLES)
def test_it_lists_players_to_everyone(cast, role):
    response = client_for(cast.user(role)).get(LIST)
    assert response.status_code == 200
    assert response.data["count"] == 3  # alice, bob and carol; organisers and staff do not play
    assert [p["display_name"] for p in response.data["results"]] == ["Alice", "Bob", "Carol"]


def test_a_listed_player_shows_only_public_fields(cast):
    club = Club.objects.create(name="Backgammon Club Bern", slug="bern")
    Player.objects.filter(user=cast.alice).update(country="CH")
    HomeClub.objects.create(player=cast.alice.player, club=club)
    response = client_for().get(LIST)
    alice = response.data["results"][0]
    assert set(alice) == PUBLIC_FIELDS
    assert alice["country"] == "CH" and alice["club"] == {"id": club.pk, "name": "Backgammon Club Bern"}
    assert alice["rating"] == 1500.0 and alice["experience"] == 0
    body = response.content.decode()
    assert cast.alice.email not in body and "user" not in alice and "email" not in body


def test_it_pages_by_25_unless_asked_otherwise():
    PlayerFactory.create_batch(30)
    client = client_for()
    first = client.get(LIST)
    assert first.data["count"] == 30 and len(first.data["results"]) == 25 and first.data["next"]
    small = client.get(LIST, {"page_size": 4, "page": 2})
    assert len(small.data["results"]) == 4 and small.data["previous"]


def test_a_page_past_the_end_is_a_404_in_the_error_shape():
    response = client_for().get(LIST, {"page": 9})
    assert response.status_code == 404
    assert response.data["code"] == "not_found" and "detail" in response.data


def test_the_player_list_costs_the_same_queries_for_1_or_50_players():
    club = Club.objects.create(name="Club", slug="club")
    PlayerFactory.create_batch(50, club=club)
    client = client_for()
    with CaptureQueriesContext(connection) as one:
        assert len(client.get(LIST, {"page_size": 1}).data["results"]) == 1
    with CaptureQueriesContext(connection) as fifty:
        assert len(client.get(LIST, {"page_size": 50}).data["results"]) == 50
    assert len(one) == len(fifty) == 2  # the count and the page, clubs joined


def test_it_shows_a_player_with_his_rating_history(cast):
    match = cast.match
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED, score0=5, score1=2, winner=0)
    match_rating_apply(match_id=match.pk)
    alice = Player.objects.get(user=cast.alice)
    response = client_for().get(detail_url(alice.pk))
    assert response.status_code == 200
    # email and real_name: null unless he chose to show them (tests/matches/test_player_page.py).
    assert set(response.data) == PUBLIC_FIELDS | {"email", "real_name", "rating_history", "rating_corrections"}
    assert response.data["email"] is None and response.data["real_name"] is None
    assert response.data["rating"] == pytest.approx(alice.rating) and response.data["experience"] == 5
    [change] = response.data["rating_history"]
    assert change["match"] == match.pk and change["opponent"] == "Bob"
    assert change["before"] == 1500.0 and change["after"] == pytest.approx(alice.rating)
    assert change["delta"] == pytest.approx(alice.rating - 1500.0) and change["delta"] > 0
    assert change["date"]
    assert cast.alice.email not in response.content.decode()


def test_a_new_player_has_an_empty_rating_history(cast):
    carol = Player.objects.get(user=cast.carol)
    response = client_for(cast.carol, auth="session").get(detail_url(carol.pk))
    assert response.status_code == 200 and response.data["rating_history"] == []
    assert response.data["rating_corrections"] == []


def test_an_unknown_player_is_a_404_in_the_error_shape():
    response = client_for().get(detail_url(999999))
    assert response.status_code == 404
    assert response.data == {"detail": "there is no player 999999", "code": "not_found"}


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_players_are_read_only(cast, method):
    alice = Player.objects.get(user=cast.alice)
    client = client_for(cast.staff)
    for url in (LIST, detail_url(alice.pk)):
        response = getattr(client, method)(url, {"rating": 3000}, format="json")
        assert response.status_code == 405 and response.data["code"] == "method_not_allowed"
    alice.refresh_from_db()
    assert alice.rating == 1500.0


def test_an_anonymous_write_is_a_401_before_the_405():
    response = client_for().post(LIST, {"display_name": "Mallory"}, format="json")
    assert response.status_code == 401 and response.data["code"] == "not_authenticated"
    assert not Player.objects.filter(display_name="Mallory").exists()


def test_a_player_without_a_user_is_listed_too():
    Player.objects.create(display_name="Imported Ike")
    UserFactory(username="nobody")  # a user without a player is not listed
    response = client_for().get(LIST)
    assert [p["display_name"] for p in response.data["results"]] == ["Imported Ike"]

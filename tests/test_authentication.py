import pytest
from rest_framework.authtoken.models import Token

from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_token_loads_the_user_and_his_player_in_one_query(api_client, django_assert_num_queries):
    player = PlayerFactory()
    token = Token.objects.create(user=player.user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    from accounts.authentication import PlayerTokenAuthentication

    with django_assert_num_queries(1):
        user, _ = PlayerTokenAuthentication().authenticate_credentials(token.key)
        assert user.player == player


@pytest.mark.parametrize("active", [True, False])
def test_a_bad_or_inactive_token_is_refused(api_client, active):
    user = UserFactory(is_active=active)
    token = Token.objects.create(user=user)
    key = token.key if not active else "x" * 40
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = api_client.post("/api/v1/matches/", {}, format="json")
    assert response.status_code == 401


def test_a_user_gets_his_token_with_his_password(api_client):
    user = UserFactory(username="alice")
    response = api_client.post("/api/v1/auth/token/", {"username": "alice", "password": "pass-word-123"}, format="json")
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=user).key


def test_a_wrong_password_gets_no_token(api_client):
    UserFactory(username="alice")
    response = api_client.post("/api/v1/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert not Token.objects.exists()

import pytest

from accounts.authentication import PlayerTokenAuthentication
from accounts.models import ApiToken
from accounts.models_tokens import key_digest
from accounts.services import api_token_create
from tests.factories import PlayerFactory, UserFactory, api_token

pytestmark = pytest.mark.django_db


def test_a_token_loads_the_user_and_his_player_in_one_query(django_assert_num_queries):
    player = PlayerFactory()
    key = api_token(player.user)  # its use noted a moment ago: nothing to write

    with django_assert_num_queries(1):
        user, _ = PlayerTokenAuthentication().authenticate_credentials(key)
        assert user.player == player


def test_a_token_notes_its_use_at_most_every_few_minutes(django_assert_num_queries):
    _token, key = api_token_create(user=PlayerFactory().user)
    with django_assert_num_queries(2):  # the token, then its last use noted
        _user, token = PlayerTokenAuthentication().authenticate_credentials(key)
    stamped = ApiToken.objects.get(pk=token.pk).last_used_at
    assert stamped is not None
    with django_assert_num_queries(1):  # a moment later: nothing written
        PlayerTokenAuthentication().authenticate_credentials(key)
    assert ApiToken.objects.get(pk=token.pk).last_used_at == stamped


@pytest.mark.parametrize("active", [True, False])
def test_a_bad_or_inactive_token_is_refused(api_client, active):
    user = UserFactory(is_active=active)
    key = api_token(user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key if not active else 'x' * 40}")
    response = api_client.post("/api/v1/matches/", {}, format="json")
    assert response.status_code == 401


def test_a_user_gets_a_token_with_his_password_kept_only_as_its_digest(api_client):
    user = UserFactory(username="alice")
    response = api_client.post("/api/v1/auth/token/", {"username": "alice", "password": "pass-word-123"}, format="json")
    assert response.status_code == 200
    key = response.json()["token"]
    assert len(key) == 40
    token = ApiToken.objects.get(user=user)
    assert token.key_digest == key_digest(key) and key not in token.key_digest
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api_client.get("/api/v1/me/").json()["username"] == "alice"


def test_a_wrong_password_gets_no_token(api_client):
    UserFactory(username="alice")
    response = api_client.post("/api/v1/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert not ApiToken.objects.exists()

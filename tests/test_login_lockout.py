"""The sign-in lockout (django-axes): after AXES_FAILURE_LIMIT failed sign-ins for one username from
one address, the sign-in page and the API token endpoint refuse that pair, even with the right
password, with a 429 and Retry-After until the cool-off ends; a successful sign-in forgets the
failures. Failed attempts live in the database, so every test starts with none."""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.models_tokens import key_digest
from tests.factories import UserFactory
from tests.matches.factories_api import PASSWORD

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
LOGIN_URL = "/accounts/login/"
START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
LIMIT = 5
COOL_OFF = dt.timedelta(minutes=15)


@pytest.fixture(autouse=True)
def lockout_settings(settings):
    # The defaults, pinned here so that an environment with other values cannot change what is tested.
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.AXES_COOLOFF_TIME = COOL_OFF


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def clock(time_machine):
    time_machine.move_to(START, tick=False)
    return time_machine


def token_request(password: str, username: str = "alice", **extra):
    return APIClient().post(TOKEN_URL, {"username": username, "password": password}, format="json", **extra)


def page_sign_in(client: Client, password: str, username: str = "alice"):
    return client.post(LOGIN_URL, {"username": username, "password": password})


def fail(times: int, username: str = "alice", **extra) -> list[int]:
    return [token_request("wrong-password", username, **extra).status_code for _ in range(times)]


# --- the API token endpoint --------------------------------------------------------------------------


def test_the_token_endpoint_locks_out_after_the_limit_and_refuses_even_the_right_password(alice, clock):
    assert fail(LIMIT - 1) == [400] * (LIMIT - 1)
    last_failure = token_request("wrong-password")
    assert last_failure.status_code == 429
    assert last_failure.json() == {"detail": "too many failed sign-ins for this username from your address; "
                                             "try again later", "code": "locked_out"}
    assert last_failure["Retry-After"] == str(int(COOL_OFF.total_seconds()))

    right = token_request(PASSWORD)
    assert right.status_code == 429 and right.json()["code"] == "locked_out"
    assert not ApiToken.objects.filter(user=alice).exists()


def test_a_wrong_password_before_the_limit_is_a_400_naming_no_reason(alice):
    response = token_request("wrong-password")
    assert response.status_code == 400
    assert response.json() == {"detail": "unable to sign in with these credentials", "code": "invalid_credentials"}


def test_retry_after_counts_down_from_the_failure_that_locked_and_attempts_do_not_restart_it(alice, clock):
    fail(LIMIT)
    clock.shift(dt.timedelta(minutes=5))
    response = token_request(PASSWORD)
    assert response.status_code == 429 and response["Retry-After"] == str(10 * 60)
    clock.shift(dt.timedelta(minutes=9, seconds=59))
    assert token_request("wrong-password")["Retry-After"] == "1"


def test_after_the_cool_off_the_right_password_gets_the_token(alice, clock):
    fail(LIMIT)
    clock.shift(COOL_OFF - dt.timedelta(seconds=1))
    assert token_request(PASSWORD).status_code == 429
    clock.shift(dt.timedelta(seconds=2))
    response = token_request(PASSWORD)
    assert response.status_code == 200
    assert ApiToken.objects.get(user=alice).key_digest == key_digest(response.json()["token"])


def test_a_successful_sign_in_forgets_the_earlier_failures(alice, clock):
    assert fail(LIMIT - 1) == [400] * (LIMIT - 1)
    assert token_request(PASSWORD).status_code == 200
    assert not AccessAttempt.objects.exists()
    assert fail(LIMIT - 1) == [400] * (LIMIT - 1)
    assert token_request(PASSWORD).status_code == 200


def test_a_token_handed_out_is_a_sign_in_that_sets_last_login(alice, clock):
    assert alice.last_login is None
    token_request(PASSWORD)
    alice.refresh_from_db()
    assert alice.last_login == START


def test_the_lockout_holds_only_that_username_from_that_address(alice, clock):
    UserFactory(username="bob")
    fail(LIMIT)
    assert token_request(PASSWORD, REMOTE_ADDR="192.0.2.7").status_code == 200  # alice elsewhere
    assert token_request(PASSWORD, username="bob").status_code == 200  # someone else here
    assert token_request(PASSWORD).status_code == 429


def test_a_forged_forwarded_for_header_does_not_escape_the_lockout(alice, clock):
    # No proxy is trusted (NUM_PROXIES 0): the header is the client's own word.
    statuses = [token_request("wrong-password", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
                for i in range(LIMIT)]
    assert statuses == [400] * (LIMIT - 1) + [429]
    assert token_request(PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.99").status_code == 429


def test_behind_a_trusted_proxy_each_client_is_counted_by_its_forwarded_address(alice, clock, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = {"REMOTE_ADDR": "192.0.2.1"}
    fail(LIMIT, HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy)
    assert token_request(PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy).status_code == 429
    assert token_request(PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.2", **proxy).status_code == 200


def test_an_unknown_username_is_locked_out_like_a_known_one(clock):
    assert fail(LIMIT, username="nobody") == [400] * (LIMIT - 1) + [429]


# --- the sign-in page --------------------------------------------------------------------------------


def test_the_sign_in_page_locks_out_after_the_limit_with_a_readable_page(alice, clock):
    client = Client()
    for _ in range(LIMIT - 1):
        response = page_sign_in(client, "wrong-password")
        assert response.status_code == 200 and "Please enter a correct username and password" in response.content.decode()
    response = page_sign_in(client, "wrong-password")
    assert response.status_code == 429 and response["Retry-After"] == "900"
    assert "registration/locked_out.html" in [t.name for t in response.templates]
    text = response.content.decode()
    assert "Too many sign-in attempts" in text and "Try again in 15 minutes" in text and "alice" in text

    response = page_sign_in(client, PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_sign_in_page_lets_the_right_password_in_after_the_cool_off(alice, clock):
    client = Client()
    for _ in range(LIMIT):
        page_sign_in(client, "wrong-password")
    clock.shift(COOL_OFF + dt.timedelta(seconds=1))
    response = page_sign_in(client, PASSWORD)
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)


def test_the_sign_in_page_and_the_token_endpoint_count_failures_together(alice, clock):
    client = Client()
    for _ in range(LIMIT - 1):
        page_sign_in(client, "wrong-password")
    assert token_request("wrong-password").status_code == 429
    assert page_sign_in(client, PASSWORD).status_code == 429


def test_a_successful_page_sign_in_forgets_the_earlier_failures(alice, clock):
    client = Client()
    for _ in range(LIMIT - 1):
        page_sign_in(client, "wrong-password")
    assert page_sign_in(client, PASSWORD).status_code == 302
    assert not AccessAttempt.objects.exists()


def test_the_lockout_is_on_with_its_defaults_in_the_settings():
    assert "axes" in settings.INSTALLED_APPS and settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS is True


# --- allauth's sign-in: by email address, and the API's session sign-in ---------------------------------


def session_sign_in(password: str, username: str = "alice"):
    return APIClient().post("/api/v1/auth/login/", {"username": username, "password": password}, format="json")


def test_signing_in_by_email_address_counts_against_the_same_account_and_never_shows_its_username(clock):
    UserFactory(username="alice", email="alice@example.org")
    client = Client()
    for _ in range(LIMIT - 2):
        assert page_sign_in(client, "wrong-password", username="Alice@Example.org").status_code == 200
    assert page_sign_in(client, "wrong-password").status_code == 200  # the username: the same count
    locked = page_sign_in(client, "wrong-password", username="alice@example.org")
    assert locked.status_code == 429 and locked["Retry-After"] == "900"
    text = locked.content.decode()
    assert "alice@example.org" in text and "<strong>alice</strong>" not in text
    assert page_sign_in(client, PASSWORD).status_code == 429
    assert token_request(PASSWORD).status_code == 429


def test_the_session_sign_in_endpoint_counts_with_the_page_and_locks_out_alike(alice, clock):
    client = Client()
    for _ in range(LIMIT - 1):
        page_sign_in(client, "wrong-password")
    locked = session_sign_in("wrong-password")
    assert locked.status_code == 429 and locked.json()["code"] == "locked_out"
    assert locked["Retry-After"] == "900"
    assert session_sign_in(PASSWORD).status_code == 429
    clock.shift(COOL_OFF + dt.timedelta(seconds=1))
    assert session_sign_in(PASSWORD).status_code == 200


def test_the_sign_in_page_is_allauths_with_the_lockout_in_front(alice, clock):
    response = Client().get(LOGIN_URL)
    assert "account/login.html" in [t.name for t in response.templates]
    assert 'name="username"' in response.content.decode()
    assert settings.ACCOUNT_RATE_LIMITS["login_failed"] is None  # one count of failures: django-axes'

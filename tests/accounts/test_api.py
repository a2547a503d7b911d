"""The accounts API (/api/v1/auth/, /api/v1/me/): thin views over allauth's forms and flows, with
the house's error body. Sign-up, the verification link's key, a token, a report; password reset;
the profile read and changed; bad input refused with the field named and nothing changed."""

from __future__ import annotations

import datetime as dt

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from engine.match import MatchRules
from matches.models import Player, Report
from matches.services.matches import match_create
from tests.accounts.conftest import last_link
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_api import PASSWORD as FACTORY_PASSWORD
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-good-password"
NEWTON = {"username": "newton", "display_name": "Isaac Newton", "email": "isaac@example.org", "password": PASSWORD}


def post(url: str, body: dict, client=None):
    return (client or APIClient()).post(f"/api/v1/{url}", body, format="json")


def sign_up(outbox_inline, **fields):
    with outbox_inline():
        return post("auth/signup/", {**NEWTON, **fields})


def key_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


def test_sign_up_verify_get_a_token_and_report_a_match(outbox_inline):
    response = sign_up(outbox_inline)
    assert response.status_code == 202, response.json()
    assert set(response.json()) == {"detail"}
    user = User.objects.get(username="newton")
    player = Player.objects.get(user=user, display_name="Isaac Newton")
    assert [m.to for m in mail.outbox] == [["isaac@example.org"]]

    unverified = post("auth/token/", {"username": "newton", "password": PASSWORD})
    assert unverified.status_code == 403 and unverified.json()["code"] == "email_unverified"
    assert not ApiToken.objects.filter(user=user).exists()

    verified = post("auth/email/verify/", {"key": key_of(last_link())})
    assert verified.status_code == 200 and EmailAddress.objects.get(user=user).verified

    token = post("auth/token/", {"username": "isaac@example.org", "password": PASSWORD})
    assert token.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")

    match = match_create(created_by=UserFactory(organiser=True),
                         sides=([PlayerFactory(display_name="Gottfried")], [player]), rules=MatchRules(3))
    with outbox_inline():
        reported = client.post(f"/api/v1/matches/{match.pk}/report/", {"score": [1, 3]}, format="json")
    assert reported.status_code == 200, reported.json()
    assert Report.objects.get(match=match).reporter == user


def test_a_session_sign_in_needs_the_csrf_token_and_sets_the_session(outbox_inline):
    sign_up(outbox_inline)
    post("auth/email/verify/", {"key": key_of(last_link())})
    browser = APIClient(enforce_csrf_checks=True)
    refused = browser.post("/api/v1/auth/login/", {"username": "newton", "password": PASSWORD}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    browser.get("/accounts/login/")  # sets the csrftoken cookie
    csrf = browser.cookies["csrftoken"].value
    response = browser.post("/api/v1/auth/login/", {"username": "newton", "password": PASSWORD}, format="json",
                            HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 200 and response.json() == {"username": "newton", "display_name": "Isaac Newton"}
    csrf = browser.cookies["csrftoken"].value  # a new one with the sign-in
    me = browser.get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["email"] == "isaac@example.org"
    assert browser.post("/api/v1/auth/logout/", HTTP_X_CSRFTOKEN=csrf).status_code == 204
    assert browser.get("/api/v1/me/").status_code in (401, 403)


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"username": "taken"}, "username", "A user with that username already exists."),
    ({"password": "1234567890"}, "password", "This password is entirely numeric."),
    ({"password": "short"}, "password", "This password is too short."),
    ({"display_name": " "}, "display_name", "This field may not be blank."),
    ({"email": "nope"}, "email", "Enter a valid email address."),
    ({"role": "organiser"}, "role", "unknown field"),
])
def test_bad_sign_ups_get_the_error_body_naming_the_field_and_make_nothing(fields, field, message, outbox_inline):
    UserFactory(username="taken")
    before = (User.objects.count(), Player.objects.count(), EmailAddress.objects.count())
    response = sign_up(outbox_inline, **fields)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and any(message in error for error in body["errors"][field]), body
    assert (User.objects.count(), Player.objects.count(), EmailAddress.objects.count()) == before
    assert mail.outbox == []


def test_a_bad_or_expired_verification_key_is_refused_and_verifies_nothing(outbox_inline, time_machine):
    sign_up(outbox_inline)
    key = key_of(last_link())
    bad = post("auth/email/verify/", {"key": "not-a-key"})
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_key" and list(bad.json()["errors"]) == ["key"]
    time_machine.move_to(dt.datetime.now(dt.UTC) + dt.timedelta(days=4))
    expired = post("auth/email/verify/", {"key": key})
    assert expired.status_code == 400 and expired.json()["code"] == "invalid_key"
    assert not EmailAddress.objects.get(email="isaac@example.org").verified


def test_resend_sends_a_new_link_once_in_a_while_and_answers_the_same_for_unknown_addresses(outbox_inline):
    sign_up(outbox_inline)
    mail.outbox.clear()
    from django.core.cache import cache

    cache.clear()  # the sign-up's own email counted against the address's limit
    with outbox_inline():
        first = post("auth/email/resend/", {"email": "isaac@example.org"})
        again = post("auth/email/resend/", {"email": "isaac@example.org"})  # within the cool-down: nothing sent
        unknown = post("auth/email/resend/", {"email": "nobody@example.org"})
    assert first.status_code == again.status_code == unknown.status_code == 202
    assert first.json() == unknown.json()
    assert [m.to for m in mail.outbox] == [["isaac@example.org"]]
    assert post("auth/email/verify/", {"key": key_of(last_link())}).status_code == 200


def test_password_reset_by_email_link_then_sign_in_with_the_new_password(outbox_inline):
    alice = UserFactory(username="alice", email="alice@example.org")
    with outbox_inline():
        asked = post("auth/password/reset/", {"email": "alice@example.org"})
    assert asked.status_code == 202 and [m.to for m in mail.outbox] == [["alice@example.org"]]
    link = last_link()
    assert link.startswith("/accounts/password/reset/key/")
    key = key_of(link)

    weak = post("auth/password/reset/confirm/", {"key": key, "password": "alice"})
    assert weak.status_code == 400 and "password" in weak.json()["errors"]
    bad = post("auth/password/reset/confirm/", {"key": f"{key}x", "password": "a-brand-new-password"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_key"
    alice.refresh_from_db()
    assert alice.check_password(FACTORY_PASSWORD)

    with outbox_inline():
        done = post("auth/password/reset/confirm/", {"key": key, "password": "a-brand-new-password"})
    assert done.status_code == 200
    assert post("auth/token/", {"username": "alice", "password": "a-brand-new-password"}).status_code == 200
    # The link is spent.
    again = post("auth/password/reset/confirm/", {"key": key, "password": "yet-another-password"})
    assert again.status_code == 400 and again.json()["code"] == "invalid_key"


def test_a_reset_for_an_unknown_address_answers_the_same(outbox_inline):
    with outbox_inline():
        response = post("auth/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 202 and response.json()["detail"].startswith("if the address belongs")


def test_me_shows_his_own_account_and_changes_the_display_name_and_the_address(outbox_inline):
    player = PlayerFactory(user__username="alice", user__email="alice@example.org", display_name="Alice")
    client = client_for(player.user)
    me = client.get("/api/v1/me/")
    assert me.json() == {"username": "alice", "display_name": "Alice", "email": "alice@example.org",
                         "email_verified": False, "email_pending": ""}

    renamed = client.patch("/api/v1/me/", {"display_name": "Alice  Liddell"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["display_name"] == "Alice Liddell"
    player.refresh_from_db()
    assert player.display_name == "Alice Liddell"

    with outbox_inline():
        moved = client.patch("/api/v1/me/", {"email": "liddell@example.org"}, format="json")
    assert moved.status_code == 200
    assert moved.json()["email"] == "alice@example.org" and moved.json()["email_pending"] == "liddell@example.org"
    assert [m.to for m in mail.outbox] == [["alice@example.org"], ["liddell@example.org"]]  # his address told
    assert post("auth/email/verify/", {"key": key_of(last_link())}).status_code == 200
    assert client.get("/api/v1/me/").status_code == 401  # the change ended his tokens
    after = client_for(player.user).get("/api/v1/me/").json()
    assert (after["email"], after["email_verified"], after["email_pending"]) == ("liddell@example.org", True, "")
    assert User.objects.get(pk=player.user.pk).email == "liddell@example.org"


@pytest.mark.parametrize(("body", "field"), [
    ({"display_name": "   "}, "display_name"), ({"email": "nope"}, "email"), ({"username": "bob"}, "username"),
])
def test_me_refuses_bad_changes_naming_the_field(body, field):
    player = PlayerFactory(user__username="alice", display_name="Alice")
    response = client_for(player.user).patch("/api/v1/me/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    player.refresh_from_db()
    assert (player.display_name, player.user.username) == ("Alice", "alice")


def test_me_is_for_signed_in_users_only():
    assert APIClient().get("/api/v1/me/").status_code == 401


def test_an_address_gets_only_so_many_reset_emails(outbox_inline, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "1/h/key"}
    UserFactory(username="alice", email="alice@example.org")
    with outbox_inline():
        first = post("auth/password/reset/", {"email": "alice@example.org"})
        second = post("auth/password/reset/", {"email": "ALICE@example.org"})
    assert first.status_code == 202
    assert second.status_code == 429 and second.json()["code"] == "throttled"
    assert len(mail.outbox) == 1


def test_me_reads_in_a_fixed_number_of_queries(django_assert_max_num_queries):
    player = PlayerFactory(user__username="alice", display_name="Alice")
    EmailAddress.objects.create(user=player.user, email="alice@example.org", verified=True, primary=True)
    client = client_for(player.user)
    client.get("/api/v1/me/")  # the token's first use
    with django_assert_max_num_queries(3):  # the token with his user and player, his addresses
        assert client.get("/api/v1/me/").status_code == 200

"""Credentials end when they should: a password reset or change, an email change and "sign out
everywhere" end every API token and every other session of the account; his tokens are listed and
revoked one by one; his old address is told of an email change; an address waiting for its
verification signs no one in. Each test acts as the user (or whoever holds a stolen credential)
would, through the API and the pages."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.accounts.conftest import last_link
from tests.factories import PlayerFactory
from tests.matches.factories_api import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-password"
NEW_ADDRESS = "liddell@example.org"


@pytest.fixture
def alice():
    player = PlayerFactory(user__username="alice", user__email="alice@example.org", display_name="Alice")
    EmailAddress.objects.create(user=player.user, email="alice@example.org", verified=True, primary=True)
    return player.user


@pytest.fixture
def bob():
    player = PlayerFactory(user__username="bob", user__email="bob@example.org", display_name="Bob")
    EmailAddress.objects.create(user=player.user, email="bob@example.org", verified=True, primary=True)
    return player.user


def token_of(username: str, password: str = PASSWORD, **extra) -> str:
    """A token, asked for as a script would: its key."""
    response = APIClient().post("/api/v1/auth/token/", {"username": username, "password": password, **extra},
                                format="json")
    assert response.status_code == 200, response.json()
    return response.json()["token"]


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def browser(user) -> APIClient:
    """A browser signed in with a session of his (a real session row, with its auth hash)."""
    client = APIClient()
    client.force_login(user)
    return client


def me(client) -> int:
    return client.get("/api/v1/me/").status_code


def key_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


def test_a_password_reset_ends_every_token_and_session(alice, outbox_inline):
    key, session = token_of("alice"), browser(alice)
    assert (me(with_token(key)), me(session)) == (200, 200)
    with outbox_inline():
        APIClient().post("/api/v1/auth/password/reset/", {"email": "alice@example.org"}, format="json")
    with outbox_inline():
        done = APIClient().post("/api/v1/auth/password/reset/confirm/",
                                {"key": key_of(last_link()), "password": NEW_PASSWORD}, format="json")
    assert done.status_code == 200, done.json()
    assert me(with_token(key)) == 401, "the token a thief holds still works after the reset"
    assert me(session) == 401
    fresh = token_of("alice", NEW_PASSWORD)
    assert fresh != key and me(with_token(fresh)) == 200


def test_a_password_change_ends_every_other_session_and_every_token_and_keeps_this_one(alice):
    key, other = token_of("alice"), browser(alice)
    this = Client()
    this.force_login(alice)
    done = this.post(reverse("account_change_password"),
                     {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert this.get(reverse("account_email")).status_code == 200  # the browser that changed it
    assert me(other) == 401
    assert me(with_token(key)) == 401


def test_an_email_change_ends_every_token_and_session_once_the_new_address_is_verified(alice, outbox_inline):
    key, session = token_of("alice"), browser(alice)
    with outbox_inline():
        asked = with_token(key).patch("/api/v1/me/", {"email": NEW_ADDRESS}, format="json")
    assert asked.status_code == 200
    assert (me(with_token(key)), me(session)) == (200, 200)  # nothing changed yet
    with outbox_inline():
        verified = APIClient().post("/api/v1/auth/email/verify/", {"key": key_of(last_link())}, format="json")
    assert verified.status_code == 200
    assert me(with_token(key)) == 401
    assert me(session) == 401


def test_the_old_address_is_told_of_an_email_change_in_his_language_with_an_absolute_link(alice, outbox_inline,
                                                                                          settings):
    settings.CRAWFORD_SITE_URL = "https://crawford.example.org"
    alice.preferred_language = "ko"
    alice.save(update_fields=["preferred_language"])
    with outbox_inline():
        asked = browser(alice).patch("/api/v1/me/", {"email": NEW_ADDRESS}, format="json")
    assert asked.status_code == 200
    told = [message for message in mail.outbox if message.to == ["alice@example.org"]]
    assert len(told) == 1, "the old address was told nothing"
    body = told[0].body
    assert NEW_ADDRESS in body and "alice@example.org" in body
    assert "https://crawford.example.org/accounts/email/" in body
    with translation.override("ko"):
        subject = translation.gettext("A change of your email address was asked")
    assert subject != "A change of your email address was asked" and told[0].subject == f"[Crawford] {subject}"
    assert body.startswith("Hello Alice,") or body.startswith("Alice 회원님")  # his display name, not his username
    # The new address gets its link last, as before.
    assert mail.outbox[-1].to == [NEW_ADDRESS]


def test_the_old_address_is_told_when_the_change_is_asked_on_the_account_page(alice, outbox_inline):
    client = Client()
    client.force_login(alice)
    with outbox_inline():
        client.post(reverse("account_email"), {"action_add": "", "email": NEW_ADDRESS})
    told = [message for message in mail.outbox if message.to == ["alice@example.org"]]
    assert len(told) == 1 and NEW_ADDRESS in told[0].body


def test_an_address_waiting_for_its_verification_signs_no_one_in(alice, outbox_inline):
    with outbox_inline():
        browser(alice).patch("/api/v1/me/", {"email": NEW_ADDRESS}, format="json")
    verification = last_link()
    mail.outbox.clear()

    token = APIClient().post("/api/v1/auth/token/", {"username": NEW_ADDRESS, "password": PASSWORD}, format="json")
    assert token.status_code == 400 and token.json()["code"] == "invalid_credentials"
    session = APIClient().post("/api/v1/auth/login/", {"username": NEW_ADDRESS, "password": PASSWORD}, format="json")
    assert session.status_code == 400
    page = Client().post(reverse("login"), {"username": NEW_ADDRESS, "password": PASSWORD})
    assert page.status_code == 200 and "_auth_user_id" not in page.wsgi_request.session

    # His address stays the primary one, and signs him in, until the new one is verified.
    assert EmailAddress.objects.get(user=alice, primary=True).email == "alice@example.org"
    assert token_of("alice@example.org")
    with outbox_inline():
        APIClient().post("/api/v1/auth/email/verify/", {"key": key_of(verification)}, format="json")
    assert token_of(NEW_ADDRESS)
    old = APIClient().post("/api/v1/auth/token/", {"username": "alice@example.org", "password": PASSWORD},
                           format="json")
    assert old.status_code == 400


def test_an_address_waiting_for_its_verification_gets_no_password_reset_link(alice, outbox_inline):
    with outbox_inline():
        browser(alice).patch("/api/v1/me/", {"email": NEW_ADDRESS}, format="json")
    mail.outbox.clear()
    with outbox_inline():
        asked = APIClient().post("/api/v1/auth/password/reset/", {"email": NEW_ADDRESS}, format="json")
    assert asked.status_code == 202  # the same answer as for any address
    assert not any("/password/reset/key/" in message.body for message in mail.outbox)
    with outbox_inline():
        Client().post(reverse("account_reset_password"), {"email": NEW_ADDRESS})
    assert not any("/password/reset/key/" in message.body for message in mail.outbox)
    with outbox_inline():
        APIClient().post("/api/v1/auth/password/reset/", {"email": "alice@example.org"}, format="json")
    assert "/password/reset/key/" in mail.outbox[-1].body and mail.outbox[-1].to == ["alice@example.org"]


def test_his_tokens_are_listed_without_their_keys_and_revoked_one_by_one(alice, bob):
    laptop, phone = token_of("alice", name="laptop"), token_of("alice", name="phone")
    bobs = token_of("bob")
    listed = with_token(laptop).get("/api/v1/me/tokens/")
    assert listed.status_code == 200
    rows = listed.json()
    assert [(row["name"], row["current"]) for row in rows] == [("phone", False), ("laptop", True)]
    assert laptop not in listed.content.decode() and phone not in listed.content.decode()
    assert set(rows[0]) == {"id", "name", "created_at", "last_used_at", "current"}

    assert with_token(laptop).delete(f"/api/v1/me/tokens/{rows[0]['id']}/").status_code == 204
    assert me(with_token(phone)) == 401 and me(with_token(laptop)) == 200

    bobs_id = with_token(bobs).get("/api/v1/me/tokens/").json()[0]["id"]
    refused = with_token(laptop).delete(f"/api/v1/me/tokens/{bobs_id}/")
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert me(with_token(bobs)) == 200
    assert APIClient().get("/api/v1/me/tokens/").status_code == 401


def test_sign_out_everywhere_ends_every_token_and_every_other_session(alice, bob):
    key, this, other = token_of("alice"), browser(alice), browser(alice)
    bobs, bobs_session = token_of("bob"), browser(bob)
    assert this.post("/api/v1/me/sign-out-everywhere/").status_code == 204
    assert me(this) == 200
    assert me(other) == 401 and me(with_token(key)) == 401
    assert me(with_token(bobs)) == 200 and me(bobs_session) == 200  # his own only

    again = token_of("alice")
    assert with_token(again).post("/api/v1/me/sign-out-everywhere/").status_code == 204
    assert me(with_token(again)) == 401  # the token that asked too
    assert me(this) == 401


def test_the_account_page_lists_his_tokens_revokes_one_and_signs_out_everywhere(alice, bob):
    laptop = token_of("alice", name="laptop")
    bobs = token_of("bob", name="bobs-script")
    client = Client()
    client.force_login(alice)
    other = browser(alice)
    page = client.get(reverse("account_email")).content.decode()
    assert "laptop" in page and laptop not in page and "bobs-script" not in page
    laptop_id = with_token(laptop).get("/api/v1/me/tokens/").json()[0]["id"]
    bobs_id = with_token(bobs).get("/api/v1/me/tokens/").json()[0]["id"]
    assert reverse("account_token_revoke", args=[laptop_id]) in page

    assert client.post(reverse("account_token_revoke", args=[bobs_id])).status_code == 404
    assert me(with_token(bobs)) == 200
    assert client.get(reverse("account_token_revoke", args=[laptop_id])).status_code == 405
    revoked = client.post(reverse("account_token_revoke", args=[laptop_id]))
    assert revoked.status_code == 302 and me(with_token(laptop)) == 401

    phone = token_of("alice", name="phone")
    assert client.get(reverse("account_sign_out_everywhere")).status_code == 405
    out = client.post(reverse("account_sign_out_everywhere"), follow=True)
    assert out.status_code == 200 and out.redirect_chain[-1][0] == reverse("account_email")
    assert me(other) == 401 and me(with_token(phone)) == 401
    assert client.get(reverse("account_email")).status_code == 200  # this browser stays signed in


def test_the_account_page_reads_his_tokens_in_the_same_queries_however_many(alice):
    from accounts.services import api_token_create

    client = Client()
    client.force_login(alice)
    api_token_create(user=alice, name="one")
    with CaptureQueriesContext(connection) as few:
        assert client.get(reverse("account_email")).status_code == 200
    for number in range(5):
        api_token_create(user=alice, name=f"more {number}")
    with CaptureQueriesContext(connection) as many:
        page = client.get(reverse("account_email"))
    assert "more 4" in page.content.decode()
    assert len(many) == len(few)


def test_a_new_token_beyond_the_most_replaces_the_least_recently_used(alice):
    from django.utils import timezone

    from accounts.models import ApiToken
    from accounts.services import TOKENS_MAX, api_token_create

    tokens = [api_token_create(user=alice, name=f"t{number}")[0] for number in range(TOKENS_MAX)]
    ApiToken.objects.filter(pk=tokens[0].pk).update(last_used_at=timezone.now())  # the oldest, but in use
    client = with_token(api_token_create(user=alice, name="probe")[1])
    assert me(client) == 200
    names = set(ApiToken.objects.filter(user=alice).values_list("name", flat=True))
    assert len(names) == TOKENS_MAX and {"probe", "t0"} <= names and "t1" not in names


def test_the_audit_log_says_why_his_credentials_ended_and_which_token_he_revoked(alice, outbox_inline):
    from audit.describe import describe
    from audit.models import AuditEntry

    laptop = token_of("alice", name="laptop")
    token_id = with_token(laptop).get("/api/v1/me/tokens/").json()[0]["id"]
    with_token(laptop).delete(f"/api/v1/me/tokens/{token_id}/")
    token_of("alice")
    browser(alice).post("/api/v1/me/sign-out-everywhere/")
    with outbox_inline():
        APIClient().post("/api/v1/auth/password/reset/", {"email": "alice@example.org"}, format="json")
    with outbox_inline():
        APIClient().post("/api/v1/auth/password/reset/confirm/", {"key": key_of(last_link()), "password": NEW_PASSWORD},
                         format="json")
    entries = list(AuditEntry.objects.filter(object_type="accounts.User", object_id=alice.pk).order_by("pk"))
    assert [(entry.action, entry.actor_id) for entry in entries] == [
        ("account.token_revoked", alice.pk), ("account.credentials_revoked", alice.pk),
        ("account.credentials_revoked", alice.pk)]
    assert [entry.after.get("reason") for entry in entries[1:]] == ["signed_out_everywhere", "password_reset"]
    assert entries[1].after["tokens"] == 1
    assert [describe(entry) for entry in entries] == [
        "Alice revoked his API token “laptop”.",
        "Alice signed out everywhere: his other sessions ended and his API tokens were revoked.",
        "Alice reset his password: every session of his ended and his API tokens were revoked.",
    ]


def test_staff_see_the_tokens_in_the_admin_without_a_key_and_not_drfs_empty_table(alice):
    from tests.factories import UserFactory

    laptop = token_of("alice", name="laptop")
    staff = Client()
    staff.force_login(UserFactory(username="stan", is_staff=True, is_superuser=True))
    page = staff.get("/admin/accounts/apitoken/")
    assert page.status_code == 200 and "laptop" in page.content.decode() and laptop not in page.content.decode()
    assert staff.get("/admin/authtoken/tokenproxy/").status_code == 404


def test_staff_setting_a_password_in_the_admin_ends_every_token_and_session(alice):
    key, session = token_of("alice"), browser(alice)
    stan = PlayerFactory(user__username="stan", user__is_staff=True, user__is_superuser=True).user
    admin = Client()
    admin.force_login(stan)
    response = admin.post(reverse("admin:auth_user_password_change", args=[alice.pk]),
                          {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert (me(with_token(key)), me(session)) == (401, 401)
    assert token_of("alice", NEW_PASSWORD)
    assert admin.get(reverse("admin:index")).status_code == 200  # his own session is not touched

"""Deleting one's account: his email addresses, names, password, token and failed sign-ins go; the
user row stays (results, rulings and events name who did what) with nothing personal; his player
is let go of, and his matches stay under the player's display name. A wrong password changes
nothing."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from matches.models import Match, Player, Report
from tests.matches.factories_api import PASSWORD, client_for, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    cast = make_cast()
    alice = cast.alice
    alice.first_name, alice.last_name = "Alice", "Liddell"
    alice.save()
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    return cast


def snapshot(cast) -> dict:
    match = Match.objects.get(pk=cast.match.pk)
    return {"status": match.status, "sides": str(match.side0), "reports": Report.objects.filter(match=match).count()}


def assert_erased(user_id: int, player_id: int, cast, before: dict) -> None:
    user = User.objects.get(pk=user_id)
    assert (user.username, user.email, user.first_name, user.last_name) == (f"deleted:{user_id}", "", "", "")
    assert not user.has_usable_password() and not user.is_active and user.last_login is None
    assert not EmailAddress.objects.filter(user_id=user_id).exists()
    assert not ApiToken.objects.filter(user_id=user_id).exists()
    assert not AccessAttempt.objects.filter(username="alice").exists()
    player = Player.objects.get(pk=player_id)
    assert player.user_id is None and player.display_name == "Alice"
    assert snapshot(cast) == before  # the match, its sides and its reports as they were
    assert Match.objects.get(pk=cast.match.pk).side0.player_a_id == player_id


def test_deleting_through_the_api_removes_his_personal_data_and_keeps_his_matches(cast):
    cast.match.side0.player_a.display_name = "Alice"
    cast.match.side0.player_a.save()
    client = client_for(cast.alice)
    assert client.post(f"/api/v1/matches/{cast.match.pk}/report/", {"score": [5, 2]}, format="json").status_code == 200
    AccessAttempt.objects.create(username="alice", ip_address="192.0.2.1", user_agent="x", failures_since_start=1)
    before = snapshot(cast)
    player_id = cast.match.side0.player_a_id

    wrong = client.post("/api/v1/me/delete/", {"password": "not-it"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "wrong_password" and list(wrong.json()["errors"]) == ["password"]
    assert User.objects.get(pk=cast.alice.pk).email == cast.alice.email

    assert client.post("/api/v1/me/delete/", {"password": PASSWORD}, format="json").status_code == 204
    assert_erased(cast.alice.pk, player_id, cast, before)
    assert client.get("/api/v1/me/").status_code == 401  # the token is gone
    assert APIClient().post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD},
                            format="json").status_code == 400
    # His name is free again; the deleted row's cannot be signed up for.
    assert not User.objects.filter(username="alice").exists()


def test_deleting_through_the_page_signs_him_out(cast):
    cast.match.side0.player_a.display_name = "Alice"
    cast.match.side0.player_a.save()
    before = snapshot(cast)
    client = Client()
    client.force_login(cast.alice)
    page = client.get(reverse("account_delete"))
    assert page.status_code == 200 and "match records" in page.content.decode()
    wrong = client.post(reverse("account_delete"), {"password": "not-it"})
    assert wrong.status_code == 400 and "This is not your password." in wrong.content.decode()
    assert User.objects.get(pk=cast.alice.pk).is_active

    done = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("login")
    assert "_auth_user_id" not in client.session
    assert_erased(cast.alice.pk, cast.match.side0.player_a_id, cast, before)
    # His match page still shows the match under his player's name.
    detail = Client().get(reverse("matches:detail", kwargs={"match_id": cast.match.pk}))
    assert detail.status_code == 200 and "Alice" in detail.content.decode()


def test_deleting_needs_a_signed_in_user():
    assert Client().get(reverse("account_delete")).status_code == 302
    assert APIClient().post("/api/v1/me/delete/", {"password": "x"}, format="json").status_code == 401

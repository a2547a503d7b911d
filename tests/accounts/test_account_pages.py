"""His account's pages: the email address changed through a link sent to the new one (the old one
stays until then), the link sent again, the password changed, the nav's links."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.accounts.conftest import last_link
from tests.factories import PlayerFactory
from tests.matches.factories_api import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    player = PlayerFactory(user__username="alice", user__email="alice@example.org", display_name="Alice")
    EmailAddress.objects.create(user=player.user, email="alice@example.org", verified=True, primary=True)
    return player.user


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_nav_links_to_his_account_and_the_page_shows_it(alice):
    client = signed_in(alice)
    home = client.get(reverse("matches:mine")).content.decode()
    assert f'href="{reverse("account_email")}"' in home and reverse("account_signup") not in home
    page = client.get(reverse("account_email")).content.decode()
    assert "alice@example.org" in page and "Alice" in page
    for name in ("account_change_password", "account_delete"):
        assert f'href="{reverse(name)}"' in page


def test_changing_the_address_takes_effect_when_the_new_one_is_verified(alice, outbox_inline):
    client = signed_in(alice)
    with outbox_inline():
        response = client.post(reverse("account_email"), {"action_add": "", "email": "liddell@example.org"})
    assert response.status_code == 302
    # His address is told first (accounts/test_credentials.py), then the new one gets its link.
    assert [m.to for m in mail.outbox] == [["alice@example.org"], ["liddell@example.org"]]
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"  # still, until the new one is verified
    page = client.get(reverse("account_email")).content.decode()
    assert "We emailed a link to liddell@example.org" in page

    from django.core.cache import cache

    cache.clear()  # allauth lets one verification email a few minutes per address
    with outbox_inline():
        client.post(reverse("account_email"), {"action_send": "", "email": "liddell@example.org"})
    assert len(mail.outbox) == 3 and mail.outbox[2].to == ["liddell@example.org"]

    link = last_link()
    assert client.post(link).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "liddell@example.org"
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", "verified", "primary")) == [
        ("liddell@example.org", True, True)]


def test_a_taken_address_is_not_taken_from_its_owner(alice, outbox_inline):
    other = PlayerFactory(user__username="bob", user__email="bob@example.org").user
    EmailAddress.objects.create(user=other, email="bob@example.org", verified=True, primary=True)
    client = signed_in(alice)
    with outbox_inline():
        client.post(reverse("account_email"), {"action_add": "", "email": "bob@example.org"})
    # allauth tells nobody whose it is (the link goes out as for any address); following it fails.
    assert [m.to for m in mail.outbox] == [["alice@example.org"], ["bob@example.org"]]
    client.post(last_link())
    assert EmailAddress.objects.get(email="bob@example.org", verified=True).user == other
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_changing_the_password_needs_the_current_one(alice):
    client = signed_in(alice)
    url = reverse("account_change_password")
    wrong = client.post(url, {"oldpassword": "nope", "password1": "a-new-long-password",
                              "password2": "a-new-long-password"})
    assert wrong.status_code == 200 and "This is not your current password." in wrong.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    done = client.post(url, {"oldpassword": PASSWORD, "password1": "a-new-long-password",
                             "password2": "a-new-long-password"})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-long-password")


def test_a_password_reset_through_the_pages(alice, outbox_inline):
    client = Client()
    with outbox_inline():
        asked = client.post(reverse("account_reset_password"), {"email": "alice@example.org"})
    assert asked.status_code == 302 and asked["Location"] == reverse("account_reset_password_done")
    link = last_link()
    form = client.get(link, follow=True)  # allauth moves the key into the session, then shows the form
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0] if form.redirect_chain else link,
                       {"password1": "a-new-long-password", "password2": "a-new-long-password"})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-long-password")
    signed_in = client.post(reverse("login"), {"username": "alice", "password": "a-new-long-password"})
    assert signed_in.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)


def test_a_bad_reset_link_says_so_and_changes_nothing(alice):
    client = Client()
    page = client.get(f"/accounts/password/reset/key/{alice.pk}-not-a-token/", follow=True)
    assert "This password reset link is not valid" in page.content.decode()
    client.post(f"/accounts/password/reset/key/{alice.pk}-not-a-token/",
                {"password1": "a-new-long-password", "password2": "a-new-long-password"})
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)

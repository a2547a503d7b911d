"""Signing out from the address bar: a GET of the sign-out address asks, on a page of the site,
whether to sign out (a form posting with its CSRF token); only the POST signs out. Someone not
signed in is sent to the sign-in page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def signed_in(user, **kwargs) -> Client:
    client = Client(enforce_csrf_checks=True, **kwargs)
    client.force_login(user)
    return client


def sign_out_form(html: str) -> str:
    forms = re.findall(r"<main>.*?(<form[^>]*>.*?</form>)", html, re.S)
    assert len(forms) == 1, html
    return forms[0]


def test_a_get_of_the_sign_out_address_asks_on_a_page_of_the_site():
    assert reverse("logout") == reverse("account_logout") == "/accounts/logout/"
    client = signed_in(UserFactory(username="alice"))
    response = client.get("/accounts/logout/")
    assert response.status_code == 200
    html = response.content.decode()
    # The house's page: its header and navigation, the title and the question in <main>.
    assert '<header class="site">' in html and "<title>Sign out · Crawford</title>" in html
    assert re.search(r"<h1>\s*Sign out\s*</h1>", html)
    assert "Are you sure you want to sign out?" in html
    form = sign_out_form(html)
    assert 'method="post"' in form and f'action="{reverse("logout")}"' in form
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token and re.search(r'<button type="submit">\s*Sign out\s*</button>', form)
    # Asking is not signing out: only the form's POST, with its token, does.
    assert client.get(reverse("account_email")).status_code == 200
    assert client.post(reverse("logout")).status_code == 403
    response = client.post(reverse("logout"), {"csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302 and response.url == reverse("login")
    assert "_auth_user_id" not in client.session


def test_the_page_keeps_where_to_go_after_signing_out():
    client = signed_in(UserFactory(username="alice"))
    form = sign_out_form(client.get(f"{reverse('logout')}?next=/events/").content.decode())
    assert '<input type="hidden" name="next" value="/events/">' in form
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = client.post(reverse("logout"), {"csrfmiddlewaretoken": token, "next": "/events/"})
    assert response.status_code == 302 and response.url == "/events/"


def test_the_page_speaks_the_visitors_language():
    client = signed_in(UserFactory(username="alice", preferred_language="ko"))
    html = client.get(reverse("logout")).content.decode()
    assert '<html lang="ko"' in html and re.search(r"<h1>\s*로그아웃\s*</h1>", html)


def test_someone_not_signed_in_is_sent_to_the_sign_in_page():
    response = Client().get(reverse("logout"))
    assert response.status_code == 302 and response.url == reverse("login")

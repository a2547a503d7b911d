"""A person's language as he expects it (accounts.User.preferred_language, core.middleware.UserLanguageMiddleware):
an account begins "as my browser says", so its pages follow Accept-Language (or this browser's
switcher); a language he chose wins over the browser and over an old language cookie; signing out
clears the cookie, so the browser speaks again; his emails are in the language he chose, else the
site's or, for an email his own request sends, that page's."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from accounts.models import User
from audit.models import AuditEntry
from core.i18n import language_of, languages_of
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_ratings import run_tasks_inline

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang(response) -> str:
    return re.search(r'<html lang="(\w+)"', response.content.decode()).group(1)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_new_account_follows_the_browser_until_he_chooses():
    made = User.objects.create_user(username="walkin", password="a-long-pass-phrase")
    assert made.preferred_language == User.Language.BROWSER == "browser"
    made.refresh_from_db()
    assert made.preferred_language == "browser"
    assert User.Language.BROWSER.label == "As my browser says"


def test_an_account_that_follows_the_browser_reads_korean_when_the_browser_asks_for_it():
    client = signed_in(UserFactory(username="demo-kim"))
    assert lang(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ko,en;q=0.5")) == "ko"
    assert lang(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ar")) == "ar"
    assert lang(client.get("/players/")) == "en"


def test_a_language_he_chose_wins_over_the_browser_and_over_an_old_cookie():
    client = signed_in(UserFactory(username="ion", preferred_language="ro"))
    assert lang(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ko")) == "ro"
    client.cookies[COOKIE] = "ar"
    assert lang(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ko")) == "ro"
    # Following the browser, the cookie (this browser's switcher) comes before Accept-Language, as for anyone.
    follower = signed_in(UserFactory(username="follower"))
    follower.cookies[COOKIE] = "ar"
    assert lang(follower.get("/players/", HTTP_ACCEPT_LANGUAGE="ko")) == "ar"


def test_signing_out_clears_the_language_cookie_and_the_browser_speaks_again():
    client = signed_in(UserFactory(username="sana", preferred_language="ar"))
    assert client.post("/i18n/setlang/", {"language": "ro", "next": "/players/"}).status_code == 302
    assert client.cookies[COOKIE].value == "ro"
    out = client.post(reverse("logout"))
    assert out.status_code == 302
    # Deleted: an empty value that expired in 1970, on the cookie's own path.
    assert out.cookies[COOKIE].value == "" and out.cookies[COOKIE]["max-age"] == 0
    assert out.cookies[COOKIE]["path"] == settings.LANGUAGE_COOKIE_PATH
    assert lang(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ko")) == "ko"


def test_a_request_that_does_not_sign_out_keeps_the_cookie():
    client = signed_in(UserFactory(username="kept"))
    client.cookies[COOKIE] = "ro"
    response = client.get("/players/")
    assert COOKIE not in response.cookies and lang(response) == "ro"
    # Not signed in, nothing to sign out of: the cookie stays.
    anonymous = Client()
    anonymous.cookies[COOKIE] = "ar"
    assert COOKIE not in anonymous.post(reverse("logout")).cookies


def test_choosing_as_my_browser_says_on_the_profile_lets_accept_language_speak_again():
    player = PlayerFactory(user__username="mira", user__preferred_language="ro")
    client = signed_in(player.user)
    client.cookies[COOKIE] = "ro"
    saved = client.post(reverse("matches:profile"), {"display_name": player.display_name, "country": "",
                                                     "preferred_language": "browser"})
    assert saved.status_code == 302 and saved.cookies[COOKIE].value == ""
    player.user.refresh_from_db()
    assert player.user.preferred_language == "browser"
    assert lang(client.get("/players/", HTTP_ACCEPT_LANGUAGE="ko")) == "ko"
    page = client.get(reverse("matches:profile"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<option value="browser" selected>As my browser says</option>' in page


def test_emails_to_an_account_that_follows_the_browser_are_in_the_sites_language_or_the_pages():
    follower = UserFactory(username="f", email="f@example.com")
    assert language_of(follower) == settings.LANGUAGE_CODE
    assert languages_of(["f@example.com"], default="ko") == {"f@example.com": "ko"}
    assert languages_of(["f@example.com"]) == {"f@example.com": "en"}


def test_a_password_reset_asked_on_a_korean_page_by_an_account_that_follows_the_browser_is_korean(
        monkeypatch, django_capture_on_commit_callbacks):
    run_tasks_inline(monkeypatch)
    player = PlayerFactory(user__username="jun", user__email="jun@example.org")
    EmailAddress.objects.create(user=player.user, email="jun@example.org", verified=True, primary=True)
    with django_capture_on_commit_callbacks(execute=True):
        asked = Client().post(reverse("account_reset_password"), {"email": "jun@example.org"},
                              HTTP_ACCEPT_LANGUAGE="ko")
    assert asked.status_code == 302
    assert "비밀번호" in mail.outbox[-1].subject


BEFORE = [("accounts", "0004_api_tokens_sessions_generation")]
AFTER = [("accounts", "0005_preferred_language_browser")]


def _migrate(targets):
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_lets_every_english_account_follow_the_browser_but_one_who_chose_english():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = _migrate(BEFORE)
        Old = apps.get_model("accounts", "User")
        made = {name: Old.objects.create(username=name, preferred_language=code).pk
                for name, code in [("demo", "en"), ("walkin", "en"), ("chose-en", "en"), ("back-to-en", "en"),
                                   ("left-en", "ro"), ("kim", "ko")]}
        # What the profile's changes left in the audit log (matches.services.profile).
        for name, after in [("chose-en", "en"), ("back-to-en", "ko"), ("back-to-en", "en"), ("left-en", "ro"),
                            ("walkin", "ko"), ("walkin", "ro")]:
            AuditEntry.objects.create(actor_id=made[name], action="player.profile_updated",
                                      object_type="matches.Player", after={"preferred_language": after})
        AuditEntry.objects.create(actor_id=made["demo"], action="player.profile_updated", object_type="matches.Player",
                                  after={"country": "GB"})
        apps = _migrate(AFTER)
        New = apps.get_model("accounts", "User")
        assert dict(New.objects.filter(pk__in=made.values()).values_list("username", "preferred_language")) == {
            "demo": "browser", "walkin": "browser", "chose-en": "en", "back-to-en": "en", "left-en": "ro", "kim": "ko"}
    finally:
        MigrationExecutor(connection).migrate(latest)

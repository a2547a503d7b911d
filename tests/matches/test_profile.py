"""A user's own profile: the page /me/profile/, the API /api/v1/players/me/ and the service
player_profile_update behind both. Bad input (an unknown country code or language, a name too
long or empty, an unknown field) is refused on its field and nothing is saved; a change is
audited and reads as a sentence."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from audit.describe import describe
from audit.models import AuditEntry
from core.errors import DomainError
from matches.models import Player
from matches.services.profile import player_profile_update
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/players/me/"
GOOD = {"display_name": "Dana Ro", "country": "RO", "preferred_language": "ro", "email_public": "on"}


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def dana():
    return PlayerFactory(user=UserFactory(username="dana", email="dana@example.com"), display_name="Dana",
                         country="GB")


def _unchanged(player: Player) -> None:
    player.refresh_from_db()
    player.user.refresh_from_db()
    assert (player.display_name, player.country) == ("Dana", "GB")
    user = player.user
    assert (user.preferred_language, user.email_public, user.real_name_public) == ("browser", False, False)
    assert not AuditEntry.objects.filter(action="player.profile_updated", actor_id=user.pk).exists()


def test_the_languages_a_user_may_prefer_are_the_four_and_settings_list_them():
    # First "as my browser says", every account's beginning (accounts.User.Language).
    assert [code for code, _ in User.Language.choices] == ["browser", "en", "ko", "ar", "ro"]
    assert [code for code, _ in settings.LANGUAGES] == ["en", "ko", "ar", "ro"]


# --- the page ---------------------------------------------------------------------------------------------


def test_the_page_shows_the_profile_and_saves_it(client, dana):
    client.force_login(dana.user)
    page = client.get(reverse("matches:profile"))
    assert page.status_code == 200
    assert 'value="Dana"' in page.content.decode() and "Romania" in text_of(page)
    response = client.post(reverse("matches:profile"), GOOD)
    assert response.status_code == 302 and response["Location"] == reverse("matches:player", args=[dana.pk])
    dana.refresh_from_db()
    dana.user.refresh_from_db()
    assert (dana.display_name, dana.country) == ("Dana Ro", "RO")
    assert (dana.user.preferred_language, dana.user.email_public, dana.user.real_name_public) == ("ro", True, False)
    entry = AuditEntry.objects.get(action="player.profile_updated", actor_id=dana.user.pk)
    assert entry.before == {"display_name": "Dana", "country": "GB", "preferred_language": "browser",
                            "email_public": False}
    assert describe(entry) == ("Dana changed his profile: display name, country, preferred language and whether "
                               "the email address is shown.")
    assert "dana@example.com" not in str(entry.before) + str(entry.after)


@pytest.mark.parametrize(("field", "value", "said"), [
    ("country", "XX", "“XX” is not a country code"),
    ("preferred_language", "fr", "“fr” is not a language Crawford speaks"),
    ("display_name", "N" * 121, "at most 120 characters"),
    ("display_name", "   ", "This field is required."),
])
def test_bad_input_on_the_page_is_refused_on_its_field_and_nothing_is_saved(client, dana, field, value, said):
    client.force_login(dana.user)
    response = client.post(reverse("matches:profile"), {**GOOD, field: value})
    assert response.status_code == 400
    page = response.content.decode()
    assert f'data-field="{field}"' in page and said in html.unescape(page)
    assert "Nothing was saved" in text_of(response)
    _unchanged(dana)


def test_the_signed_out_are_sent_to_sign_in(client):
    response = client.get(reverse("matches:profile"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_user_without_a_player_gets_one_by_giving_a_name(client):
    user = UserFactory(username="newcomer")
    client.force_login(user)
    assert "You have no player page yet" in text_of(client.get(reverse("matches:profile")))
    response = client.post(reverse("matches:profile"), {"display_name": "New Comer", "preferred_language": "ko"})
    player = Player.objects.get(user=user)
    assert response["Location"] == reverse("matches:player", args=[player.pk])
    assert player.display_name == "New Comer" and player.country == ""


def test_his_own_page_links_to_the_profile_and_others_do_not(client, dana):
    url = reverse("matches:player", args=[dana.pk])
    assert "Edit your profile" not in text_of(client.get(url))
    client.force_login(dana.user)
    assert "Edit your profile" in text_of(client.get(url))


# --- the service -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "field"), [
    ({"country": "ZZ"}, "country"),
    ({"country": "GBR"}, "country"),
    ({"preferred_language": "de"}, "preferred_language"),
    ({"display_name": "x" * 121}, "display_name"),
    ({"display_name": ""}, "display_name"),
    ({"email_public": "yes"}, "email_public"),
    ({"rating": 3000}, "rating"),
    # One bad value among good ones: the good ones are not saved either.
    ({"display_name": "Fine Name", "email_public": True, "country": "QQ"}, "country"),
])
def test_the_service_refuses_bad_input_naming_the_field_and_saves_nothing(dana, changes, field):
    with pytest.raises(DomainError) as refused:
        player_profile_update(user=dana.user, **changes)
    assert refused.value.code == "bad_profile" and refused.value.details["field"] == field
    _unchanged(dana)


def test_the_service_takes_lower_case_codes_and_changes_only_what_is_given(dana):
    player_profile_update(user=dana.user, country="kr")
    dana.refresh_from_db()
    assert dana.country == "KR" and dana.display_name == "Dana"
    player_profile_update(user=dana.user, country="")
    dana.refresh_from_db()
    assert dana.country == ""
    before = AuditEntry.objects.filter(action="player.profile_updated").count()
    player_profile_update(user=dana.user, country="")  # nothing changes: nothing audited
    assert AuditEntry.objects.filter(action="player.profile_updated").count() == before


# --- the API -------------------------------------------------------------------------------------------------


def test_the_api_reads_and_changes_the_own_profile(dana):
    api = client_for(dana.user)
    data = api.get(URL).data
    assert data == {"player": dana.pk, "display_name": "Dana", "country": "GB", "preferred_language": "browser",
                    "email_public": False, "real_name_public": False}
    response = api.patch(URL, {"country": "KR", "real_name_public": True}, format="json")
    assert response.status_code == 200
    assert response.data["country"] == "KR" and response.data["real_name_public"] is True
    assert response.data["display_name"] == "Dana"
    assert "dana@example.com" not in response.content.decode()


@pytest.mark.parametrize(("body", "field"), [
    ({"country": "XX"}, "country"),
    ({"preferred_language": "fr"}, "preferred_language"),
    ({"display_name": "n" * 121}, "display_name"),
    ({"email_public": "yes"}, "email_public"),
    ({"rating": 2500}, "rating"),
    ({"player": 5}, "player"),
])
def test_the_api_refuses_bad_input_in_the_house_error_body_and_saves_nothing(dana, body, field):
    response = client_for(dana.user).patch(URL, {"display_name": "Other", **body}, format="json")
    assert response.status_code == 400, response.data
    assert set(response.data) >= {"detail", "code", "errors"} and field in response.data["errors"]
    _unchanged(dana)


def test_the_api_needs_a_user(dana):
    assert client_for().get(URL).status_code == 401
    assert client_for().patch(URL, {"country": "KR"}, format="json").status_code == 401


def test_the_api_makes_a_player_only_with_a_name():
    user = UserFactory(username="apinew")
    api = client_for(user)
    assert api.get(URL).data["player"] is None
    refused = api.patch(URL, {"country": "RO"}, format="json")
    assert refused.status_code == 400 and "display_name" in refused.data["errors"]
    assert not Player.objects.filter(user=user).exists()
    made = api.patch(URL, {"display_name": "Api New", "country": "RO"}, format="json")
    assert made.status_code == 200 and made.data["player"] == Player.objects.get(user=user).pk

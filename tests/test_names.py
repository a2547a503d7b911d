"""Names people type (core/text.py ``name_clean``): a player's display name (sign-up, his account,
his profile), a guest's or walk-in's name, a club's, a season's, an event's, a team's, a
chouette's and a club night's title. Refused, with a 400 naming the field and nothing saved: the
direction controls that reverse or isolate text (U+202A to U+202E, U+2066 to U+2069), a name with
nothing visible in it (zero-width characters, marks alone, direction marks alone), control
characters (a line break, a tab). Korean, Arabic, Persian (with its joiners inside words) and
Romanian names pass, composed (NFC).
"""

from __future__ import annotations

import html
import unicodedata

import pytest
from django.urls import reverse

from accounts.forms import SignUpForm
from accounts.models import User
from chouette.models import ChouetteSession
from clubs.models import Club, ClubNight, Season
from core.errors import DomainError
from core.text import name_clean, name_problem
from matches.models import Player
from matches.services.guests import player_create_guest
from tests.clubs.factories import club_cast
from tests.factories import UserFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import closed, make_organiser
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db

BAD = {
    "reversed": "\u202e" * 120,
    "zero-width spaces": "\u200b" * 50,
    "a line break": "Anna\nBerg",
    "a tab": "Anna\tBerg",
    "an override inside": "Anna \u202egreB",
    "an isolate": "\u2066Anna\u2069",
    "an embedding": "\u202bAnna\u202c",
    "marks alone": "\u0301\u0308\u0326",
    "direction marks alone": "\u200f\u200e",
    "joiners alone": "\u200d\u200c",
    "a word joiner and a byte-order mark": "\u2060\ufeff",
    "Hangul fillers": "\u3164\u3164",
    "a zero-width space inside": "Al\u200bice",
    "a soft hyphen inside": "Ali\u00adce",
    "a joiner at the end": "Alice\u200d",
}

#: The ones the review found accepted (and a short reversal, within every field's length).
INSANE = [pytest.param(BAD[key], id=key)
          for key in ("reversed", "zero-width spaces", "a line break", "an override inside")]

GOOD = [
    "김민준",
    "이서연 (Seo-yeon Lee)",
    "محمد عبد الله",
    "فاطمة الزهراء",
    "مهرداد نیک\u200cنام",  # noqa: RUF001 (Persian: a zero-width non-joiner between the letters of one word)
    "ع\u200dلي",  # a zero-width joiner between Arabic letters
    "Sam \U0001f468\u200d\U0001f469\u200d\U0001f467",  # an emoji family: joiners between symbols
    "\u200fمحمد (Mohammed)",  # a right-to-left mark
    "Ștefan Țăranu",
    "Ioana-Maria Dumitrașcu",
]


@pytest.mark.parametrize("name", BAD.values(), ids=BAD.keys())
def test_each_insane_name_is_refused_saying_what_is_wrong_and_which_field(name):
    assert name_problem(name)
    with pytest.raises(DomainError) as refused:
        name_clean(name, field="display_name")
    assert refused.value.code == "bad_name"
    assert refused.value.details == {"field": "display_name"}
    assert refused.value.message.startswith("display_name: a name ")


def test_the_refusals_say_which_problem_it_is():
    assert "control characters" in name_problem("Anna\nBerg")
    assert "direction" in name_problem("\u202e" * 120)
    assert "invisible" in name_problem("\u200b" * 50)
    assert "zero-width space" in name_problem("Al\u200bice") and "visible letter" not in name_problem("Al\u200bice")


@pytest.mark.parametrize("name", GOOD)
def test_real_names_pass_unchanged(name):
    assert name_problem(name) is None
    assert name_clean(name, field="name") == name


def test_a_name_is_composed_and_its_spaces_made_one():
    decomposed = "S\u0326tefan  T\u0326a\u0306ranu "  # S + comma below, a + breve
    assert name_clean(decomposed, field="name") == "\u0218tefan \u021a\u0103ranu"
    assert name_clean("   ", field="name") == ""  # blank: the caller says the name is missing
    assert name_clean("\u3000", field="name") == ""


# --- every service that takes a name, through the API ------------------------------------------


def refused(response, field: str) -> None:
    assert response.status_code == 400, (response.status_code, response.content)
    assert field in response.json()["errors"], response.json()


@pytest.mark.parametrize("name", INSANE)
def test_a_sign_up_with_an_insane_display_name_is_a_400_and_makes_no_account(name):
    response = client_for(None).post("/api/v1/auth/signup/", {
        "username": "newton", "display_name": name, "email": "isaac@example.org",
        "password": "a-long-and-good-password"}, format="json")
    refused(response, "display_name")
    assert not User.objects.filter(username="newton").exists()
    form = SignUpForm(data={"username": "newton", "display_name": name, "email": "isaac@example.org",
                            "password1": "a-long-and-good-password", "password2": "a-long-and-good-password"})
    assert not form.is_valid() and "display_name" in form.errors


@pytest.mark.parametrize("route", ["/api/v1/me/", "/api/v1/players/me/"])
@pytest.mark.parametrize("name", INSANE)
def test_a_player_cannot_take_an_insane_display_name(route, name):
    user = UserFactory(username="dora")
    player = Player.objects.create(user=user, display_name="Dora")
    refused(client_for(user).patch(route, {"display_name": name}, format="json"), "display_name")
    player.refresh_from_db()
    assert player.display_name == "Dora"


@pytest.mark.parametrize("route", ["/api/v1/me/", "/api/v1/players/me/"])
def test_a_player_takes_a_korean_arabic_or_romanian_display_name_composed(route):
    user = UserFactory(username="dora")
    player = Player.objects.create(user=user, display_name="Dora")
    client = client_for(user)
    for name in ("김민준", "مهرداد نیک\u200cنام", "Ștefan Țăranu"):  # noqa: RUF001
        assert client.patch(route, {"display_name": name}, format="json").status_code == 200
        player.refresh_from_db()
        assert player.display_name == name
    assert client.patch(route, {"display_name": "S\u0326tefan"}, format="json").status_code == 200
    player.refresh_from_db()
    assert player.display_name == unicodedata.normalize("NFC", "S\u0326tefan") == "\u0218tefan"


@pytest.mark.parametrize("name", INSANE)
def test_walk_ins_and_guests_cannot_have_insane_names(name):
    club = club_cast()
    event = closed()
    before = Player.objects.count()
    refused(client_for(club.organiser).post(reverse("api-club-membership-walk-in", args=[club.club.pk]),
                                            {"name": name}, format="json"), "name")
    refused(client_for(event.organiser).post(reverse("api-tournament-walk-in", args=[event.pk]), {"name": name},
                                             format="json"), "name")
    with pytest.raises(DomainError) as error:
        player_create_guest(actor=event.organiser, name=name)
    assert error.value.details == {"field": "name"}
    assert Player.objects.count() == before


@pytest.mark.parametrize("name", INSANE)
def test_a_club_cannot_be_made_or_renamed_with_an_insane_name(name):
    club = club_cast()
    client = client_for(club.owner)
    refused(client.post("/api/v1/clubs/", {"name": name, "city": "Lyon"}, format="json"), "name")
    assert Club.objects.count() == 1
    refused(client.patch(f"/api/v1/clubs/{club.club.pk}/", {"name": name}, format="json"), "name")
    club.club.refresh_from_db()
    assert club.club.name == "Crawford Club"


@pytest.mark.parametrize("name", INSANE)
def test_a_season_cannot_have_an_insane_name(name):
    club = club_cast()
    refused(client_for(club.owner).post(f"/api/v1/clubs/{club.club.pk}/seasons/",
                                        {"name": name, "starts_on": "2025-06-01", "ends_on": "2025-08-31"},
                                        format="json"), "name")
    assert not Season.objects.exists()


def test_a_club_takes_a_romanian_name_composed():
    owner = UserFactory(username="ana")
    response = client_for(owner).post("/api/v1/clubs/", {"name": "Clubul de table din Bras\u0326ov"}, format="json")
    assert response.status_code == 201, response.content
    assert Club.objects.get().name == "Clubul de table din Brașov"


@pytest.mark.parametrize("name", INSANE)
def test_an_event_cannot_be_made_or_renamed_with_an_insane_name(name):
    organiser = make_organiser()
    client = client_for(organiser)
    refused(client.post("/api/v1/tournaments/", {"name": name}, format="json"), "name")
    assert not Tournament.objects.exists()
    event = Tournament.objects.create(name="Cup", organiser=organiser, status=Tournament.Status.OPEN)
    refused(client.patch(f"/api/v1/tournaments/{event.pk}/", {"name": name}, format="json"), "name")
    event.refresh_from_db()
    assert event.name == "Cup"


@pytest.mark.parametrize("name", INSANE)
def test_a_team_cannot_have_an_insane_name(name):
    organiser = make_organiser()
    event = Tournament.objects.create(name="Team cup", organiser=organiser, kind=Tournament.Kind.TEAMS,
                                      status=Tournament.Status.OPEN)
    refused(client_for(organiser).post(f"/api/v1/tournaments/{event.pk}/teams/",
                                       {"name": name, "captain_id": 1, "member_ids": []}, format="json"), "name")
    assert not Team.objects.exists()


@pytest.mark.parametrize("name", INSANE)
def test_a_chouette_cannot_have_an_insane_name(name):
    members = club_cast(name="Chouette Club")
    seats = [members.player(user).pk for user in members.active_users]
    body = {"name": name, "rolloff": [[[seat, 6 - i] for i, seat in enumerate(seats)]]}
    refused(client_for(members.owner).post(f"/api/v1/clubs/{members.club.pk}/chouettes/", body, format="json"),
            "name")
    assert not ChouetteSession.objects.exists()


def test_an_event_takes_a_korean_name():
    response = client_for(make_organiser()).post("/api/v1/tournaments/", {"name": "서울 오픈 2026"}, format="json")
    assert response.status_code == 201, response.content
    assert Tournament.objects.get().name == "서울 오픈 2026"


def test_the_profile_page_refuses_an_invisible_name_on_its_field_in_a_sentence(client):
    user = UserFactory(username="dora")
    player = Player.objects.create(user=user, display_name="Dora")
    client.force_login(user)
    response = client.post(reverse("matches:profile"), {"display_name": BAD["zero-width spaces"],
                                                        "preferred_language": "en"})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert 'data-field="display_name"' in page
    assert "this one has only invisible characters or marks" in page
    assert "display_name:" not in page  # a sentence, not a field path
    player.refresh_from_db()
    assert player.display_name == "Dora"


def test_each_app_refuses_a_name_with_its_own_code():
    owner = UserFactory(username="ana")
    answer = client_for(owner).post("/api/v1/clubs/", {"name": BAD["reversed"]}, format="json")
    assert answer.json()["code"] == "bad_club", answer.json()
    answer = client_for(make_organiser()).post("/api/v1/tournaments/", {"name": BAD["a tab"]}, format="json")
    assert answer.json()["code"] == "bad_rules", answer.json()


@pytest.mark.parametrize("title", INSANE)
def test_a_club_night_cannot_have_an_insane_title(title):
    club = club_cast()
    refused(client_for(club.organiser).post(f"/api/v1/clubs/{club.club.pk}/nights/",
                                            {"date": "2025-03-04", "title": title}, format="json"), "title")
    assert not ClubNight.objects.exists()

"""A walk-in's name read as the player pickers and the desk's pasted list read it
(matches.services.walkins, through tournaments.services.walkins, its page and its API): a name an
existing player has is that player (entered, or said to be entered already), never a second
player; a different person of that name needs a country or email of his own and the organiser's
confirmation; and namesakes a director confirmed are told apart (country, club) at the desk's
pasted list and in the pickers, where each may be written as he is listed."""

from __future__ import annotations

import html

import pytest
from django import forms
from django.test import Client
from django.urls import reverse

from clubs.models import Club, HomeClub
from core.errors import Conflict, DomainError
from matches.models import Player, PlayerInvitation
from matches.pickers import PlayerChoiceField
from tests.factories import PlayerFactory, UserFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import closed, drawn, enter, snapshot
from tournaments.models import Entry, Tournament
from tournaments.services.desk import entries_paste
from tournaments.services.walkins import entry_add_walk_in

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return html.unescape(response.content.decode())


def alice_lambert() -> Player:
    """Alice Lambert (GB), who has an account (alice@example.com)."""
    return PlayerFactory(user=UserFactory(username="alambert", email="alice@example.com"), display_name="Alice Lambert",
                         country="GB")


def walk_in(tournament, **fields):
    return entry_add_walk_in(tournament_id=tournament.pk, user=tournament.organiser, **fields)


def entered_players(tournament) -> list[int]:
    return sorted(Entry.objects.filter(tournament=tournament).values_list("side__player_a", flat=True))


# --- a known name is that player ------------------------------------------------------------------


def test_a_walk_in_with_an_entrants_name_is_refused_as_entered_already_and_makes_no_player():
    tournament = closed()
    alice = alice_lambert()
    enter(tournament, [alice], checked_in=False)
    before, players = snapshot(tournament), Player.objects.count()
    with pytest.raises(Conflict) as refused:
        walk_in(tournament, name="Alice Lambert")
    assert refused.value.code == "already_entered"
    page = signed_in(tournament.organiser).post(reverse("tournaments:add_walk_in", args=[tournament.pk]),
                                                {"walkin-name": "alice  LAMBERT"})
    assert page.status_code == 409
    assert "Alice Lambert is already entered in this tournament" in text(page) and "Nothing was saved" in text(page)
    api = client_for(tournament.organiser).post(reverse("api-tournament-walk-in", args=[tournament.pk]),
                                                {"name": "Alice Lambert"}, format="json")
    assert api.status_code == 409 and api.json()["code"] == "already_entered"
    assert snapshot(tournament) == before and Player.objects.count() == players


def test_a_walk_in_with_a_known_players_name_enters_him_and_the_desk_still_finds_him_by_it():
    tournament, other = closed(), closed()
    alice = alice_lambert()
    players = Player.objects.count()
    page = signed_in(tournament.organiser).post(reverse("tournaments:add_walk_in", args=[tournament.pk]), {
        "walkin-name": "Alice Lambert", "walkin-country": "gb", "walkin-email": "alice@example.com"}, follow=True)
    assert page.status_code == 200
    assert "Alice Lambert, a player known by this name already, is entered." in text(page)
    assert entered_players(tournament) == [alice.pk] and Player.objects.count() == players
    assert not PlayerInvitation.objects.exists()  # he has an account: nobody is invited to claim him
    # Pasting his name at another event's desk enters him: there is still one Alice Lambert.
    pasted = entries_paste(tournament_id=other.pk, text="Alice Lambert", user=other.organiser)
    assert [(line.player, line.created) for line in pasted.lines] == [(alice, False)]


def test_after_the_draw_a_walk_in_with_a_known_players_name_enters_him_late():
    tournament, _players = drawn(3, format=Tournament.Format.SWISS, swiss_rounds=3)
    alice = alice_lambert()
    entry = walk_in(tournament, name="ALICE LAMBERT")
    assert (entry.side.player_a, entry.late, entry.walk_in.created) == (alice, True, False)
    assert Player.objects.filter(display_name="Alice Lambert").count() == 1


# --- a namesake: a detail of his own and the confirmation -------------------------------------------


@pytest.mark.parametrize(("fields", "code", "field"), [
    ({"country": "FR"}, "namesake_exists", "name"),
    ({"email": "other@example.com"}, "namesake_exists", "name"),
    ({"confirm_namesake": True}, "namesake_needs_detail", "country"),
    ({"confirm_namesake": True, "country": "GB"}, "namesake_not_distinct", "country"),
    ({"confirm_namesake": True, "country": "GB", "email": "ALICE@example.com"}, "namesake_not_distinct", "country"),
])
def test_a_namesake_without_a_detail_of_his_own_and_the_confirmation_is_refused_naming_the_player(fields, code, field):
    tournament = closed()
    alice_lambert()
    before, players = snapshot(tournament), Player.objects.count()
    with pytest.raises(DomainError) as refused:
        walk_in(tournament, name="Alice Lambert", **fields)
    assert (refused.value.code, refused.value.details["field"]) == (code, field)
    assert "Alice Lambert (GB)" in refused.value.message
    assert snapshot(tournament) == before and Player.objects.count() == players
    assert not PlayerInvitation.objects.exists()


@pytest.mark.parametrize("fields", [{"country": "FR"}, {"country": "GB", "email": "another.alice@example.com"}])
def test_a_confirmed_namesake_with_a_detail_of_his_own_is_a_new_guest_entered(fields):
    tournament = closed()
    alice = alice_lambert()
    entry = walk_in(tournament, name="Alice Lambert", confirm_namesake=True, **fields)
    guest = entry.side.player_a
    assert guest != alice and guest.user_id is None and guest.display_name == "Alice Lambert"
    assert (entry.walk_in.created, entry.walk_in.invited) == (True, "email" in fields)
    assert entered_players(tournament) == [guest.pk]


def test_the_page_asks_for_the_confirmation_and_takes_it():
    tournament = closed()
    alice = alice_lambert()
    organiser = signed_in(tournament.organiser)
    url = reverse("tournaments:add_walk_in", args=[tournament.pk])
    assert 'name="walkin-confirm_namesake"' in text(organiser.get(reverse("tournaments:manage", args=[tournament.pk])))
    refused = organiser.post(url, {"walkin-name": "Alice Lambert", "walkin-country": "FR"})
    assert refused.status_code == 409
    page = text(refused)
    assert "existing players named Alice Lambert: Alice Lambert (GB)." in page
    assert "confirm that he is a different person" in page and 'name="walkin-confirm_namesake"' in page
    assert entered_players(tournament) == []
    done = organiser.post(url, {"walkin-name": "Alice Lambert", "walkin-country": "FR",
                                "walkin-confirm_namesake": "on"})
    assert done.status_code == 302
    guest = Player.objects.get(display_name="Alice Lambert", country="FR")
    assert guest != alice and entered_players(tournament) == [guest.pk]


def test_the_api_takes_confirm_namesake():
    tournament = closed()
    alice_lambert()
    client = client_for(tournament.organiser)
    url = reverse("api-tournament-walk-in", args=[tournament.pk])
    refused = client.post(url, {"name": "Alice Lambert", "country": "FR"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "namesake_exists"
    assert "Alice Lambert (GB)" in refused.json()["detail"] and refused.json()["field"] == "name"
    bare = client.post(url, {"name": "Alice Lambert", "confirm_namesake": True}, format="json")
    assert bare.status_code == 400 and bare.json()["code"] == "namesake_needs_detail"
    assert entered_players(tournament) == []
    done = client.post(url, {"name": "Alice Lambert", "country": "FR", "confirm_namesake": True}, format="json")
    assert done.status_code == 201, done.content
    assert Player.objects.filter(display_name="Alice Lambert").count() == 2


# --- confirmed namesakes told apart ----------------------------------------------------------------


@pytest.fixture
def namesakes():
    """Alice Lambert (GB), with an account, and the guest Alice Lambert (FR), whose home club is
    Northside."""
    northside = Club.objects.create(name="Northside", slug="northside")
    guest = PlayerFactory(user=None, display_name="Alice Lambert", country="FR")
    HomeClub.objects.create(player=guest, club=northside)
    return alice_lambert(), guest


def test_a_walk_in_written_as_a_namesake_is_listed_enters_that_one(namesakes):
    alice, guest = namesakes
    tournament = closed()
    with pytest.raises(Conflict) as refused:
        walk_in(tournament, name="Alice Lambert")
    assert refused.value.code == "namesakes_exist"
    assert "Alice Lambert (FR, Northside), Alice Lambert (GB)" in refused.value.message
    assert walk_in(tournament, name="Alice Lambert", country="FR").side.player_a == guest
    assert walk_in(tournament, name="alice lambert (gb)").side.player_a == alice


def test_the_desk_paste_lists_namesakes_with_country_and_club_and_takes_one_written_so(namesakes):
    alice, guest = namesakes
    tournament = closed()
    with pytest.raises(DomainError) as refused:
        entries_paste(tournament_id=tournament.pk, text="Bob\nAlice Lambert", user=tournament.organiser)
    assert (refused.value.code, refused.value.details["line"]) == ("ambiguous_name", 2)
    assert "Alice Lambert (FR, Northside), Alice Lambert (GB)" in refused.value.message
    assert "“Alice Lambert (GB)”" in refused.value.message
    assert entered_players(tournament) == []
    pasted = entries_paste(tournament_id=tournament.pk, text="alice lambert (northside)\nALICE LAMBERT (GB)",
                           user=tournament.organiser)
    assert [(line.player, line.created) for line in pasted.lines] == [(guest, False), (alice, False)]
    assert Player.objects.filter(display_name__startswith="Alice").count() == 2


def test_the_desk_page_shows_the_namesakes_and_enters_the_one_written_with_his_details(namesakes):
    _alice, guest = namesakes
    tournament = closed()
    client = signed_in(tournament.organiser)
    url = reverse("tournaments:desk_paste", args=[tournament.pk])
    refused = client.post(url, {"paste-names": "Alice Lambert"})
    assert refused.status_code == 400
    assert "several players are called Alice Lambert: Alice Lambert (FR, Northside), Alice Lambert (GB)" in text(refused)
    assert client.post(url, {"paste-names": "Alice Lambert (FR)"}).status_code == 302
    assert entered_players(tournament) == [guest.pk]


class OneForm(forms.Form):
    player = PlayerChoiceField()


def test_the_picker_lists_namesakes_with_country_and_club_and_takes_one_written_so(namesakes):
    alice, guest = namesakes
    form = OneForm({"player": "alice lambert"})
    assert not form.is_valid()
    assert form.errors["player"] == [
        "Several players here have the name “alice lambert”: Alice Lambert (FR, Northside), Alice Lambert (GB). "
        "Type the one you mean as he is listed (“Alice Lambert (GB)”), or choose one of the suggestions."]
    for typed, who in (("Alice Lambert (GB)", alice), ("alice lambert (fr, northside)", guest)):
        form = OneForm({"player": typed})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["player"] == who
    form = OneForm({"player": "Alice Lambert (DE)"})
    assert not form.is_valid() and "Alice Lambert (FR, Northside), Alice Lambert (GB)" in form.errors["player"][0]


def test_namesakes_told_apart_only_by_an_email_are_listed_in_order_and_taken_written_so():
    alice = alice_lambert()
    tournament = closed()
    # Confirmed as a different person by his email alone: nothing shown (country, club) tells them apart.
    guest = walk_in(tournament, name="Alice Lambert", country="GB", email="second.alice@example.com",
                    confirm_namesake=True).side.player_a
    other = closed()
    with pytest.raises(DomainError) as refused:
        entries_paste(tournament_id=other.pk, text="Alice Lambert", user=other.organiser)
    assert "Alice Lambert (GB, 1), Alice Lambert (GB, 2)" in refused.value.message
    pasted = entries_paste(tournament_id=other.pk, text="Alice Lambert (2)\nBob", user=other.organiser)
    assert pasted.lines[0].player == guest
    form = OneForm({"player": "alice lambert"})
    assert not form.is_valid() and "Alice Lambert (GB, 1), Alice Lambert (GB, 2)" in form.errors["player"][0]
    form = OneForm({"player": "Alice Lambert (GB, 1)"})
    assert form.is_valid() and form.cleaned_data["player"] == alice

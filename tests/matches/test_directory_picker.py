"""The player picker (matches.pickers): a typed name resolved by the server (accents and case set
aside) or refused saying why (nobody, or several: named), a chosen suggestion's id taken while the
name beside it is his, a bare id taken as before, and always only a player of the field's queryset;
then each form that uses it, through its page: the entrant, the pairs partner, the late team, a
team's new member, a chouette newcomer (the club's members only)."""

from __future__ import annotations

import html

import pytest
from django import forms
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

from matches.models import Player
from matches.pickers import PlayerChoiceField, PlayerMultipleChoiceField
from matches.services.matches import player_create
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import closed, make_organiser, player
from tests.tournaments.factories_teams import team_event
from tournaments.models import Entry, Team, Tournament

pytestmark = pytest.mark.django_db


class OneForm(forms.Form):
    player = PlayerChoiceField()

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        if players is not None:
            self.fields["player"].queryset = players


class ManyForm(forms.Form):
    players = PlayerMultipleChoiceField(required=False)


def errors(form) -> list[str]:
    return [message for messages in form.errors.values() for message in messages]


@pytest.fixture
def people():
    return {name: player_create(display_name=name) for name in ("Ștefan Popescu", "Ana Pop", "Ana Popa", "김민준")}


# --- one player ------------------------------------------------------------------------------------


def test_a_typed_name_is_resolved_whatever_its_accents_and_case(people):
    for typed in ("stefan popescu", "ŞTEFAN POPESCU", "  Ștefan   Popescu "):
        form = OneForm({"player": typed})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["player"] == people["Ștefan Popescu"]
    form = OneForm({"player": "민준"})
    assert form.is_valid() and form.cleaned_data["player"] == people["김민준"]


def test_a_whole_name_wins_over_the_names_it_is_part_of(people):
    form = OneForm({"player": "ana pop"})  # "Ana Popa" holds it too, but it is Ana Pop's whole name
    assert form.is_valid() and form.cleaned_data["player"] == people["Ana Pop"]


def test_a_name_nobody_has_is_refused_saying_so(people):
    form = OneForm({"player": "Zoltan"})
    assert not form.is_valid()
    assert errors(form) == ["No player here is called “Zoltan”: type part of the name and choose one of the "
                            "suggestions."]


def test_a_name_several_players_have_is_refused_naming_them(people):
    Player.objects.filter(pk=people["Ana Pop"].pk).update(country="RO")
    form = OneForm({"player": "ana"})
    assert not form.is_valid()
    assert errors(form) == ["2 players here are called “ana” (Ana Pop (RO), Ana Popa): type more of the name, or "
                            "choose one of the suggestions."]


def test_an_id_is_taken_as_before_but_only_from_the_queryset(people):
    stefan, ana = people["Ștefan Popescu"], people["Ana Pop"]
    assert OneForm({"player": str(stefan.pk)}).is_valid()
    narrow = Player.objects.filter(pk=ana.pk)
    form = OneForm({"player": str(stefan.pk)}, players=narrow)
    assert not form.is_valid() and errors(form) == ["There is no such player here: choose one of the suggestions."]
    form = OneForm({"player": "Ștefan Popescu"}, players=narrow)  # by name: not in the queryset either
    assert not form.is_valid() and "No player here is called" in errors(form)[0]


def test_a_chosen_suggestion_counts_while_the_name_beside_it_is_his(people):
    stefan, ana = people["Ștefan Popescu"], people["Ana Pop"]
    form = OneForm({"player": "Ștefan Popescu", "player__id": str(stefan.pk)})
    assert form.is_valid() and form.cleaned_data["player"] == stefan
    # The name typed over the choice (no script to clear the id): the name is what counts.
    form = OneForm({"player": "Ana Pop", "player__id": str(stefan.pk)})
    assert form.is_valid() and form.cleaned_data["player"] == ana
    # A chosen id outside the queryset is not taken, even with his name beside it.
    form = OneForm({"player": "Ștefan Popescu", "player__id": str(stefan.pk)}, players=Player.objects.filter(pk=ana.pk))
    assert not form.is_valid()


def test_a_nul_character_or_a_name_too_long_is_refused_saying_so():
    assert OneForm({"player": "ana\x00"}).errors["player"] == ["A name cannot hold the NUL character."]
    assert OneForm({"player": "a" * 201}).errors["player"] == ["A name is at most 200 characters."]


def test_an_empty_picker_is_required():
    form = OneForm({"player": "", "player__id": ""})
    assert not form.is_valid() and errors(form) == ["This field is required."]


def test_the_widget_is_a_text_input_with_the_hidden_id_and_the_suggestions_source(people):
    stefan = people["Ștefan Popescu"]
    rendered = str(OneForm({"player": str(stefan.pk)})["player"])
    assert 'type="text" name="player" value="Ștefan Popescu"' in html.unescape(rendered)
    assert f'type="hidden" name="player__id" value="{stefan.pk}"' in rendered
    assert 'data-source="/api/v1/players/"' in rendered and "picker.js" in rendered
    field = PlayerChoiceField(params={"club": 7})
    assert 'data-source="/api/v1/players/?club=7"' in field.widget.render("x", ("", ""))
    typed = str(OneForm({"player": "zed"})["player"])  # what was typed stays on a refused form
    assert 'value="zed"' in typed


# --- several players ---------------------------------------------------------------------------------


def test_several_players_by_ids_and_names_in_order_without_repeats(people):
    stefan, ana = people["Ștefan Popescu"], people["Ana Pop"]
    data = QueryDict(mutable=True)
    data.setlist("players", [str(stefan.pk), "ana pop", ""])
    data.setlist("players__id", ["", "", ""])
    form = ManyForm(data)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["players"] == [stefan, ana]

    data.setlist("players", [str(stefan.pk), "stefan popescu", "nobody"])
    form = ManyForm(data)
    assert not form.is_valid()
    assert errors(form) == ["Ștefan Popescu is named twice.",
                            "Player 3: No player here is called “nobody”: type part of the name and choose one of "
                            "the suggestions."]


def test_several_pickers_render_the_chosen_and_spare_ones(people):
    form = ManyForm(initial={"players": [people["Ana Pop"]]})
    rendered = str(form["players"])
    assert rendered.count('name="players"') == 3 and rendered.count('name="players__id"') == 3
    assert 'value="Ana Pop"' in rendered and 'id="id_players"' in rendered and 'id="id_players_1"' in rendered


# --- the forms that use it, through their pages ----------------------------------------------------------


def test_the_organiser_adds_an_entrant_by_typing_part_of_his_name(client):
    olga = make_organiser()
    tournament = closed(organiser=olga, status=Tournament.Status.OPEN)
    stefan = player("stefan")
    Player.objects.filter(pk=stefan.pk).update(display_name="Ștefan Popescu")
    player("stella")
    client.force_login(olga)
    add = reverse("tournaments:add_entrant", args=[tournament.pk])
    refused = client.post(add, {"entrant-player": "ste"})
    assert refused.status_code == 400
    assert "2 players here are called “ste” (Stella, Ștefan Popescu)" in html.unescape(refused.content.decode())
    assert not Entry.objects.filter(tournament=tournament).exists()
    response = client.post(add, {"entrant-player": "stefan"})
    assert response.status_code == 302
    assert Entry.objects.get(tournament=tournament).side.player_a == stefan


def test_a_player_signs_up_a_pair_naming_his_partner(client):
    tournament = closed(organiser=make_organiser(), status=Tournament.Status.OPEN, kind=Tournament.Kind.PAIRS)
    carol, dave = player("carol"), player("dave")
    client.force_login(carol.user)
    response = client.post(reverse("tournaments:sign_up", args=[tournament.pk]),
                           {"pair-partner": "DAVE", "pair-rolls": "alternate"})
    assert response.status_code == 302
    side = Entry.objects.get(tournament=tournament).side
    assert {side.player_a_id, side.player_b_id} == {carol.pk, dave.pk}


def test_the_organiser_enters_a_late_team_by_names(client):
    organiser = make_organiser()
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    olivia, peggy, sybil = player("olivia"), player("peggy"), player("sybil")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:teams", args=[tournament.pk])).content.decode()
    assert 'name="captain"' in page and page.count('name="members"') == 3  # three pickers for the members
    response = client.post(reverse("tournaments:team_add_late", args=[tournament.pk]),
                           {"name": "Foxes", "captain": "Olivia", "members": ["peggy", str(sybil.pk), ""]})
    assert response.status_code == 302, response.content.decode()
    team = Team.objects.get(name="Foxes")
    assert team.captain == olivia
    assert set(team.members.values_list("player_id", flat=True)) >= {peggy.pk, sybil.pk}


def test_a_new_team_member_is_named_among_the_candidates_only(client):
    organiser = make_organiser()
    tournament, players, teams = team_event(organiser, draw=False)
    team = teams[0]
    client.force_login(organiser)
    add = reverse("tournaments:team_member_add", args=[tournament.pk, team.pk])
    already = players[0]  # in a team already: not a candidate
    refused = client.post(add, {"member-player": already.display_name})
    assert refused.status_code == 400
    assert "No player here is called" in html.unescape(refused.content.decode())
    newcomer = player("quentin")
    response = client.post(add, {"member-player": "Quentin"})
    assert response.status_code == 302
    assert team.members.filter(player=newcomer).exists()


def test_a_chouette_newcomer_is_named_among_the_club_members_away_from_the_table():
    from tests.chouette.factories import table
    from tests.clubs.factories import club_cast

    cast = club_cast()
    session = table(cast, dice=(("ann", 6), ("otis", 5), ("mia", 4)))
    client = Client()
    client.force_login(cast.organiser)
    base = f"/clubs/{cast.club.slug}/chouettes/{session.pk}/"
    page = client.get(base).content.decode()
    assert 'name="player"' in page and f'data-source="/api/v1/players/?club={cast.club.pk}"' in page
    for outsider in ("Xavier", "Ann"):  # not a member; at the table already
        refused = client.post(base + "join/", {"player": outsider, "version": "1"})
        assert refused.status_code == 400
        assert "No member of the club away from the table is called" in html.unescape(refused.content.decode())
    response = client.post(base + "join/", {"player": "max", "version": "1"}, follow=True)
    assert "Max joins at the bottom of the line." in html.unescape(response.content.decode())


def test_a_club_invites_a_player_by_name_or_by_username_as_before():
    from clubs.models import Membership
    from tests.clubs.factories import club_cast

    cast = club_cast()
    stefan = PlayerFactory(user=UserFactory(username="sp1984"), display_name="Ștefan Popescu")
    client = Client()
    client.force_login(cast.organiser)
    invite = f"/clubs/{cast.club.slug}/members/invite/"
    assert 'name="username"' in client.get(f"/clubs/{cast.club.slug}/members/").content.decode()
    response = client.post(invite, {"username": "stefan pop"})
    assert response.status_code == 302
    assert Membership.objects.get(club=cast.club, user=stefan.user).status == Membership.Status.INVITED
    guest = player_create(display_name="Guest Without Account")
    refused = client.post(invite, {"username": "Guest Without", "username__id": str(guest.pk)})
    assert refused.status_code == 400
    assert "there is no user or player called “Guest Without”" in html.unescape(refused.content.decode())
    assert client.post(invite, {"username": "xavier"}).status_code == 302  # a username, as before


def test_the_director_names_the_committee_by_players_names():
    from rulings.models import CommitteeMember
    from tests.matches.factories_api import make_cast
    from tests.rulings.test_api import appealed

    cast = make_cast()
    appeal = appealed(cast)
    members = [PlayerFactory(user=UserFactory(username=f"u{n}"), display_name=name)
               for n, name in enumerate(("Jon Ionescu", "Kim Ji-woo", "김지우"))]
    client = Client()
    client.force_login(cast.organiser)
    url = reverse("rulings:committee", args=[appeal.pk])
    refused = client.post(url, {"members": ["jon", "kim", "nobody at all"]})
    assert refused.status_code == 400
    assert "Member 3: No player here is called “nobody at all”" in html.unescape(refused.content.decode())
    assert not CommitteeMember.objects.exists()
    response = client.post(url, {"members": ["jon", "kim ji", "김지우"], "members__id": ["", "", str(members[2].pk)]})
    assert response.status_code == 302, html.unescape(response.content.decode())
    assert list(appeal.committee.values_list("user__username", flat=True)) == ["u0", "u1", "u2"]


def test_a_big_club_seats_its_chouette_players_with_pickers_and_the_member_lines_still_count():
    from chouette.models import ChouetteSession
    from chouette.selectors import chouette_state
    from tests.clubs.factories import club_cast

    names = ["mia", "max", *(f"m{n:02}" for n in range(11))]  # 15 active members with ann and otis
    cast = club_cast(members=[UserFactory(username=name) for name in names])
    Player.objects.filter(user__username="m00").update(display_name="Ștefan Popescu")
    outsider = cast.outsider.player
    client = Client()
    client.force_login(cast.organiser)
    new = f"/clubs/{cast.club.slug}/chouettes/new/"
    page = html.unescape(client.get(new).content.decode())
    assert "Ann's roll-off" not in page and 'name="seat-0"' in page and "Player 1's roll-off" in page
    settings = {"name": "Friday", "stake": "0.50", "currency": "EUR", "automatic_doubles": "0"}
    refused = client.post(new, {**settings, "seat-0": "stefan", "seat-0-dice": "6",
                                "seat-1": outsider.display_name, "seat-1-dice": "5", "seat-2": "Max"})
    assert refused.status_code == 400
    body = html.unescape(refused.content.decode())
    assert "No member of the club is called “Xavier”." in body and "Give Max's roll-off die." in body
    assert not ChouetteSession.objects.exists()
    response = client.post(new, {**settings, "seat-0": "stefan", "seat-0-dice": "6", "seat-1": "Max",
                                 "seat-1-dice": "4", f"dice-{cast.owner.player.pk}": "5"})
    assert response.status_code == 302, html.unescape(response.content.decode())
    lineup = [seat.display_name for seat in chouette_state(session=ChouetteSession.objects.get()).lineup]
    assert lineup == ["Ștefan Popescu", "Ann", "Max"]

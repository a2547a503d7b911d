"""A team entered late through the interfaces: ``POST /api/v1/tournaments/{id}/late-teams/`` (the
organiser only; another organiser or a player 403, anonymous 401; a round robin refused with the
service's ``late_entry_closed`` and nothing saved; unknown fields refused) and the late-team form
on the team list page, shown to the organiser after the draw (success, and an error re-rendered
with the service's message, nothing saved).

The cast: Olga organises a drawn Swiss of the Aces, Bears, Cats and Dogs (alice captains the
Aces); Oscar organises other events; olivia, peggy and sybil form the late team, the Foxes.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import make_another_organiser, player, snapshot
from tests.tournaments.factories_teams import team_event, team_snapshot
from tournaments.models import Entry, Team, Tournament

pytestmark = pytest.mark.django_db



@pytest.fixture
def foxes():
    return player("olivia", 1600.0), player("peggy"), player("sybil")


@pytest.fixture
def swiss(organiser):
    tournament, players, _teams = team_event(organiser, format=Tournament.Format.SWISS, swiss_rounds=3)
    return tournament, players


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/late-teams/"


def body(foxes, **extra) -> dict:
    olivia, peggy, sybil = foxes
    return {"name": "Foxes", "captain_id": olivia.pk, "member_ids": [peggy.pk, sybil.pk], "reserve_ids": [],
            **extra}


def everything(tournament) -> dict:
    return {**snapshot(tournament), **team_snapshot(tournament)}


# --- the API -------------------------------------------------------------------------------------


def test_the_organiser_enters_a_team_late_through_the_api_as_the_last_seed(swiss, organiser, foxes):
    tournament, _players = swiss
    response = client_for(organiser).post(url(tournament), body(foxes), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["name"] == "Foxes" and data["captain"] == "Olivia"
    assert [m["name"] for m in data["members"]] == ["Olivia", "Peggy", "Sybil"]
    entry = Entry.objects.get(team__pk=data["team_id"])
    assert (data["entry_id"], entry.seed, entry.late, entry.status) == (entry.pk, 5, True, Entry.Status.CHECKED_IN)


@pytest.mark.parametrize("who", ["another organiser", "a player"])
def test_anyone_but_the_organiser_is_refused_403_and_nothing_is_saved(swiss, foxes, who):
    tournament, players = swiss
    user = make_another_organiser() if who == "another organiser" else players[0].user
    before = everything(tournament)
    response = client_for(user).post(url(tournament), body(foxes), format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "not_organiser"
    assert everything(tournament) == before
    assert not Team.objects.filter(name="Foxes").exists()


def test_anonymous_is_refused_401_and_nothing_is_saved(swiss, foxes):
    tournament, _players = swiss
    before = everything(tournament)
    response = client_for().post(url(tournament), body(foxes), format="json")
    assert response.status_code == 401
    assert everything(tournament) == before


def test_a_round_robin_refuses_a_late_team_with_the_services_code_and_saves_nothing(organiser, foxes):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN)
    before = everything(tournament)
    response = client_for(organiser).post(url(tournament), body(foxes), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "late_entry_closed"
    assert "round robin" in response.json()["detail"]
    assert everything(tournament) == before
    assert not Team.objects.filter(name="Foxes").exists()


def test_an_unknown_field_is_refused_naming_it_and_nothing_is_saved(swiss, organiser, foxes):
    tournament, _players = swiss
    before = everything(tournament)
    response = client_for(organiser).post(url(tournament), body(foxes, members=[]), format="json")
    assert response.status_code == 400
    assert "members" in response.json()["detail"] or "members" in response.json()
    assert everything(tournament) == before


# --- the team list page --------------------------------------------------------------------------


def test_the_organiser_sees_the_late_form_after_the_draw_and_enters_a_team(client, swiss, organiser, foxes):
    tournament, _players = swiss
    olivia, peggy, sybil = foxes
    page_url = reverse("tournaments:teams", args=[tournament.pk])
    assert "Enter a team late" not in client.get(page_url).content.decode()  # anonymous: no form
    client.force_login(organiser)
    assert "Enter a team late" in client.get(page_url).content.decode()

    response = client.post(reverse("tournaments:team_add_late", args=[tournament.pk]),
                           {"name": "Foxes", "captain": olivia.pk, "members": [peggy.pk, sybil.pk]})

    assert response.status_code == 302 and response["Location"] == page_url
    entry = Entry.objects.get(team__name="Foxes", tournament=tournament)
    assert (entry.seed, entry.late, entry.team.captain) == (5, True, olivia)
    assert "Foxes" in client.get(page_url).content.decode()


def test_the_form_is_not_shown_before_the_draw(client, organiser):
    tournament, _players, _teams = team_event(organiser, draw=False)
    client.force_login(organiser)
    assert "Enter a team late" not in client.get(reverse("tournaments:teams", args=[tournament.pk])).content.decode()


def test_a_refused_late_team_re_renders_the_page_with_the_reason_and_saves_nothing(client, organiser, foxes):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN)
    olivia, peggy, sybil = foxes
    before = everything(tournament)
    client.force_login(organiser)
    response = client.post(reverse("tournaments:team_add_late", args=[tournament.pk]),
                           {"name": "Foxes", "captain": olivia.pk, "members": [peggy.pk, sybil.pk]})
    assert response.status_code == 409
    text = unescape(response.content.decode())
    assert "a round robin's schedule is fixed at the draw" in text
    assert 'value="Foxes"' in text  # the form keeps what was typed
    assert everything(tournament) == before


def test_a_bad_form_re_renders_naming_the_field_and_a_player_is_refused(client, swiss, organiser, foxes):
    tournament, players = swiss
    before = everything(tournament)
    client.force_login(organiser)
    post_url = reverse("tournaments:team_add_late", args=[tournament.pk])
    response = client.post(post_url, {"name": "Foxes", "captain": 999999})
    assert response.status_code == 400
    assert "there is no such captain" in unescape(response.content.decode())
    client.force_login(players[0].user)
    refused = client.post(post_url, {"name": "Foxes", "captain": foxes[0].pk})
    assert refused.status_code == 403
    assert everything(tournament) == before

"""Team pages: the team list, a team's page with its members and board orders, the captain's
roster forms before the draw and board-order form (another captain refused, a bad change
re-rendered with its message, nothing saved), and the team match card showing each board.

The cast: Olga organises; the Aces (alice captains, bob, carol), the Bears (dave captains, erin,
frank), Cats and Dogs; Rupert is in no team.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from tests.tournaments.factories import closed
from tests.tournaments.factories_teams import (
    enter_teams,
    non_member,
    play_board,
    team_cast,
    team_event,
    team_pairing,
    team_snapshot,
)
from tournaments.models import BoardOrder, TeamMember, Tournament

pytestmark = pytest.mark.django_db



@pytest.fixture
def event(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    players = team_cast()
    aces, bears = enter_teams(tournament, players, 2)
    return tournament, players, aces, bears


def order_form(round_number, *players) -> dict:
    data = {"round_number": round_number}
    data.update({f"board_{i}": p.pk for i, p in enumerate(players, start=1)})
    return data


def test_the_team_pages_show_the_teams_members_and_reserves(client, event):
    tournament, _players, aces, _bears = event
    listing = client.get(reverse("tournaments:teams", args=[tournament.pk]))
    assert listing.status_code == 200
    assert b"Aces" in listing.content and b"Bears" in listing.content
    page = client.get(reverse("tournaments:team", args=[tournament.pk, aces.pk]))
    assert page.status_code == 200
    text = unescape(page.content.decode())
    assert "Alice" in text and "(captain)" in text and "Carol" in text
    assert "Save the board order" not in text  # anonymous: no form


def test_the_captain_sets_the_board_order_with_the_form(client, event):
    tournament, players, aces, _bears = event
    alice, bob, carol = players[:3]
    client.force_login(alice.user)
    page = client.get(reverse("tournaments:team", args=[tournament.pk, aces.pk]))
    assert "Save the board order" in unescape(page.content.decode())
    response = client.post(reverse("tournaments:team_board_order", args=[tournament.pk, aces.pk]),
                           order_form(1, carol, alice, bob))
    assert response.status_code == 302
    assert BoardOrder.objects.get(team=aces, round_number=1).players == [carol.pk, alice.pk, bob.pk]
    shown = unescape(client.get(response["Location"]).content.decode())
    assert "Board order for round 1 saved." in shown and "open" in shown


def test_another_captain_cannot_set_the_order_and_nothing_is_saved(client, event):
    tournament, players, aces, _bears = event
    alice, bob, carol, dave = players[:4]
    client.force_login(dave.user)
    before = team_snapshot(tournament)
    page = client.get(reverse("tournaments:team", args=[tournament.pk, aces.pk]))
    assert "Save the board order" not in unescape(page.content.decode())
    response = client.post(reverse("tournaments:team_board_order", args=[tournament.pk, aces.pk]),
                           order_form(1, carol, alice, bob))
    assert response.status_code == 403 and "only the team's captain" in unescape(response.content.decode())
    assert team_snapshot(tournament) == before


def roster(team) -> list[tuple[str, bool]]:
    return [(m.player.display_name, m.reserve) for m in TeamMember.objects.filter(team=team).order_by("pk")]


def test_the_captain_adds_and_removes_members_with_the_roster_forms_before_the_draw(client, event):
    tournament, players, aces, _bears = event
    alice = players[0]
    rupert = non_member()
    client.force_login(alice.user)
    page = unescape(client.get(reverse("tournaments:team", args=[tournament.pk, aces.pk])).content.decode())
    assert "Add to the team" in page and "Remove Bob" in page and "Remove Alice" not in page  # the captain stays
    added = client.post(reverse("tournaments:team_member_add", args=[tournament.pk, aces.pk]),
                        {"member-player": rupert.pk, "member-reserve": "on"})
    assert added.status_code == 302
    assert "Rupert joins Aces as a reserve." in unescape(client.get(added["Location"]).content.decode())
    assert roster(aces) == [("Alice", False), ("Bob", False), ("Carol", False), ("Rupert", True)]
    removed = client.post(reverse("tournaments:team_member_remove", args=[tournament.pk, aces.pk, rupert.pk]))
    assert removed.status_code == 302
    assert "Rupert has left Aces." in unescape(client.get(removed["Location"]).content.decode())
    assert roster(aces) == [("Alice", False), ("Bob", False), ("Carol", False)]


def test_only_the_captain_and_the_organiser_change_the_roster_and_nothing_is_saved_otherwise(client, event, organiser):
    tournament, players, aces, _bears = event
    bob, dave = players[1], players[3]
    rupert = non_member()
    before = team_snapshot(tournament)
    for user in (bob.user, dave.user):  # a member, another captain
        client.force_login(user)
        page = unescape(client.get(reverse("tournaments:team", args=[tournament.pk, aces.pk])).content.decode())
        assert "Add to the team" not in page and "Remove Bob" not in page
        added = client.post(reverse("tournaments:team_member_add", args=[tournament.pk, aces.pk]),
                            {"member-player": rupert.pk})
        assert added.status_code == 403 and "only the team's captain" in unescape(added.content.decode())
        removed = client.post(reverse("tournaments:team_member_remove", args=[tournament.pk, aces.pk, bob.pk]))
        assert removed.status_code == 403
    assert team_snapshot(tournament) == before
    client.force_login(organiser)
    assert client.post(reverse("tournaments:team_member_add", args=[tournament.pk, aces.pk]),
                       {"member-player": rupert.pk}).status_code == 302
    assert roster(aces)[-1] == ("Rupert", False)


def test_a_refused_roster_change_is_re_rendered_with_the_reason(client, event):
    tournament, players, aces, _bears = event
    alice, bob, erin = players[0], players[1], players[4]
    client.force_login(alice.user)
    before = team_snapshot(tournament)
    a_bear = client.post(reverse("tournaments:team_member_add", args=[tournament.pk, aces.pk]),
                         {"member-player": erin.pk})  # the form offers only players in no team
    assert a_bear.status_code == 400 and "there is no such player to add" in unescape(a_bear.content.decode())
    too_small = client.post(reverse("tournaments:team_member_remove", args=[tournament.pk, aces.pk, bob.pk]))
    assert too_small.status_code == 400 and "a team needs at least 3 players" in unescape(too_small.content.decode())
    captain = client.post(reverse("tournaments:team_member_remove", args=[tournament.pk, aces.pk, alice.pk]))
    assert captain.status_code == 400 and "the captain cannot leave" in unescape(captain.content.decode())
    assert team_snapshot(tournament) == before


def test_after_the_draw_the_roster_forms_are_gone_and_a_change_is_a_409(client, organiser):
    tournament, players, (aces, *_others) = team_event(organiser)
    client.force_login(organiser)
    page = unescape(client.get(reverse("tournaments:team", args=[tournament.pk, aces.pk])).content.decode())
    assert "Add to the team" not in page and "Remove Bob" not in page
    before = team_snapshot(tournament)
    response = client.post(reverse("tournaments:team_member_add", args=[tournament.pk, aces.pk]),
                           {"member-player": non_member().pk})
    assert response.status_code == 409 and "the team list is fixed" in unescape(response.content.decode())
    removed = client.post(reverse("tournaments:team_member_remove", args=[tournament.pk, aces.pk, players[1].pk]))
    assert removed.status_code == 409
    assert team_snapshot(tournament) == before


def test_a_board_order_naming_a_non_member_is_re_rendered_with_the_reason(client, event):
    tournament, players, aces, _bears = event
    alice, bob, dave = players[0], players[1], players[3]
    client.force_login(alice.user)
    before = team_snapshot(tournament)
    # Rupert (in no team) and Dave (a Bear): the form only offers the Aces' members.
    for stranger in (non_member(), dave):
        response = client.post(reverse("tournaments:team_board_order", args=[tournament.pk, aces.pk]),
                               order_form(1, alice, bob, stranger))
        text = unescape(response.content.decode())
        assert response.status_code == 400 and "Select a valid choice" in text and 'name="board_3"' in text
    twice = client.post(reverse("tournaments:team_board_order", args=[tournament.pk, aces.pk]),
                        order_form(1, alice, bob, alice))
    assert twice.status_code == 400 and "on two boards" in unescape(twice.content.decode())
    assert team_snapshot(tournament) == before


def test_a_locked_order_is_refused_with_a_409_on_the_page(client, organiser):
    tournament, players, (aces, *_others) = team_event(organiser)
    alice, bob, carol = players[:3]
    client.force_login(alice.user)
    before = team_snapshot(tournament)
    response = client.post(reverse("tournaments:team_board_order", args=[tournament.pk, aces.pk]),
                           order_form(1, carol, bob, alice))
    assert response.status_code == 409 and "locked" in unescape(response.content.decode())
    assert team_snapshot(tournament) == before


def test_the_team_match_card_shows_each_board_and_the_result(client, organiser):
    tournament, _players, (aces, _bears, _cats, dogs) = team_event(organiser, lengths={"main": [3]})
    row = team_pairing(tournament, aces, dogs)
    url = reverse("tournaments:team_match", args=[tournament.pk, row.pk])
    text = unescape(client.get(url).content.decode())
    assert "not decided yet" in text and text.count("scheduled") == 3
    play_board(row, 1, aces)
    play_board(row, 2, aces)
    text = unescape(client.get(url).content.decode())
    assert "Aces win 2\u20130." in text  # an en dash
    for name in ("Alice", "Bob", "Carol", "Judy", "Mallory", "Niaj"):
        assert name in text
    assert text.count("confirmed") == 2
    assert client.get(reverse("tournaments:team_match", args=[tournament.pk, 999999])).status_code == 404

"""The teams API: team lists, entering a team, its roster before the draw and its board orders
(only a team's captain or the organiser; another captain 403), the team match card, a team
event's standings (team wins, then board points) and a member's next match (his team's, with his
board, or sitting out as a reserve).

The cast: Olga organises; the Aces (alice captains, bob, carol), the Bears (dave captains, erin,
frank), Cats and Dogs; Rupert is in no team; Oscar organises other events.
"""

from __future__ import annotations

import pytest
from django.db.models import Q
from rest_framework.test import APIClient

from tests.tournaments.factories import closed, make_another_organiser
from tests.tournaments.factories_teams import (
    board_match,
    enter_teams,
    non_member,
    play_board,
    play_team_match,
    played_round_robin,
    team_cast,
    team_event,
    team_pairing,
    team_snapshot,
)
from tournaments.models import BoardOrder, Pairing, Team, Tournament
from tournaments.services import tournament_draw
from tournaments.services.teams import board_order_submit, team_member_add

pytestmark = pytest.mark.django_db



def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def event(organiser):
    """Aces and Bears entered and checked in, not drawn."""
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    players = team_cast()
    aces, bears = enter_teams(tournament, players, 2)
    return tournament, players, aces, bears


def api(tournament: Tournament, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action}/"


def order_url(tournament, team) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/teams/{team.pk}/board-order/"


def test_anyone_reads_the_teams_with_captains_members_and_orders(event):
    tournament, _players, aces, _bears = event
    response = client_for().get(f"/api/v1/tournaments/{tournament.pk}/teams/")
    assert response.status_code == 200
    body = response.json()
    assert [t["name"] for t in body] == ["Aces", "Bears"]
    assert body[0]["captain"] == "Alice" and body[0]["entry_id"] == aces.entry.pk
    assert [(m["name"], m["captain"]) for m in body[0]["members"]] == [("Alice", True), ("Bob", False),
                                                                       ("Carol", False)]
    detail = client_for().get(f"/api/v1/tournaments/{tournament.pk}/teams/{aces.pk}/")
    assert detail.status_code == 200 and detail.json() == body[0]


def test_the_organiser_enters_a_team_and_a_bad_one_is_refused_naming_the_problem(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    alice, bob, carol, dave = team_cast()[:4]
    url = f"/api/v1/tournaments/{tournament.pk}/teams/"
    response = client_for(organiser).post(url, {"name": "Aces", "captain_id": alice.pk,
                                                "member_ids": [bob.pk], "reserve_ids": [carol.pk]}, format="json")
    assert response.status_code == 201, response.json()
    assert [(m["name"], m["reserve"]) for m in response.json()["members"]] == [
        ("Alice", False), ("Bob", False), ("Carol", True)]
    before = team_snapshot(tournament)
    too_small = client_for(organiser).post(url, {"name": "Bears", "captain_id": dave.pk}, format="json")
    assert too_small.status_code == 400 and too_small.json()["code"] == "team_too_small"
    typo = client_for(organiser).post(url, {"name": "Bears", "captain_id": dave.pk, "members": []}, format="json")
    assert typo.status_code == 400 and "members" in typo.json()["detail"]
    anonymous = client_for().post(url, {"name": "Bears", "captain_id": dave.pk}, format="json")
    assert anonymous.status_code == 401
    assert team_snapshot(tournament) == before


def members_url(tournament, team, player=None) -> str:
    base = f"/api/v1/tournaments/{tournament.pk}/teams/{team.pk}/members/"
    return base if player is None else f"{base}{player.pk}/"


def test_the_captain_and_the_organiser_change_the_roster_before_the_draw(event, organiser):
    tournament, players, aces, _bears = event
    alice, bob, carol = players[:3]
    rupert = non_member()
    added = client_for(alice.user).post(members_url(tournament, aces), {"player_id": rupert.pk, "reserve": True},
                                        format="json")
    assert added.status_code == 201, added.json()
    assert [(m["name"], m["reserve"]) for m in added.json()["members"]] == [
        ("Alice", False), ("Bob", False), ("Carol", False), ("Rupert", True)]
    client_for(alice.user).post(order_url(tournament, aces), {"round_number": 1,
                                                             "player_ids": [rupert.pk, alice.pk, bob.pk]}, format="json")
    removed = client_for(organiser).delete(members_url(tournament, aces, rupert))
    assert removed.status_code == 200, removed.json()
    assert [m["name"] for m in removed.json()["members"]] == ["Alice", "Bob", "Carol"]
    assert removed.json()["board_orders"] == []  # the order naming him went with him
    again = client_for(organiser).post(members_url(tournament, aces), {"player_id": rupert.pk}, format="json")
    assert again.status_code == 201 and again.json()["members"][-1] == {
        "player_id": rupert.pk, "name": "Rupert", "reserve": False, "captain": False}
    assert client_for(alice.user).delete(members_url(tournament, aces, carol)).status_code == 200


@pytest.mark.parametrize("who, action, status, code", [
    ("anonymous", "add", 401, "not_authenticated"),
    ("dave", "add", 403, "not_captain"),          # another team's captain
    ("bob", "add", 403, "not_captain"),           # a member who is not the captain
    ("oscar", "remove_bob", 403, "not_captain"),  # another organiser
    ("alice", "add_a_bear", 409, "already_in_team"),
    ("alice", "add_unknown", 400, "unknown_player"),
    ("alice", "unknown_field", 400, "invalid"),
    ("alice", "remove_herself", 400, "captain_required"),
    ("alice", "remove_bob", 400, "team_too_small"),  # three players for three boards
    ("alice", "remove_a_bear", 400, "not_a_member"),
])
def test_a_refused_roster_change_gets_a_clear_4xx_and_nothing_is_saved(event, who, action, status, code):
    tournament, players, aces, _bears = event
    alice, bob, _carol, dave, erin = players[:5]
    users = {"anonymous": None, "alice": alice.user, "bob": bob.user, "dave": dave.user,
             "oscar": make_another_organiser()}
    rupert = non_member()
    requests = {
        "add": ("post", members_url(tournament, aces), {"player_id": rupert.pk}),
        "add_a_bear": ("post", members_url(tournament, aces), {"player_id": erin.pk}),
        "add_unknown": ("post", members_url(tournament, aces), {"player_id": 999999}),
        "unknown_field": ("post", members_url(tournament, aces), {"player_id": rupert.pk, "captain": True}),
        "remove_herself": ("delete", members_url(tournament, aces, alice), None),
        "remove_bob": ("delete", members_url(tournament, aces, bob), None),
        "remove_a_bear": ("delete", members_url(tournament, aces, erin), None),
    }
    method, url, body = requests[action]
    before = team_snapshot(tournament)
    response = getattr(client_for(users[who]), method)(url, body, format="json")
    assert response.status_code == status, response.json()
    if code != "invalid":
        assert response.json()["code"] == code
    assert team_snapshot(tournament) == before


def test_after_the_draw_the_roster_is_fixed_and_unknown_teams_are_404(organiser):
    tournament, players, (aces, *_others) = team_event(organiser)
    rupert = non_member()
    before = team_snapshot(tournament)
    added = client_for(organiser).post(members_url(tournament, aces), {"player_id": rupert.pk}, format="json")
    assert added.status_code == 409 and added.json()["code"] == "already_drawn"
    removed = client_for(players[0].user).delete(members_url(tournament, aces, players[1]))
    assert removed.status_code == 409 and removed.json()["code"] == "already_drawn"
    assert team_snapshot(tournament) == before
    missing = Team.objects.order_by("-pk").first().pk + 100
    assert client_for(organiser).post(f"/api/v1/tournaments/{tournament.pk}/teams/{missing}/members/",
                                      {"player_id": rupert.pk}, format="json").status_code == 404


def test_the_captain_sets_his_board_order_through_the_api(event):
    tournament, players, aces, _bears = event
    alice, bob, carol = players[:3]
    response = client_for(alice.user).post(order_url(tournament, aces),
                                           {"round_number": 1, "player_ids": [carol.pk, alice.pk, bob.pk]},
                                           format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["board_orders"] == [
        {"round_number": 1, "players": [[carol.pk, "Carol"], [alice.pk, "Alice"], [bob.pk, "Bob"]], "locked": False}]


@pytest.mark.parametrize("who, body, status, code", [
    ("dave", "good", 403, "not_captain"),        # another team's captain
    ("bob", "good", 403, "not_captain"),         # a member who is not the captain
    ("oscar", "good", 403, "not_captain"),       # another organiser
    ("alice", "non_member", 400, "not_a_member"),
    ("alice", "two", 400, "bad_board_order"),
    ("alice", "round_zero", 400, "invalid"),
    ("alice", "unknown_field", 400, "invalid"),
])
def test_a_bad_board_order_gets_a_clear_4xx_and_nothing_is_saved(event, who, body, status, code):
    tournament, players, aces, _bears = event
    alice, bob, carol, dave = players[:4]
    users = {"alice": alice.user, "bob": bob.user, "dave": dave.user, "oscar": make_another_organiser()}
    bodies = {
        "good": {"round_number": 1, "player_ids": [alice.pk, bob.pk, carol.pk]},
        "non_member": {"round_number": 1, "player_ids": [alice.pk, bob.pk, non_member().pk]},
        "two": {"round_number": 1, "player_ids": [alice.pk, bob.pk]},
        "round_zero": {"round_number": 0, "player_ids": [alice.pk, bob.pk, carol.pk]},
        "unknown_field": {"round_number": 1, "player_ids": [alice.pk, bob.pk, carol.pk], "boards": 3},
    }
    before = team_snapshot(tournament)
    response = client_for(users[who]).post(order_url(tournament, aces), bodies[body], format="json")
    assert response.status_code == status, response.json()
    if code != "invalid":
        assert response.json()["code"] == code
    if code == "not_a_member":
        assert "not a member of team Aces" in response.json()["detail"]
    if code == "bad_board_order":
        assert "exactly 3 players" in response.json()["detail"]
    assert team_snapshot(tournament) == before
    assert not BoardOrder.objects.exists()


def test_a_locked_board_order_is_a_409_and_unknown_teams_are_404(organiser):
    tournament, players, (aces, _bears, _cats, _dogs) = team_event(organiser)
    alice, bob, carol = players[:3]
    before = team_snapshot(tournament)
    response = client_for(alice.user).post(order_url(tournament, aces),
                                           {"round_number": 1, "player_ids": [carol.pk, alice.pk, bob.pk]},
                                           format="json")
    assert response.status_code == 409 and response.json()["code"] == "board_order_locked"
    assert team_snapshot(tournament) == before
    missing = Team.objects.order_by("-pk").first().pk + 100
    assert client_for().get(f"/api/v1/tournaments/{tournament.pk}/teams/{missing}/").status_code == 404
    assert client_for().get("/api/v1/tournaments/999999/teams/").status_code == 404


def test_the_team_match_card_shows_each_board_and_the_team_result(organiser):
    tournament, _players, (aces, _bears, _cats, dogs) = team_event(organiser, lengths={"main": [3]})
    row = team_pairing(tournament, aces, dogs)
    url = f"/api/v1/tournaments/{tournament.pk}/team-matches/{row.pk}/"
    play_board(row, 1, aces)
    card = client_for().get(url).json()
    assert [b["status"] for b in card["boards"]] == ["confirmed", "scheduled", "scheduled"]
    assert (card["winner"], card["decided"]) == (None, False)
    play_board(row, 3, aces, loser_points=1)
    card = client_for().get(url).json()
    aces_top = card["top"]["name"] == "Aces"
    assert {card["top"]["name"], card["bottom"]["name"]} == {"Aces", "Dogs"}
    assert (card["winner"], card["decided"]) == (aces.entry.pk, True)
    assert (card["top_points"], card["bottom_points"]) == ((2, 0) if aces_top else (0, 2))
    board1 = card["boards"][0]
    assert board1["top_player"][1] == ("Alice" if aces_top else "Judy")
    assert board1["winner"] == aces.entry.pk and sorted(card["boards"][2]["score"]) == [1, 3]
    assert client_for().get(f"/api/v1/tournaments/{tournament.pk}/team-matches/999999/").status_code == 404


# --- team standings and a member's next match ----------------------------------------------------


def test_the_standings_endpoint_of_a_team_event_ranks_by_team_wins_then_board_points(organiser):
    tournament = played_round_robin(organiser)
    body = client_for().get(api(tournament, "standings")).json()["results"]
    # By head-to-head (the individual round-robin order) the Bears would be first.
    assert [(r["place"], r["entrant"]["name"], r["wins"], r["board_points"], r["board_points_against"])
            for r in body] == [(1, "Aces", 2, 6, 3), (2, "Bears", 2, 5, 4), (3, "Cats", 1, 5, 4), (4, "Dogs", 1, 2, 7)]


def test_a_team_member_gets_his_teams_next_match_with_his_board(organiser):
    tournament, players, (aces, _bears, _cats, dogs) = team_event(organiser, lengths={"main": [3, 5]})
    alice, bob, carol = players[:3]
    row = team_pairing(tournament, aces, dogs)
    nxt = client_for(carol.user).get(api(tournament, "my-next-match")).json()["next_match"]
    # Round 1's boards follow the members' order (no order submitted): Carol is on board 3.
    assert (nxt["key"], nxt["entrant"]["name"], nxt["opponent"]["name"]) == (row.key, "Aces", "Dogs")
    assert (nxt["team_match_id"], nxt["board"], nxt["sits_out"]) == (row.pk, 3, False)
    assert nxt["match_id"] == board_match(row, 3).pk and nxt["status"] == "scheduled"
    captain = client_for(alice.user).get(api(tournament, "my-next-match")).json()["next_match"]
    assert (captain["team_match_id"], captain["board"]) == (row.pk, 1)

    play_team_match(tournament, aces, dogs, 2)
    nxt = client_for(carol.user).get(api(tournament, "my-next-match")).json()["next_match"]
    # The final waits for its other team; no order for round 2 yet, so no board.
    assert (nxt["key"], nxt["opponent"], nxt["board"], nxt["match_id"]) == ("main-2-1", None, None, None)
    assert nxt["waiting_for"].startswith("winner of main-1-") and nxt["length"] == 5
    board_order_submit(tournament_id=tournament.pk, team_id=aces.pk, round_number=2,
                       player_ids=[carol.pk, alice.pk, bob.pk], user=alice.user)
    nxt = client_for(carol.user).get(api(tournament, "my-next-match")).json()["next_match"]
    assert nxt["board"] == 1 and nxt["team_match_id"] == Pairing.objects.get(tournament=tournament,
                                                                              key="main-2-1").pk
    loser = dogs.members.order_by("id").first().player
    assert client_for(loser.user).get(api(tournament, "my-next-match")).json() == {"next_match": None}
    assert client_for(non_member().user).get(api(tournament, "my-next-match")).json() == {"next_match": None}


def test_a_reserve_left_off_the_board_order_is_told_so(organiser):
    tournament, players, (aces, *_others) = team_event(organiser, draw=False)
    rupert = non_member()
    team_member_add(tournament_id=tournament.pk, team_id=aces.pk, user=players[0].user, player_id=rupert.pk,
                    reserve=True)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    row = Pairing.objects.filter(tournament=tournament, round_number=1).get(
        Q(entry0=aces.entry) | Q(entry1=aces.entry))
    nxt = client_for(rupert.user).get(api(tournament, "my-next-match")).json()["next_match"]
    assert nxt["entrant"]["name"] == "Aces" and nxt["team_match_id"] == row.pk
    assert (nxt["board"], nxt["sits_out"], nxt["match_id"]) == (None, True, None)

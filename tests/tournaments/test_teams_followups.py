"""Team events across the event's pages and reads: finishing a Swiss or round robin of teams only
once every team match is decided, the team table on the standings endpoint and page (same query
count for 4 and 16 teams), a member's next match (his team's, with his board), and the links from
the event pages to the team list and the team match cards.

The cast: Olga organises; the Aces (alice captains, bob, carol), the Bears (dave captains, erin,
frank), the Cats (grace, heidi, ivan), the Dogs (judy, mallory, niaj); Rupert is the Aces' reserve
where a test says so, else in no team.
"""

from __future__ import annotations

import random
from html import unescape

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from core.errors import Conflict
from matches.models import Match
from matches.services.reporting import claim_make, match_override
from tests.factories import PlayerFactory
from tests.tournaments.factories import closed, snapshot
from tests.tournaments.factories_teams import (
    board_match,
    non_member,
    play_board,
    play_team_match,
    team_event,
    team_pairing,
)
from tournaments.models import BoardMatch, Pairing, Tournament
from tournaments.services import entry_check_in, tournament_draw, tournament_finish
from tournaments.services import teams as team_services
from tournaments.services.teams import board_order_submit, team_create, team_member_add

pytestmark = pytest.mark.django_db



def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def api(tournament: Tournament, action: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{action}/"


def page(client, name: str, tournament: Tournament | None = None, user=None) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get(reverse(f"tournaments:{name}", args=[tournament.pk] if tournament else []))
    assert response.status_code == 200
    return unescape(response.content.decode())


def round_rows(tournament: Tournament, number: int) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=tournament, round_number=number, entry1__isnull=False)
                .order_by("key"))


def winner_of(row: Pairing):
    """The team of the pairing's first entry (it wins the boards a test gives it)."""
    return row.entry0.team


def loser_of(row: Pairing):
    return row.entry1.team


# --- 1. finishing a Swiss or round robin of teams -----------------------------------------------


def test_a_swiss_of_teams_is_not_finished_while_a_team_match_is_undecided(organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.SWISS, swiss_rounds=2,
                                              lengths={"rounds": [1]})
    first, second = round_rows(tournament, 1)
    play_team_match(tournament, winner_of(first), loser_of(first), 2)
    play_board(second, 1, winner_of(second))  # one board of three: the team match is undecided
    before = snapshot(tournament)
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished"
    assert "1 match without a confirmed result" in caught.value.message and second.key in caught.value.message
    assert snapshot(tournament) == before
    play_board(second, 2, winner_of(second))  # 2 of 3: decided, board 3 may still be played
    assert tournament_finish(tournament_id=tournament.pk, user=organiser).status == Tournament.Status.FINISHED


def test_a_round_robin_of_teams_is_not_finished_with_a_round_still_to_play(organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN,
                                              lengths={"rounds": [1]})
    for row in round_rows(tournament, 1):
        play_team_match(tournament, winner_of(row), loser_of(row), 3)
    # Round 2's boards now exist (the round robin starts its rounds one at a time); none is played.
    assert all(BoardMatch.objects.filter(pairing=row).count() == 3 for row in round_rows(tournament, 2))
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished" and "2 matches without a confirmed result" in caught.value.message
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_a_round_robin_of_teams_is_not_finished_while_a_round_has_no_boards_yet(organiser, monkeypatch):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN,
                                              lengths={"rounds": [1]})
    # The next round not started (its boards not created yet): only the finish check stands between
    # the organiser and a table with two rounds missing.
    monkeypatch.setattr(team_services, "round_robin_start_next", lambda *args, **kwargs: None)
    for row in round_rows(tournament, 1):
        play_team_match(tournament, winner_of(row), loser_of(row), 2)
    assert not BoardMatch.objects.filter(pairing__tournament=tournament, pairing__round_number__gt=1).exists()
    with pytest.raises(Conflict) as caught:
        tournament_finish(tournament_id=tournament.pk, user=organiser)
    assert caught.value.code == "event_unfinished"
    assert "4 team matches not started yet" in caught.value.message
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


# --- 2. the team table on the standings endpoint and page -----------------------------------------


def played_round_robin(organiser):
    """The round robin of test_services_teams: Aces and Bears two team wins each, the Bears beat
    the Aces but the Aces have more board points (6 to 5); Cats 5 board points, Dogs 2."""
    tournament, _players, (aces, bears, cats, dogs) = team_event(
        organiser, format=Tournament.Format.ROUND_ROBIN, lengths={"rounds": [1]})
    results = {(aces, dogs): 3, (bears, cats): 2, (aces, cats): 2, (dogs, bears): 2, (bears, aces): 2,
               (cats, dogs): 3}
    for number in (1, 2, 3):
        for (first, second), won in results.items():
            if team_pairing(tournament, first, second).round_number == number:
                play_team_match(tournament, first, second, won)
    return tournament


def test_the_standings_endpoint_of_a_team_event_ranks_by_team_wins_then_board_points(organiser):
    tournament = played_round_robin(organiser)
    body = client_for().get(api(tournament, "standings")).json()
    # By head-to-head (the individual round-robin order) the Bears would be first.
    assert [(r["place"], r["entrant"]["name"], r["wins"], r["board_points"], r["board_points_against"])
            for r in body] == [(1, "Aces", 2, 6, 3), (2, "Bears", 2, 5, 4), (3, "Cats", 1, 5, 4), (4, "Dogs", 1, 2, 7)]


def test_the_standings_page_of_a_team_event_shows_the_team_table_with_board_points(client, organiser):
    tournament = played_round_robin(organiser)
    text = page(client, "standings", tournament)
    assert "by team-match wins" in text and "Board points" in text and "Points difference" not in text
    rows = text[text.index("<tbody>"):]
    assert rows.index("Aces") < rows.index("Bears") < rows.index("Cats") < rows.index("Dogs")
    assert '<td class="board-points">6</td>' in rows


def many_teams(organiser, count: int) -> Tournament:
    """A team Swiss of ``count`` teams of three (fresh players), drawn, every board of round 1
    confirmed by the organiser with a random winner."""
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS, format=Tournament.Format.SWISS,
                        lengths={"rounds": [1]}, name=f"Swiss of {count}")
    for number in range(count):
        captain, *others = PlayerFactory.create_batch(3)
        team = team_create(tournament_id=tournament.pk, user=organiser, name=f"Team {number}",
                           captain_id=captain.pk, member_ids=[p.pk for p in others])
        entry_check_in(tournament_id=tournament.pk, entry_id=team.entry.pk, user=organiser)
    tournament_draw(tournament_id=tournament.pk, user=organiser)
    rng = random.Random(count)
    for match in Match.objects.filter(event_link__tournament=tournament).select_related("side0", "side1"):
        score = (match.length, 0) if rng.random() < 0.5 else (0, match.length)
        match_override(match_id=match.pk, user=organiser, claim=claim_make(match, score, None))
    tournament.refresh_from_db()
    return tournament


def test_the_team_standings_run_the_same_queries_for_4_and_16_teams(client, organiser):
    api_counts, page_counts = {}, {}
    for count in (4, 16):
        tournament = many_teams(organiser, count)
        with CaptureQueriesContext(connection) as queries:
            response = client_for().get(api(tournament, "standings"))
        assert response.status_code == 200 and len(response.json()) == count
        assert sum(r["board_points"] for r in response.json()) == 3 * count // 2
        api_counts[count] = len(queries)
        with CaptureQueriesContext(connection) as queries:
            page(client, "standings", tournament)
        page_counts[count] = len(queries)
    assert api_counts[4] == api_counts[16] <= 5, api_counts
    assert page_counts[4] == page_counts[16], page_counts


# --- 3. a team member's next match -----------------------------------------------------------------


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


def test_my_next_matches_page_and_the_event_page_show_a_members_team_match(client, organiser):
    tournament, players, (aces, _bears, _cats, dogs) = team_event(organiser, name="Team Cup")
    carol = players[2]
    row = team_pairing(tournament, aces, dogs)
    card = reverse("tournaments:team_match", args=[tournament.pk, row.pk])
    text = page(client, "mine", user=carol.user)
    assert "Team Cup" in text and "against <strong>Dogs</strong>" in text and "on board 3" in text
    assert card in text and reverse("matches:detail", args=[board_match(row, 3).pk]) in text
    detail = page(client, "detail", tournament)
    assert "Your next match" in detail and "on board 3" in detail and card in detail


# --- 4. links from the event pages -----------------------------------------------------------------


def test_the_event_pages_of_a_team_event_link_to_the_team_list(client, organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.SWISS, lengths={"rounds": [1]})
    teams = reverse("tournaments:teams", args=[tournament.pk])
    for name in ("detail", "rounds", "standings"):
        assert f'href="{teams}"' in page(client, name, tournament), name
    individual = closed(organiser=organiser)
    assert reverse("tournaments:teams", args=[individual.pk]) not in page(client, "detail", individual)


def test_the_bracket_cells_of_a_team_event_link_to_the_team_match_cards(client, organiser):
    tournament, _players, (aces, bears, cats, dogs) = team_event(organiser)
    text = page(client, "bracket", tournament)
    for first, second in ((aces, dogs), (bears, cats)):
        row = team_pairing(tournament, first, second)
        assert reverse("tournaments:team_match", args=[tournament.pk, row.pk]) in text
    final = Pairing.objects.get(tournament=tournament, key="main-2-1")
    assert reverse("tournaments:team_match", args=[tournament.pk, final.pk]) not in text  # no teams yet
    for board in BoardMatch.objects.filter(pairing__tournament=tournament):
        assert reverse("matches:detail", args=[board.match_id]) not in text


def test_the_rounds_rows_of_a_team_event_link_to_the_team_match_cards(client, organiser):
    tournament, _players, _teams = team_event(organiser, format=Tournament.Format.ROUND_ROBIN,
                                              lengths={"rounds": [1]})
    first = round_rows(tournament, 1)[0]
    play_team_match(tournament, winner_of(first), loser_of(first), 2)
    text = page(client, "rounds", tournament)
    for row in Pairing.objects.filter(tournament=tournament):
        assert reverse("tournaments:team_match", args=[tournament.pk, row.pk]) in text
    assert "Confirmed" in text and "2-1" in text  # the decided team match: its boards won
    body = client_for().get(api(tournament, "rounds")).json()
    assert body[0]["pairings"][0]["pairing_id"] in {row.pk for row in round_rows(tournament, 1)}

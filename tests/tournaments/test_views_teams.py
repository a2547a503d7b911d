"""Team pages: the team list, a team's page with its members and board orders, the captain's
roster forms before the draw and board-order form (another captain refused, a bad change
re-rendered with its message, nothing saved), and the team match card showing each board; a team
event's pages: the team table on the standings page (the same queries, page and endpoint, for 4
and 16 teams), a member's team match on his next matches and on the event page, and the links to
the team list and the team match cards.

The cast: Olga organises; the Aces (alice captains, bob, carol), the Bears (dave captains, erin,
frank), Cats and Dogs; Rupert is in no team.
"""

from __future__ import annotations

import random
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Match
from matches.services.reporting import claim_make, match_override
from tests.factories import PlayerFactory
from tests.tournaments.factories import closed
from tests.tournaments.factories_teams import (
    board_match,
    enter_teams,
    loser_of,
    non_member,
    play_board,
    play_team_match,
    played_round_robin,
    round_rows,
    team_cast,
    team_event,
    team_pairing,
    team_snapshot,
    winner_of,
)
from tournaments.models import BoardMatch, BoardOrder, Pairing, TeamMember, Tournament
from tournaments.services import entry_check_in, tournament_draw
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db



@pytest.fixture
def event(organiser):
    tournament = closed(organiser=organiser, kind=Tournament.Kind.TEAMS)
    players = team_cast()
    aces, bears = enter_teams(tournament, players, 2)
    return tournament, players, aces, bears


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
    assert 'Aces win <bdi dir="ltr">2\u20130</bdi>.' in text  # an en dash, read left to right in Arabic
    for name in ("Alice", "Bob", "Carol", "Judy", "Mallory", "Niaj"):
        assert name in text
    assert text.count("confirmed") == 2
    assert client.get(reverse("tournaments:team_match", args=[tournament.pk, 999999])).status_code == 404


# --- the event's pages of a team event ----------------------------------------------------------


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
        rows = response.json()["results"]
        assert response.status_code == 200 and len(rows) == count
        assert sum(r["board_points"] for r in rows) == 3 * count // 2
        api_counts[count] = len(queries)
        with CaptureQueriesContext(connection) as queries:
            page(client, "standings", tournament)
        page_counts[count] = len(queries)
    assert api_counts[4] == api_counts[16] <= 5, api_counts
    assert page_counts[4] == page_counts[16], page_counts


def test_my_next_matches_page_and_the_event_page_show_a_members_team_match(client, organiser):
    tournament, players, (aces, _bears, _cats, dogs) = team_event(organiser, name="Team Cup")
    carol = players[2]
    row = team_pairing(tournament, aces, dogs)
    card = reverse("tournaments:team_match", args=[tournament.pk, row.pk])
    text = page(client, "mine", user=carol.user)
    assert "Team Cup" in text and "against <strong>Dogs</strong>" in text and 'on board <bdi dir="ltr">3</bdi>' in text
    assert card in text and reverse("matches:detail", args=[board_match(row, 3).pk]) in text
    detail = page(client, "detail", tournament)
    assert "Your next match" in detail and 'on board <bdi dir="ltr">3</bdi>' in detail and card in detail


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
    body = client_for().get(api(tournament, "rounds"), {"round": 1}).json()
    assert body["results"][0]["pairing_id"] in {row.pk for row in round_rows(tournament, 1)}

"""A round robin's table applies its stated tie-breaks in order (wins, head-to-head, points
difference), and two players still level after points difference are split by their own match:
in the selector, on the standings page (which says which tie-break separated them) and in the API.

The group: Bob beats everyone, Alice everyone but Bob, Dave nobody; Carol, Erin and Frank win two
each and went round in a circle (Carol beat Frank 3-2, Frank beat Erin 3-2, Erin beat Carol 3-2).
Carol is -3 on points (she beat Dave 3-0), Erin and Frank -4 each (they beat Dave 3-1): Carol is
third, and Frank, who beat Erin, fourth, not "4=" beside her.
"""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, play
from tournaments.models import Pairing, Tournament
from tournaments.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db

#: (winner, loser) -> the loser's points, in 3-point matches.
RESULTS = {
    ("bob", "alice"): 0, ("bob", "carol"): 0, ("bob", "dave"): 0, ("bob", "erin"): 0, ("bob", "frank"): 0,
    ("alice", "carol"): 0, ("alice", "dave"): 0, ("alice", "erin"): 0, ("alice", "frank"): 0,
    ("carol", "frank"): 2, ("frank", "erin"): 2, ("erin", "carol"): 2,
    ("carol", "dave"): 0, ("frank", "dave"): 1, ("erin", "dave"): 1,
}


@pytest.fixture
def circle(organiser) -> Tournament:
    tournament, players = drawn(6, organiser=organiser, format=Tournament.Format.ROUND_ROBIN, lengths={"rounds": [3]})
    by_name = {p.user.username: p for p in players}
    for row in Pairing.objects.filter(tournament=tournament).select_related("entry0__side__player_a",
                                                                            "entry1__side__player_a"):
        a, b = row.entry0.side.player_a.user.username, row.entry1.side.player_a.user.username
        winner, loser = (a, b) if (a, b) in RESULTS else (b, a)
        play(tournament, row.key, by_name[winner], RESULTS[(winner, loser)])
    tournament.refresh_from_db()
    return tournament


def test_two_players_level_after_points_difference_are_split_by_their_match(circle):
    table = [(row.place, row.shared, row.entrant.name, row.wins, row.points_difference, row.separated_by)
             for row in tournament_standings(tournament=circle)]
    assert table == [
        (1, False, "Bob", 5, 15, "wins"), (2, False, "Alice", 4, 9, "wins"),
        (3, False, "Carol", 2, -3, "points_difference"), (4, False, "Frank", 2, -4, "head_to_head"),
        (5, False, "Erin", 2, -4, "wins"), (6, False, "Dave", 0, -13, None),
    ]


def test_the_standings_page_places_them_apart_and_says_which_tie_break_did(client, circle):
    page = html.unescape(client.get(reverse("tournaments:standings", args=[circle.pk])).content.decode())
    rows = page[page.index("<tbody>"):page.index("</tbody>")]
    assert "4=" not in rows and "5=" not in rows
    assert rows.index("Carol") < rows.index("Frank") < rows.index("Erin")
    assert "How ties were broken" in page
    assert "Carol is ahead of Frank on points difference." in page
    assert "Frank is ahead of Erin on head-to-head (the matches among those still level)." in page
    assert "Bob is ahead of" not in page  # the score alone separated him


def test_the_standings_api_places_them_apart_and_names_the_tie_break(circle):
    rows = client_for().get(f"/api/v1/tournaments/{circle.pk}/standings/").json()["results"]
    assert [(r["place"], r["shared"], r["entrant"]["name"], r["separated_by"]) for r in rows[2:5]] == [
        (3, False, "Carol", "points_difference"), (4, False, "Frank", "head_to_head"), (5, False, "Erin", "wins")]

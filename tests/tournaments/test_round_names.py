"""Round names where people read them (tournaments.round_labels.round_label over
tournaments.draw.names): the API's bracket, the bracket page's drawing and a match's page, for a
double elimination (winners' and losers' rounds, the grand final and its reset) and a single
elimination (named from the final backwards, as before)."""

from html import unescape

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, make_organiser, pairing, play
from tournaments.models import Tournament
from tournaments.round_labels import round_label
from tournaments.selectors.brackets import match_round_name, tournament_bracket

pytestmark = pytest.mark.django_db

DOUBLE_16 = {
    "winners": ["Winners' round 1", "Winners' quarter-finals", "Winners' semi-finals", "Winners' final"],
    "losers": ["Losers' round 1", "Losers' round 2", "Losers' round 3", "Losers' round 4", "Losers' round 5",
               "Losers' final"],
    "final": ["Grand final", "Grand final reset"],
}


@pytest.fixture
def double_of_16():
    tournament, players = drawn(16, organiser=make_organiser(), format=Tournament.Format.DOUBLE_ELIMINATION)
    return tournament, players


def test_every_round_of_a_16_player_double_elimination_is_named(double_of_16):
    tournament, _ = double_of_16
    with translation.override("en"):
        bracket = tournament_bracket(tournament=tournament)
        assert {f.name: [r.label for r in f.rounds] for f in bracket.flights} == DOUBLE_16
        assert [r.short_label for r in bracket.flights[0].rounds] == ["W1", "WQF", "WSF", "WF"]
        assert [r.short_label for r in bracket.flights[1].rounds] == ["L1", "L2", "L3", "L4", "L5", "LF"]
        assert [r.short_label for r in bracket.flights[2].rounds] == ["GF", "GF reset"]


def test_single_elimination_keeps_its_names():
    tournament, players = drawn(16, organiser=make_organiser())
    with translation.override("en"):
        [main] = tournament_bracket(tournament=tournament).flights
        assert [r.label for r in main.rounds] == ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    small, _ = drawn(4, players=players[:4], organiser=tournament.organiser)
    with translation.override("en"):
        assert [r.label for r in tournament_bracket(tournament=small).flights[0].rounds] == ["Semi-finals", "Final"]


def test_the_api_gives_each_round_its_name_and_kind(double_of_16):
    tournament, _ = double_of_16
    url = f"/api/v1/tournaments/{tournament.pk}/bracket/"
    body = client_for().get(url, HTTP_ACCEPT_LANGUAGE="en").data
    assert {f["name"]: [r["name"] for r in f["rounds"]] for f in body["flights"]} == DOUBLE_16
    assert body["flights"][1]["rounds"][1]["short_name"] == "L2"
    assert body["flights"][2]["rounds"][1]["kind"] == {"kind": "reset", "number": 0}
    page = client_for().get(url, {"flight": "losers", "round": 3}, HTTP_ACCEPT_LANGUAGE="en").data
    assert (page["round"], page["round_name"], page["round_kind"]) == (3, "Losers' round 3",
                                                                        {"kind": "losers_round", "number": 3})
    final = client_for().get(url, {"flight": "final", "round": 1}, HTTP_ACCEPT_LANGUAGE="en").data
    assert final["round_name"] == "Grand final"


def test_the_bracket_page_heads_each_column_with_its_round(client, double_of_16):
    tournament, _ = double_of_16
    html = unescape(client.get(reverse("tournaments:bracket", args=[tournament.pk]), {"flight": "losers"},
                               HTTP_ACCEPT_LANGUAGE="en").content.decode())
    for name in DOUBLE_16["losers"][:4]:  # the page shows a window of rounds
        assert name in html
    html = client.get(reverse("tournaments:bracket", args=[tournament.pk]), {"flight": "final"},
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Grand final" in html and "Grand final reset" in html


def test_a_match_page_names_its_round_in_one_query(double_of_16, django_assert_num_queries):
    tournament, players = double_of_16
    match = play(tournament, "winners-1-1", players[0])
    loser_match = pairing(tournament, "winners-1-1").match
    assert loser_match.pk == match.pk
    cache.clear()
    tournament.refresh_from_db()
    with django_assert_num_queries(1):  # the event's rounds, kept in the cache afterwards
        assert match_round_name(tournament=tournament, match_id=match.pk).kind == "winners_round"
    with django_assert_num_queries(0):
        assert round_label(match_round_name(tournament=tournament, match_id=match.pk)) == "Winners' round 1"
    html = unescape(Client().get(reverse("matches:detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert f"{tournament.name}, Winners' round 1" in html


def test_a_match_outside_the_bracket_has_no_round_name(double_of_16):
    tournament, _ = double_of_16
    assert match_round_name(tournament=tournament, match_id=0) is None

"""The front page at /: an anonymous visitor gets it (200, never sent to sign in) with the events
under way and to come (never a draft), the latest confirmed results with their scores read left to
right, and the clubs, in a number of queries that does not grow with them; a signed-in user keeps
his own page there."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club
from tests.factories import TournamentFactory
from tests.tournaments.factories import drawn, play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _page(client) -> str:
    response = client.get("/")
    assert response.status_code == 200, response.get("Location")
    return html.unescape(response.content.decode())


def test_an_anonymous_visitor_gets_the_front_page_not_the_sign_in(client):
    Club.objects.create(name="Riverside", slug="riverside")
    running, players = drawn(4, name="Lyon Open")
    play(running, "main-1-1", players[0], loser_points=2)
    TournamentFactory(name="Spring Cup", status=Tournament.Status.OPEN)
    TournamentFactory(name="Hidden Draft")
    TournamentFactory(name="Done Already", status=Tournament.Status.FINISHED)
    page = _page(client)
    assert "Lyon Open" in page and "Spring Cup" in page and "Riverside" in page
    assert "Hidden Draft" not in page and "Done Already" not in page
    assert "Alice v Dave" in page or "Dave v Alice" in page
    assert '<bdi dir="ltr">5-2</bdi>' in page or '<bdi dir="ltr">2-5</bdi>' in page
    assert reverse("login") in page  # offered, not forced


def test_a_signed_in_user_keeps_his_own_page(client):
    _running, players = drawn(2)
    client.force_login(players[0].user)
    response = client.get("/")
    assert response.status_code == 200 and "matches/mine.html" in [t.name for t in response.templates]


def test_the_front_page_costs_the_same_queries_whatever_the_numbers(client, django_assert_max_num_queries):
    def fill(n: int) -> None:
        for i in range(n):
            Club.objects.create(name=f"Club {n}-{i}", slug=f"club-{n}-{i}")
            TournamentFactory(name=f"Open {n}-{i}", status=Tournament.Status.OPEN)
            TournamentFactory(name=f"Live {n}-{i}", status=Tournament.Status.RUNNING)

    fill(1)
    event, players = drawn(4)
    play(event, "main-1-1", players[0])
    with CaptureQueriesContext(connection) as few:
        _page(client)
    fill(12)
    play(event, "main-1-2", players[1])
    with django_assert_max_num_queries(len(few)):
        _page(client)

"""Standings are cached under the event's version; every committed change moves the version on."""

import pytest
from rest_framework.test import APIClient

from core.errors import DomainError
from tournaments.models import Tournament
from tournaments.services.draw import tournament_pair_next_round

from .factories import cast, drawn, override

pytestmark = pytest.mark.django_db


def standings(tournament):
    response = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert response.status_code == 200
    return response.json()["results"]


def test_a_confirmed_result_shows_in_the_cached_standings(django_assert_max_num_queries):
    players = cast(4)
    tournament, _ = drawn(4, players=players, format=Tournament.Format.SWISS)
    before = standings(tournament)
    assert all(row["wins"] == 0 for row in before)
    with django_assert_max_num_queries(1):  # the event (its version): the rows come from the cache
        assert standings(tournament) == before
    override(tournament, "swiss-1-1", players[0])
    after = standings(tournament)
    assert sorted(row["wins"] for row in after) == [0, 0, 0, 1]


def test_a_refused_change_does_not_move_the_version():
    players = cast(4)
    tournament, _ = drawn(4, players=players, format=Tournament.Format.SWISS)
    version = Tournament.objects.get(pk=tournament.pk).version
    with pytest.raises(DomainError):  # round 1 is not complete: refused, rolled back
        tournament_pair_next_round(tournament_id=tournament.pk, user=tournament.organiser)
    assert Tournament.objects.get(pk=tournament.pk).version == version
    override(tournament, "swiss-1-1", players[0])
    assert Tournament.objects.get(pk=tournament.pk).version > version

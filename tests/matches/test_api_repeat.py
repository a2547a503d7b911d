"""A repeated identical report over the API is answered before anything is read or replayed."""

import random

import pytest
from rest_framework.authtoken.models import Token

from engine.actions import action_to_dict
from engine.randomgame import random_match_games
from matches.models import Report
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


def test_a_repeated_report_with_its_logs_is_not_replayed_again(api_client, monkeypatch):
    match = MatchFactory(length=3)
    alice = match.side0.player_a.user
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    games = [[action_to_dict(a) for a in game] for game in random_match_games(random.Random(5), 3)]
    from matches.services.logs import log_from_json

    score = list(log_from_json(games, match.rules()).final_score)
    first = api_client.post(f"/api/v1/matches/{match.pk}/report/", {"score": score, "games": games}, format="json")
    assert first.status_code == 200, first.json()

    def replay_forbidden(*args, **kwargs):
        raise AssertionError("a repeat must not replay the logs")

    monkeypatch.setattr("matches.api.matches.log_from_json", replay_forbidden)
    again = api_client.post(f"/api/v1/matches/{match.pk}/report/", {"score": score, "games": games}, format="json")
    assert again.status_code == 200 and again.json() == first.json()
    assert Report.objects.filter(match=match).count() == 1


def test_a_different_report_is_not_taken_for_a_repeat(api_client):
    match = MatchFactory(length=5)
    alice = match.side0.player_a.user
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    api_client.post(f"/api/v1/matches/{match.pk}/report/", {"score": [5, 3]}, format="json")
    changed = api_client.post(f"/api/v1/matches/{match.pk}/report/", {"score": [5, 4]}, format="json")
    assert changed.status_code == 200
    assert match.reports.exclude(status=Report.Status.SUPERSEDED).get().score == (5, 4)

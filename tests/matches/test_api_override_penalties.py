"""Penalty points mid-match (RULES.md §9): an organiser's result entered through the API with its game logs
(``POST /api/v1/matches/{id}/override/``, JSON) replays them with the penalty points given
mid-match, as a player's report does."""

import pytest

from engine.actions import action_to_dict
from matches.models import Match
from matches.services.penalties import match_penalty_give
from tests.engine.test_game import log
from tests.engine.test_match import resigned
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


def test_rules_9_an_override_with_logs_replays_them_with_the_mid_match_penalty():
    # 3-3 after six games, side 1 penalised 1: 4-3, so game 7 is the Crawford game; side 0 wins it: 5-3.
    match = MatchFactory(length=5, status=Match.Status.IN_PLAY)
    match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(3, 3))
    games = [[action_to_dict(a) for a in log(resigned(side, 1))] for side in (0, 1, 0, 1, 0, 1, 0)]
    response = client_for(match.organiser).post(f"/api/v1/matches/{match.pk}/override/",
                                                 {"score": [5, 3], "games": games}, format="json")
    assert response.status_code == 200, response.json()
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1) == ("confirmed", 5, 3)
    last = match.games.get(number=7)
    assert (last.score0, last.score1, last.crawford) == (4, 3, True)

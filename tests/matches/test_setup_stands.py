"""A wrong setup (RULES.md §9): a game that started from a wrong set-up and stands
is reported with its log's first action a ``setup`` (the real starting position); the report API
takes it, the game keeps it, and the API's moments and the match page's board start from that
position, saying so in words."""

import pytest
from django.urls import reverse

from engine.actions import Setup, action_to_dict
from engine.board import Position
from engine.ids import position_id
from matches.models import Match
from tests.engine.test_game import log
from tests.engine.test_match import resigned
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

STANDARD = position_id(Position.start(0))


def wrong_start() -> str:
    """Side 0 set up one checker on his 11-point instead of his 13-point."""
    start = Position.start(0)
    board = list(start.boards[0])
    board[13] -= 1
    board[11] += 1
    return position_id(Position((tuple(board), start.boards[1]), 0))


WRONG = wrong_start()


def games() -> list[list[dict]]:
    """Game 1 from the wrong set-up (side 1 wins 1), game 2 from the standard one (side 0, 1): 1-1 ... to 3."""
    first = [action_to_dict(Setup(None, position=WRONG)), *(action_to_dict(a) for a in log(resigned(1, 1)))]
    rest = [[action_to_dict(a) for a in log(resigned(0, 2))]]
    return [first, *rest]


@pytest.fixture
def match():
    return MatchFactory(length=2)  # 0-1, then side 0's gammon: 2-1


def reported(match) -> Match:
    for user in (match.side0.player_a.user, match.side1.player_a.user):
        response = client_for(user).post(f"/api/v1/matches/{match.pk}/report/", {"score": [2, 1], "games": games()},
                                         format="json")
        assert response.status_code == 200, response.json()
    match.refresh_from_db()
    return match


def test_rules_9_a_report_whose_game_started_from_a_wrong_set_up_is_taken_and_kept(match):
    assert WRONG != STANDARD
    match = reported(match)
    assert (match.status, match.score0, match.score1) == ("confirmed", 2, 1)
    first = match.games.get(number=1)
    assert first.log[0] == {"type": "setup", "position": WRONG} and first.setup == WRONG
    assert match.games.get(number=2).setup is None


def test_rules_9_the_api_moments_start_from_the_real_starting_position(match):
    match = reported(match)
    game = client_for().get(f"/api/v1/matches/{match.pk}/games/1/").json()
    assert game["setup"] == WRONG
    assert game["moments"][0]["position_id"] == WRONG
    assert game["moments"][0]["action"] == {"type": "setup", "position": WRONG}
    assert client_for().get(f"/api/v1/matches/{match.pk}/games/2/").json()["setup"] is None


def test_rules_9_a_set_up_that_is_the_standard_one_is_refused_naming_the_game(match):
    bad = games()
    bad[0][0]["position"] = STANDARD
    response = client_for(match.side0.player_a.user).post(f"/api/v1/matches/{match.pk}/report/",
                                                          {"score": [2, 1], "games": bad}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["rule"], body["game"]) == ("invalid_game_log", "setup_is_standard", 1), body
    assert "game 1" in body["detail"]


def test_rules_9_the_match_page_board_starts_from_the_real_starting_position_and_says_so(match):
    match = reported(match)
    url = reverse("matches:detail", args=[match.pk])
    page = client_for().get(f"{url}?game=1&moment=0").content.decode()
    assert f"<code>{WRONG}</code>" in page or f'<code><bdi dir="ltr">{WRONG}</bdi></code>' in page
    assert "This game started from a wrong set-up, which stands: its real starting position is" in page
    assert "the checkers were set up wrongly and the game stands" in page
    standard = client_for().get(f"{url}?game=2&moment=0").content.decode()
    assert "wrong set-up" not in standard and STANDARD in standard

"""The opponent confirms with eyes open: the match page's confirm form lists the games of the
pending report (score after each, Crawford, cube, how each ended) and steps through their board;
the API's report carries the same games. Both read them in a number of queries that does not grow
with the games."""

import html
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from matches.models import Match
from matches.services.logs import log_from_json
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for, json_games

pytestmark = pytest.mark.django_db

# Seeded random 5-point matches: seed 1 has seven games, seed 3 one (tests/matches/test_report_queries.py).
SEEDS = {1: 7, 3: 1}
# The page: session and user, the match with its sides and contexts, the sides' players, games,
# live reports (the pending report's logs with them), the viewer's player, the match's disputes...
# (the reported games and their board cost no query), and the match's analysis (read once for
# its section and the stepper's marks, found or not).
PAGE = 9
# The API's detail, not cached: the match with its sides and contexts, the players, games, reports.
API_DETAIL = 5


def pending_with_logs(seed: int) -> tuple[Match, list]:
    """A 5-point match between Alice and Bob that Alice reported with the seed's game logs."""
    match = MatchFactory(
        length=5,
        side0__player_a__display_name="Alice", side0__player_a__user__username=f"alice{seed}",
        side1__player_a__display_name="Bob", side1__player_a__user__username=f"bob{seed}",
    )
    games = json_games(5, seed)
    score = list(log_from_json(games, match.rules()).final_score)
    response = client_for(match.side0.player_a.user).post(
        f"/api/v1/matches/{match.pk}/report/", {"score": score, "games": games}, format="json")
    assert response.status_code == 200, response.content
    return match, games


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_the_confirm_form_lists_every_reported_game_as_a_sentence(client):
    match, games = pending_with_logs(1)
    replay = log_from_json(games, match.rules()).replay
    client.force_login(match.side1.player_a.user)
    response = client.get(reverse("matches:detail", args=[match.pk]))
    assert response.status_code == 200
    text = text_of(response)
    assert "The 7 games in the report" in text
    items = re.findall(r'<ol class="reported-games"[^>]*>(.*?)</ol>', response.content.decode(), re.S)[0]
    lines = [html.unescape(re.sub(r"<[^>]+>", "", li)).strip() for li in re.findall(r"<li.*?</li>", items, re.S)]
    assert len(lines) == len(replay.games)
    score = [0, 0]
    for line, game in zip(lines, replay.games, strict=True):
        result = game.result
        score[result.winner] += result.points
        winner = ("Alice", "Bob")[result.winner]
        assert line.startswith(f"Game {game.number}: {winner} wins {result.points} point"), line
        assert line.endswith(f"the score after it: {score[0]}-{score[1]}."), line
        assert ("in the Crawford game" in line) == game.crawford
        assert (f"the cube at {result.cube}" in line) == (result.cube > 1)
        how = {"single": "(a single game", "gammon": "(a gammon", "backgammon": "(a backgammon",
               "drop": "(the double dropped", "resign": ", resigned"}[result.ending]
        assert how in line, line
    assert any(g.crawford for g in replay.games)  # the seed's match has a Crawford game to show
    # The board of the reported game 1 at its start, and the stepper's next link.
    assert 'id="report-board"' in response.content.decode()
    assert "Game 1, moment 0 of" in text
    assert "?report_game=1&amp;report_moment=1#report-board" in response.content.decode()
    assert "Confirm " in text


def test_the_reported_board_steps_through_a_chosen_game(client):
    match, _ = pending_with_logs(1)
    client.force_login(match.side1.player_a.user)
    response = client.get(reverse("matches:detail", args=[match.pk]), {"report_game": 2, "report_moment": 3})
    assert response.status_code == 200
    text = text_of(response)
    assert "Game 2, moment 3 of" in text
    previous = f'rel="prev" href="/matches/{match.pk}/?report_game=2&amp;report_moment=2#report-board"'
    assert previous in response.content.decode()
    assert client.get(reverse("matches:detail", args=[match.pk]), {"report_game": 99}).status_code == 404


def test_the_reporter_and_the_public_see_no_confirm_form_and_a_report_without_logs_lists_no_games(client):
    match, _ = pending_with_logs(3)
    client.force_login(match.side0.player_a.user)
    assert 'class="reported-games"' not in client.get(reverse("matches:detail", args=[match.pk])).content.decode()
    plain = MatchFactory(length=5)
    client_for(plain.side0.player_a.user).post(f"/api/v1/matches/{plain.pk}/report/", {"score": [5, 1]},
                                               format="json")
    client.force_login(plain.side1.player_a.user)
    page = client.get(reverse("matches:detail", args=[plain.pk])).content.decode()
    assert 'Confirm <bdi dir="ltr">5-1</bdi>' in page and 'class="reported-games"' not in page


def test_the_page_costs_the_same_queries_whatever_the_reported_games(client, django_assert_num_queries):
    for seed, count in SEEDS.items():
        match, _ = pending_with_logs(seed)
        client.force_login(match.side1.player_a.user)
        with django_assert_num_queries(PAGE):
            response = client.get(reverse("matches:detail", args=[match.pk]))
        assert response.content.decode().count("<li", response.content.decode().index("reported-games")) >= count


def test_the_api_report_carries_the_games_summary_in_constant_queries(django_assert_num_queries):
    anonymous = client_for(None)
    for seed, count in SEEDS.items():
        match, games = pending_with_logs(seed)
        replay = log_from_json(games, match.rules()).replay
        cache.clear()
        with django_assert_num_queries(API_DETAIL):
            response = anonymous.get(f"/api/v1/matches/{match.pk}/")
        assert response.status_code == 200
        summary = response.data["reports"][0]["games"]
        assert len(summary) == count
        for item, game in zip(summary, replay.games, strict=True):
            result = game.result
            after = list(game.score)
            after[result.winner] += result.points
            assert item == {"number": game.number, "score_before": list(game.score), "crawford": game.crawford,
                            "winner": result.winner, "points": result.points, "cube": result.cube,
                            "ending": result.ending, "score_after": after}


def test_a_confirmed_report_carries_no_games_summary():
    match, _ = pending_with_logs(3)
    response = client_for(match.side1.player_a.user).post(f"/api/v1/matches/{match.pk}/confirm/", format="json")
    assert response.status_code == 200
    assert all(report["games"] is None for report in response.data["reports"])
    assert len(response.data["games"]) == 1

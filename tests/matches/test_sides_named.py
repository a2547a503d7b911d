"""A match's sides are named by their players (or, on the board, by their checkers' colour), never
as "Side 0" and "Side 1": on the match page, in the board's titles, in the steps through a game,
and in the engine's refusals of a match file or a score (the engine writes "side 0"; the layers
that know the names say them). A report's refused time left is named as people read it, not
``clock_remaining``."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from core.engine_messages import name_sides
from core.errors import DomainError
from engine.board import Position, side_board
from matches.board import board_svg
from matches.services.claims import TEXT_LABELS, TEXT_LIMIT, claim_request
from matches.services.logs import log_from_json
from matches.services.reporting import claim_make
from matches.views.claims import ClaimForm, RefuseForm
from tests.factories import MatchFactory
from tests.matches.claims_world import imported, user
from tests.matches.factories_api import client_for, json_games, make_cast
from tests.matches.test_views import confirmed_with_games

pytestmark = pytest.mark.django_db

SIDE_NUMBER = re.compile(r"\b[Ss]ide [01]\b")


@pytest.fixture
def match():
    return MatchFactory(length=5, side0__player_a__display_name="Alice Lambert", side0__player_a__user__username="alice",
                        side1__player_a__display_name="Bob Chen", side1__player_a__user__username="bob",
                        organiser__username="olga")


def visible(response) -> str:
    main = response.content.decode().split("<main", 1)[1]
    main = re.sub(r"<(script|style)\b.*?</\1>", " ", main, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


def test_the_match_page_names_the_sides_by_their_checkers_and_players(client, match):
    confirmed_with_games(match, match.side0.player_a.user, match.side1.player_a.user)
    response = client.get(reverse("matches:detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert re.search(r"<dt>Light checkers</dt>\s*<dd><a [^>]*>Alice Lambert</a>", page)
    assert re.search(r"<dt>Dark checkers</dt>\s*<dd><a [^>]*>Bob Chen</a>", page)
    assert not SIDE_NUMBER.search(visible(response)), SIDE_NUMBER.findall(visible(response))
    # The board's own titles (its accessible name, the cube's) say no side number either.
    assert not SIDE_NUMBER.search(html.unescape(page))


def test_the_boards_titles_name_the_players_or_the_checkers():
    position = Position((side_board({6: 5, 8: 3, 13: 5, 24: 2}), side_board({6: 5, 8: 3, 13: 5, 24: 2})), turn=1)
    with translation.override("en"):
        named = board_svg(position, cube=2, owner=0, names=("Alice Lambert", "Bob Chen"))
        plain = board_svg(position, cube=2, owner=1)
    assert "<title>cube at 2, owned by Alice Lambert</title>" in named
    assert "<title>Backgammon board, Bob Chen on roll</title>" in named
    assert "<title>cube at 2, owned by the player with the dark checkers</title>" in plain
    assert not SIDE_NUMBER.search(named + plain)


def test_the_engines_sides_are_said_by_name():
    names = ("Alice", "Bob")
    assert name_sides("game 2, move 5, side 1: play 13/8: it is side 0's turn to act, not side 1's", names) == (
        "game 2, move 5, Bob: play 13/8: it is Alice's turn to act, not Bob's")
    assert name_sides("lasse (side 0) claims the game", ("lasse", "mehdi")) == "lasse claims the game"
    assert name_sides("the winner must be side 0 or 1, not 2", names) == "the winner must be side 0 or 1, not 2"


def test_a_score_below_a_sides_penalty_points_names_that_side_by_its_player():
    match = MatchFactory(length=5, penalty1=2, side1__player_a__display_name="Bob Chen")
    with translation.override("en"), pytest.raises(Exception) as refused:
        claim_make(match, (5, 1), None)
    assert refused.value.message == "Bob Chen starts this match with 2 penalty points: 5-1 cannot be its final score"
    assert refused.value.details["side"] == 1


def test_a_refused_time_left_is_named_as_people_read_it_and_its_field_kept():
    cast = make_cast()  # a match without a clock
    games = json_games(5, 3)
    score = list(log_from_json(games, cast.match.rules()).final_score)
    response = client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/",
                                           {"score": score, "games": games, "clock_remaining": [10, 10]}, format="json",
                                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response.data["field"] == "clock_remaining"
    assert response.data["detail"] == "Time left on the clock: this match is not played with a clock"
    assert response.data["errors"] == {"clock_remaining": ["this match is not played with a clock"]}


def test_a_claims_text_too_long_is_named_by_the_claim_forms_label():
    assert str(TEXT_LABELS["statement"]) == str(ClaimForm.base_fields["statement"].label)
    assert str(TEXT_LABELS["reason"]) == str(RefuseForm.base_fields["reason"].label)
    with translation.override("en"), pytest.raises(DomainError) as refused:
        claim_request(player_id=imported("Charlot").pk, user=user("charles"), statement="x" * (TEXT_LIMIT + 1))
    assert refused.value.details["field"] == "statement"
    assert refused.value.message == f"Why you are this player: at most {TEXT_LIMIT} characters"

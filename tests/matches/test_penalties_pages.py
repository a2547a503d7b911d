"""Penalty points given mid-match (RULES.md §9): the match page's form and the
API route, their permissions, bad input, and their query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.models import Match, MatchPenalty
from matches.services.penalties import match_penalty_give
from tests.factories import MatchFactory, UserFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    return MatchFactory(length=5, status=Match.Status.IN_PLAY,
                        side0__player_a__display_name="Alice", side1__player_a__display_name="Bob")


def post(client, match, **fields):
    data = {"penalty-side": 1, "penalty-points": 1, "penalty-reason": "late", "penalty-score0": 3,
            "penalty-score1": 3, **{f"penalty-{k}": v for k, v in fields.items()}}
    return client.post(reverse("matches:penalty", args=[match.pk]), data)


def test_rules_9_the_director_gives_a_penalty_point_and_the_page_shows_the_crawford_game(client, match):
    client.force_login(match.organiser)
    page = client.get(reverse("matches:detail", args=[match.pk])).content.decode()
    assert f'action="/matches/{match.pk}/penalty/"' in page
    answer = post(client, match)
    assert answer.status_code == 302 and answer["Location"].endswith("#penalties")
    page = client.get(answer["Location"]).content.decode()
    assert "Bob is given 1 penalty point (Late arrival or overrun) at 3-3: the score is 4-3" in page
    assert "The next game is the Crawford game." in page
    assert 'name="penalty-score0" value="4"' in page  # the form starts from the score as it stands


@pytest.mark.parametrize(("fields", "words"), [
    ({"points": 0}, "Ensure this value is greater than or equal to 1"),
    ({"score0": 5}, "from 0 to 4"),
    ({"reason": "rude"}, "Select a valid choice"),
])
def test_bad_input_is_refused_on_the_form_and_nothing_is_saved(client, match, fields, words):
    client.force_login(match.organiser)
    answer = post(client, match, **fields)
    assert answer.status_code == 400 and words in answer.content.decode()
    assert not MatchPenalty.objects.exists()


def test_nobody_but_the_director_sees_the_form_or_gives_points(client, match):
    for user in (match.side0.player_a.user, UserFactory(organiser=True)):
        client.force_login(user)
        assert "penalty-form" not in client.get(reverse("matches:detail", args=[match.pk])).content.decode()
        assert post(client, match).status_code == 403
    assert not MatchPenalty.objects.exists()


def test_the_api_gives_and_lists_penalty_points(match):
    api = client_for(match.organiser)
    url = reverse("api-match-penalties", args=[match.pk])
    answer = api.post(url, {"side": 1, "points": 1, "reason": "slow_play", "score": [3, 3]}, format="json")
    assert answer.status_code == 201, answer.content
    [row] = answer.json()
    assert (row["score_before"], row["score_after"], row["crawford_next"]) == ([3, 3], [4, 3], True)
    assert "the next game is the Crawford game" in row["text"]
    assert client_for(None).get(url).json() == answer.json()


@pytest.mark.parametrize(("body", "field"), [
    ({"side": 1, "points": 1, "reason": "late", "status": "confirmed"}, "status"),
    ({"side": 3, "points": 1, "reason": "late"}, "side"),
    ({"side": 1, "points": 1, "reason": "late", "score": [9, 0]}, "score"),
])
def test_the_api_refuses_bad_bodies_naming_the_field(match, body, field):
    answer = client_for(match.organiser).post(reverse("api-match-penalties", args=[match.pk]), body, format="json")
    assert answer.status_code == 400 and field in answer.content.decode()
    assert not MatchPenalty.objects.exists()


def test_the_api_refuses_a_player(match):
    answer = client_for(match.side0.player_a.user).post(reverse("api-match-penalties", args=[match.pk]),
                                                        {"side": 1, "points": 1, "reason": "late"}, format="json")
    assert answer.status_code == 403


def _counts(client, match) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as page:
        assert client.get(reverse("matches:detail", args=[match.pk])).status_code == 200
    with CaptureQueriesContext(connection) as api:
        assert client_for(None).get(reverse("api-match-penalties", args=[match.pk])).status_code == 200
    return len(page), len(api)


def test_the_page_and_the_api_read_a_fixed_number_of_queries_however_many_penalties(client):
    match = MatchFactory(length=25, status=Match.Status.IN_PLAY)
    client.force_login(match.organiser)
    match_penalty_give(match.pk, 0, 1, "late", match.organiser)
    few = _counts(client, match)
    for number in range(15):
        match_penalty_give(match.pk, number % 2, 1, "slow_play", match.organiser)
    assert MatchPenalty.objects.filter(match=match).count() == 16
    assert _counts(client, match) == few


def test_the_penalty_sentence_keeps_its_scores_left_to_right_in_arabic(match):
    from django.utils import translation

    from matches.penalties_text import penalty_text

    penalty = match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(3, 3))
    with translation.override("ar"):
        text = penalty_text(match, penalty)
    assert "\u20664-3\u2069" in text and "\u20663-3\u2069" in text

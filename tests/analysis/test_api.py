"""The analysis API: GET/POST /api/v1/matches/{id}/analysis/, GET /api/v1/players/{id}/analysis/,
GET /api/v1/tournaments/{id}/analysis/ (the named cast of tests.matches.factories_api)."""

from __future__ import annotations

import pytest

from analysis.models import MatchAnalysis
from analysis.services import match_analysis_request, match_analysis_run
from matches.services.matches import side_for
from tests.analysis.conftest import confirm_with_file
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for
from tests.tournaments.factories import drawn, player
from tournaments.models import EventMatch

pytestmark = pytest.mark.django_db


def url(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/analysis/"


def analysed(cast, plies: int = 0) -> MatchAnalysis:
    match_analysis_request(cast.match, actor=cast.organiser, plies=plies)
    return match_analysis_run(cast.match.pk)


# --- a match's analysis --------------------------------------------------------------------------


def test_a_match_never_analysed_answers_none(cast):
    body = client_for().get(url(cast.match.pk)).json()
    assert (body["status"], body["status_text"], body["plies"], body["sides"], body["games"]) == (
        "none", "Not analysed", None, [], [])
    assert body["progress"] == {"done": 0, "total": 0, "percent": 0} and body["available"] is True


def test_a_queued_analysis_answers_its_state_and_progress(played):
    body = client_for().get(url(played.match.pk)).json()
    assert (body["status"], body["plies"], body["failure"], body["sides"]) == ("queued", 2, None, [])


def test_a_done_analysis_answers_each_sides_figures_and_every_decision(played):
    row = analysed(played)
    body = client_for(played.carol).get(url(played.match.pk)).json()
    assert (body["status"], body["plies"], body["progress"]["percent"]) == ("done", 0, 100)
    assert [side["name"] for side in body["sides"]] == ["Alice", "Bob"]
    assert [side["pr"] for side in body["sides"]] == [row.pr0, row.pr1]
    assert all(side["rating_text"] and side["luck_text"] for side in body["sides"])
    assert len(body["games"]) == len(row.result["games"])
    assert body["games"][0]["decisions"][0] == row.result["games"][0]["decisions"][0]


def test_a_failed_analysis_says_why_in_a_sentence(played):
    MatchAnalysis.objects.filter(pk=played.match.pk).update(status="failed", failure_code="time_limit")
    body = client_for().get(url(played.match.pk)).json()
    assert body["failure"] == {"code": "time_limit", "detail": "The analysis took longer than its time limit and was "
                                                               "stopped; try a smaller depth."}
    assert body["status_text"] == "The analysis failed"


def test_the_answer_costs_one_query_whatever_the_state(played, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert client_for().get(url(played.match.pk)).json()["status"] == "queued"
    analysed(played)
    with django_assert_num_queries(1):
        assert client_for().get(url(played.match.pk)).json()["status"] == "done"


def test_an_unknown_match_is_404(cast):
    assert client_for().get(url(cast.match.pk + 1000)).status_code == 404
    assert client_for(cast.organiser).post(url(cast.match.pk + 1000), {}, format="json").status_code == 404


def test_the_director_asks_for_it_again_at_a_depth(played):
    response = client_for(played.organiser).post(url(played.match.pk), {"plies": 1}, format="json")
    assert response.status_code == 202, response.content
    assert (response.json()["status"], response.json()["plies"]) == ("queued", 1)
    assert MatchAnalysis.objects.get(pk=played.match.pk).generation == 2


@pytest.mark.parametrize(("role", "status"), [("anonymous", 401), ("alice", 403), ("bob", 403), ("carol", 403),
                                              ("other_organiser", 403), ("organiser", 202), ("staff", 202)])
def test_only_the_director_or_staff_may_ask(played, role, status):
    response = client_for(played.user(role)).post(url(played.match.pk), {}, format="json")
    assert response.status_code == status, response.content
    if status == 403:
        assert response.json()["code"] == "not_match_director"


@pytest.mark.parametrize("body", [{"plies": 3}, {"plies": "2"}, {"depth": 2}])
def test_a_bad_body_is_400_naming_the_field(played, body):
    response = client_for(played.organiser).post(url(played.match.pk), body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == set(body)
    assert MatchAnalysis.objects.get(pk=played.match.pk).generation == 1


def test_a_match_without_games_is_409(cast):
    response = client_for(cast.organiser).post(url(cast.match.pk), {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "no_game_logs")


# --- a player's PR over time, an event's ranking ----------------------------------------------------


def second_match(cast):
    """alice v carol, confirmed with another real file's games."""
    alice, carol = cast.match.side0.player_a, cast.carol.player
    match = MatchFactory(side0=side_for([alice]), side1=side_for([carol]), organiser=cast.organiser, length=5)
    confirm_with_file(match, cast.alice, cast.carol, "galaxy_5pt_match9012369.mat")
    match_analysis_request(match, actor=cast.organiser, plies=0)
    return match_analysis_run(match.pk)


def test_a_player_has_one_point_per_analysed_match_oldest_first(played, django_assert_num_queries):
    first = analysed(played)
    second = second_match(played)
    alice = played.match.side0.player_a
    with django_assert_num_queries(2):  # the player, the points
        points = client_for().get(f"/api/v1/players/{alice.pk}/analysis/").json()
    assert [(p["match_id"], p["side"], p["pr"], p["plies"]) for p in points] == [
        (played.match.pk, 0, first.pr0, 0), (second.pk, 0, second.pr0, 0)]
    assert points[1]["opponent"] == "Carol"
    bob = played.match.side1.player_a
    assert [p["pr"] for p in client_for().get(f"/api/v1/players/{bob.pk}/analysis/").json()] == [first.pr1]
    assert client_for().get(f"/api/v1/players/{alice.pk + 1000}/analysis/").status_code == 404


def test_an_event_ranks_its_players_by_pr_over_their_analysed_matches(played, django_assert_num_queries):
    tournament, _ = drawn(2, players=[player("dave"), player("erin")], organiser=played.organiser)
    first = analysed(played)
    second = second_match(played)
    for match_id in (played.match.pk, second.pk):
        EventMatch.objects.create(match_id=match_id, tournament=tournament)
    with django_assert_num_queries(3):  # the event, the analyses, the players' names
        ranking = client_for().get(f"/api/v1/tournaments/{tournament.pk}/analysis/").json()
    alice_lost = first.equity_lost0 + second.equity_lost0
    alice_unforced = first.unforced0 + second.unforced0
    rows = {row["name"]: row for row in ranking}
    assert (rows["Alice"]["matches"], rows["Bob"]["matches"], rows["Carol"]["matches"]) == (2, 1, 1)
    assert rows["Alice"]["pr"] == round(500 * alice_lost / alice_unforced, 2)
    assert [row["rank"] for row in ranking] == [1, 2, 3]
    assert [row["pr"] for row in ranking] == sorted(row["pr"] for row in ranking)
    assert client_for().get(f"/api/v1/tournaments/{tournament.pk + 1000}/analysis/").status_code == 404


def test_a_side_without_an_unforced_decision_shows_no_rating_nor_pr_point(played):
    row = analysed(played)
    MatchAnalysis.objects.filter(pk=row.pk).update(unforced1=0)
    result = row.result
    result["sides"][1]["unforced"] = 0
    MatchAnalysis.objects.filter(pk=row.pk).update(result=result)
    sides = client_for().get(url(played.match.pk)).json()["sides"]
    assert sides[0]["rating_text"] and sides[1]["rating_text"] == ""
    bob = played.match.side1.player_a
    assert client_for().get(f"/api/v1/players/{bob.pk}/analysis/").json() == []

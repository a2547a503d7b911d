"""Only a final score the match's games can end at is accepted: reports (API and
page), overrides, rulings and imports refuse any other with the engine's reason on the score field,
and save nothing. A full score past the length is kept and shown capped."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from django.urls import reverse

from core.errors import DomainError
from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from matches.models import Game, Match, Report
from matches.services.imports import files as import_files
from matches.services.imports.jobs import import_job_run
from matches.services.imports.names import import_job_map
from matches.services.imports.upload import import_job_create
from matches.services.logs import log_from_json
from matches.services.reporting import Claim, claim_make, match_confirm, match_override, match_report
from rulings.models import Dispute, Ruling
from rulings.services.disputes import dispute_open
from rulings.services.rulings import ruling_make
from tests.factories import UserFactory
from tests.matches.factories_api import client_for, json_games, make_cast
from tests.matches.test_report_queries import FIRST_REPORT

pytestmark = pytest.mark.django_db

SAVEPOINT = 2  # the service's transaction, inside the test's: SAVEPOINT and RELEASE SAVEPOINT


def url(match: Match, action: str) -> str:
    return f"/api/v1/matches/{match.pk}/{action}/"


def assert_nothing_saved(match: Match) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.score0 is None and match.full_score is None
    assert not Report.objects.filter(match=match).exists() and not Game.objects.filter(match=match).exists()


@pytest.fixture
def three():
    return make_cast(length=3)


# --- reports through the API ------------------------------------------------------------------


@pytest.mark.parametrize("score", [[11, 0], [1000, 0], [0, 11]])
def test_a_three_point_match_refuses_a_score_no_last_game_reaches(three, score, django_assert_num_queries):
    alice = client_for(three.alice)
    # auth, the lock with the reports seen (one query); nothing written: the refusal rolls the
    # savepoint back (SAVEPOINT, ROLLBACK TO SAVEPOINT, RELEASE SAVEPOINT).
    with django_assert_num_queries(2 + 3):
        response = alice.post(url(three.match, "report"), {"score": score}, format="json")
    assert response.status_code == 400
    points = max(score)
    expected = (f"no last game can take a score below 3 to {points}: a game adds 1, 2 or 3 times the cube "
                "(1, 2, 4, 8 and so on)")
    assert response.data == {"detail": expected, "code": "bad_score", "errors": {"score": [expected]},
                             "field": "score", "side": score.index(points), "reason": "unreachable"}
    assert_nothing_saved(three.match)


@pytest.mark.parametrize("score", [(3, 0), (3, 2), (1, 3)])
def test_a_three_point_match_takes_a_capped_score(three, score):
    response = client_for(three.alice).post(url(three.match, "report"), {"score": list(score)}, format="json")
    assert response.status_code == 200, response.data
    report = Report.objects.get(match=three.match)
    assert (report.score, report.full_score, report.winner) == (score, None, 0 if score[0] == 3 else 1)
    assert client_for(three.bob).post(url(three.match, "confirm"), {}, format="json").status_code == 200
    three.match.refresh_from_db()
    assert ((three.match.score0, three.match.score1), three.match.full_score) == (score, None)


def test_four_nil_in_a_three_point_match_is_kept_in_full_and_shown_capped(three, django_assert_num_queries):
    alice = client_for(three.alice)
    # A gammon from 2-0: the same queries as any first report (test_report_queries.FIRST_REPORT).
    with django_assert_num_queries(FIRST_REPORT):
        response = alice.post(url(three.match, "report"), {"score": [4, 0]}, format="json")
    assert response.status_code == 200, response.data
    report = Report.objects.get(match=three.match)
    assert (report.score, report.full_score, report.winner) == ((3, 0), (4, 0), 0)
    # The other side confirms the result as shown: the capped score.
    confirmed = client_for(three.bob).post(url(three.match, "confirm"), {}, format="json")
    assert confirmed.status_code == 200 and confirmed.data["score"] == [3, 0]
    three.match.refresh_from_db()
    assert (three.match.score0, three.match.score1, three.match.full_score) == (3, 0, (4, 0))
    assert client_for().get(f"/api/v1/matches/{three.match.pk}/").data["score"] == [3, 0]


def test_a_capped_report_and_a_full_one_of_the_same_result_agree(three):
    client_for(three.alice).post(url(three.match, "report"), {"score": [5, 1]}, format="json")
    response = client_for(three.bob).post(url(three.match, "report"), {"score": [3, 1]}, format="json")
    assert response.status_code == 200, response.data
    three.match.refresh_from_db()
    assert three.match.status == Match.Status.CONFIRMED
    assert (three.match.score0, three.match.score1, three.match.full_score) == (3, 1, (5, 1))


def test_a_score_only_the_cube_could_reach_in_the_crawford_game_is_refused_with_why():
    cast = make_cast(length=2)  # 5-0: only from 1-0, the Crawford game, with cube 4
    response = client_for(cast.alice).post(url(cast.match, "report"), {"score": [5, 0]}, format="json")
    assert response.status_code == 400 and response.data["reason"] == "crawford_game"
    assert "from 1-0" in response.data["errors"]["score"][0]
    assert "Crawford game" in response.data["errors"]["score"][0]
    assert_nothing_saved(cast.match)


def test_the_loser_may_not_end_below_his_penalty_points():
    cast = make_cast(length=5, penalty1=2)
    response = client_for(cast.alice).post(url(cast.match, "report"), {"score": [5, 1]}, format="json")
    assert response.status_code == 400 and response.data["reason"] == "below_start"
    # The side named by its player, never "side 1".
    bob = cast.match.side1.name
    assert response.data["detail"] == f"{bob} starts this match with 2 penalty points: 5-1 cannot be its final score"
    assert client_for(cast.alice).post(url(cast.match, "report"), {"score": [5, 2]},
                                       format="json").status_code == 200


def test_a_capped_claim_with_game_logs_keeps_the_logs_full_score():
    cast = make_cast(length=5)
    games = json_games(5, seed=3)  # one game: a gammon at cube 4, 8-0
    response = client_for(cast.alice).post(url(cast.match, "report"), {"score": [5, 0], "games": games},
                                           format="json")
    assert response.status_code == 200, response.data
    assert Report.objects.get(match=cast.match).full_score == (8, 0)
    # A full score the logs do not give is refused.
    response = client_for(cast.alice).post(url(cast.match, "report"), {"score": [6, 0], "games": games},
                                           format="json")
    assert response.status_code == 400 and response.data["code"] == "log_disagrees"


def test_a_money_session_takes_any_totals():
    cast = make_cast(length=0, crawford=False)
    response = client_for(cast.alice).post(url(cast.match, "report"), {"score": [7, 3]}, format="json")
    assert response.status_code == 200, response.data
    report = Report.objects.get(match=cast.match)
    assert (report.score, report.full_score, report.winner) == ((7, 3), None, None)


# --- overrides ----------------------------------------------------------------------------------


def test_an_override_of_a_five_point_match_with_a_cube_cap_refuses_ninety_nine_nil():
    cast = make_cast(length=5, cube_cap=16)
    response = client_for(cast.organiser).post(url(cast.match, "override"), {"score": [99, 0]}, format="json")
    assert response.status_code == 400 and response.data["reason"] == "unreachable"
    assert response.data["errors"]["score"] == [
        "no last game can take a score below 5 to 99: a game adds 1, 2 or 3 times the cube, and the cube may not "
        "pass 16"]
    assert_nothing_saved(cast.match)
    # A Claim built by hand (not by claim_make) is checked by the service as well.
    with pytest.raises(DomainError) as refused:
        match_override(match_id=cast.match.pk, user=cast.organiser, claim=Claim((99, 0)))
    assert refused.value.code == "bad_score" and refused.value.details["field"] == "score"
    assert_nothing_saved(cast.match)


def test_without_a_cube_cap_ninety_nine_nil_ends_a_five_point_match_but_a_hundred_and_one_does_not():
    # RULES.md §5: the cube has no upper limit by rule. 99-0 is 3-0, then a backgammon at cube 32;
    # 101-0 would need 101, 100, 99, 98 or 97 points from one game, none a cube times 1, 2 or 3.
    cast = make_cast(length=5)
    response = client_for(cast.organiser).post(url(cast.match, "override"), {"score": [101, 0]}, format="json")
    assert response.status_code == 400 and response.data["reason"] == "unreachable"
    assert response.data["detail"].startswith("no last game can take a score below 5 to 101")
    assert_nothing_saved(cast.match)
    response = client_for(cast.organiser).post(url(cast.match, "override"), {"score": [99, 0]}, format="json")
    assert response.status_code == 200 and response.data["score"] == [5, 0]
    cast.match.refresh_from_db()
    assert cast.match.full_score == (99, 0)


def test_an_override_with_a_full_score_stores_it_capped():
    cast = make_cast(length=5)
    report = match_override(match_id=cast.match.pk, user=cast.organiser, claim=Claim((8, 3)))
    assert (report.score, report.full_score) == ((5, 3), (8, 3))
    cast.match.refresh_from_db()
    assert (cast.match.score0, cast.match.score1, cast.match.full_score, cast.match.winner) == (5, 3, (8, 3), 0)


# --- the page's report form ---------------------------------------------------------------------


def field_errors(response, name: str) -> str:
    """The errors shown beside the input ``name`` (the form's field as the template draws it)."""
    html = response.content.decode()
    found = re.search(rf'name="{name}"[^>]*>\s*(<ul class="errorlist"[^>]*>.*?</ul>)', html, flags=re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).replace("&#x27;", "'") if found else ""


@pytest.mark.parametrize(("score0", "score1", "field"), [("11", "0", "report-score0"), ("0", "1000", "report-score1")])
def test_the_report_form_shows_the_reason_on_the_score_field(client, three, score0, score1, field):
    client.force_login(three.alice)
    response = client.post(reverse("matches:report", args=[three.match.pk]),
                           {"report-score0": score0, "report-score1": score1})
    assert response.status_code == 400
    points = max(int(score0), int(score1))
    assert f"no last game can take a score below 3 to {points}" in field_errors(response, field)
    assert_nothing_saved(three.match)


def test_the_report_form_takes_a_full_score_and_the_page_shows_it_capped(client, three):
    client.force_login(three.alice)
    response = client.post(reverse("matches:report", args=[three.match.pk]),
                           {"report-score0": "4", "report-score1": "0"})
    assert response.status_code == 302
    assert Report.objects.get(match=three.match).full_score == (4, 0)
    client.force_login(three.bob)
    assert client.post(reverse("matches:confirm", args=[three.match.pk])).status_code == 302
    page = client.get(reverse("matches:detail", args=[three.match.pk])).content.decode()
    assert re.search(r"(?<![\d-])3-0(?![\d-])", page) and not re.search(r"(?<![\d-])4-0(?![\d-])", page)


def test_the_override_form_refuses_ninety_nine_nil_on_the_field(client):
    cast = make_cast(length=5, cube_cap=16)
    client.force_login(cast.organiser)
    response = client.post(reverse("matches:override", args=[cast.match.pk]),
                           {"override-score0": "99", "override-score1": "0"})
    assert response.status_code == 400
    assert "no last game can take a score below 5 to 99" in field_errors(response, "override-score0")
    assert_nothing_saved(cast.match)


# --- rulings ----------------------------------------------------------------------------------


def test_a_ruling_that_corrects_the_score_to_an_unreachable_one_is_refused():
    cast = make_cast(length=5)
    match_report(match_id=cast.match.pk, user=cast.alice, claim=claim_make(cast.match, (5, 3), None))
    match_confirm(match_id=cast.match.pk, user=cast.bob)
    dispute = dispute_open(match_id=cast.match.pk, user=cast.bob, category=Dispute.Category.SCORE_DISAGREEMENT,
                           statement="That is not the score.")
    with pytest.raises(DomainError) as refused:
        ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.SCORE_CORRECTED,
                    params={"score": [101, 3]}, rule="RULES.md §9", reasoning="typo")
    assert refused.value.details["field"] == "score"
    assert refused.value.message.startswith("Score: no last game can take a score below 5 to 101")  # led by its label
    assert refused.value.sentence.startswith("no last game can take a score below 5 to 101")
    cast.match.refresh_from_db()
    assert (cast.match.score0, cast.match.score1) == (5, 3) and not Ruling.objects.exists()
    # A reachable full score is taken, and kept beside the capped result.
    ruling_make(dispute_id=dispute.pk, user=cast.organiser, outcome=Ruling.Outcome.SCORE_CORRECTED,
                params={"score": [3, 7]}, rule="RULES.md §9", reasoning="a gammon at cube 2 from 3-3")
    cast.match.refresh_from_db()
    assert (cast.match.score0, cast.match.score1, cast.match.full_score, cast.match.winner) == (3, 5, (3, 7), 1)


# --- imports ----------------------------------------------------------------------------------


def mat_file(length: int, seed: int) -> bytes:
    games = random_match_games(random.Random(seed), length)
    return write_mat(match_from_actions(("Ann", "Ben"), MatchRules(length), games)).encode()


def test_an_imported_match_is_stored_capped_with_its_full_score():
    owner = UserFactory(username="importer", organiser=True)
    data = mat_file(5, seed=3)  # one game: a gammon at cube 4, 8-0
    job = import_job_run(job_id=import_job_create(owner=owner, files=[("m.mat", data)], dispatch=False).pk)
    import_job_map(job_id=job.pk, user=owner, mapping={"Ann": "guest", "Ben": "guest"}, dispatch=False)
    import_job_run(job_id=job.pk)
    match = Match.objects.get(pk=job.files.get().match_id)
    assert (match.score0, match.score1, match.full_score, match.winner) == (5, 0, (8, 0), 0)
    assert log_from_json(match.reports.get().games, match.rules()).final_score == (8, 0)


def test_a_match_file_whose_final_score_cannot_end_the_match_is_refused_naming_the_match(monkeypatch):
    # The engine replays a file's games, so its final score always follows from them; the check
    # guards what is stored all the same. Here the replay is made to claim 11-0 in a 3-point match.
    real = import_files.check_mat
    monkeypatch.setattr(import_files, "check_mat", lambda mat: replace(real(mat), final_score=(11, 0)))
    owner = UserFactory(username="importer", organiser=True)
    job = import_job_run(job_id=import_job_create(owner=owner, files=[("odd.mat", mat_file(3, seed=0))],
                                                  dispatch=False).pk)
    file = job.files.get()
    assert file.status == "failed" and file.match is None
    assert file.error["message"] == ("the match Ann v Ben cannot end at 11-0: no last game can take a score below 3 "
                                     "to 11: a game adds 1, 2 or 3 times the cube (1, 2, 4, 8 and so on)")
    assert file.error["game"] is not None
    assert not Match.objects.exists()

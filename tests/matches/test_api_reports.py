"""POST /api/v1/matches/{id}/report/, /confirm/, /contest/ and /override/.

A side reports (JSON score with optional game logs, or a multipart form with a .mat file), the
other confirms or contests, the organiser overrides. Every bad request leaves the database as
it was: no report, no game, the match's status and score unchanged. A repeated identical report
is answered before anything is read or replayed.
"""

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.defaultfilters import filesizeformat

from engine.actions import action_to_dict
from engine.randomgame import random_match_games
from matches.models import Game, Match, Report
from matches.services.logs import log_from_json
from tests.factories import MatchFactory, SideFactory, TournamentFactory, api_token
from tests.matches.factories_api import client_for, json_games, make_cast, mat_text

pytestmark = pytest.mark.django_db

# Seeded random matches (the engine builds them, so they replay cleanly):
FIVE_POINTS_ONE_GAME = 3     # 5 points, seed 3: one game, side 0 wins a doubled gammon, 8-0
FIVE_POINTS_SEVEN_GAMES = 1  # 5 points, seed 1: seven games, side 1 wins 7-4
THREE_POINTS_CRAWFORD = 0    # 3 points, seed 0: two games, the second is the Crawford game, 3-0


def url(match, action: str) -> str:
    return f"/api/v1/matches/{match.pk}/{action}/"


def upload(text: str | bytes, name: str = "match.mat") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text, content_type="text/plain")


def assert_nothing_saved(match: Match, status: str = Match.Status.SCHEDULED) -> None:
    match.refresh_from_db()
    assert match.status == status and match.score0 is None and match.winner is None
    assert not Report.objects.filter(match=match).exists()
    assert not Game.objects.filter(match=match).exists()


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def match(cast):
    return cast.match


def report(user, match, body, **kwargs):
    return client_for(user, **kwargs).post(url(match, "report"), body, format="json")


# --- report -------------------------------------------------------------------------------------


def test_a_side_reports_and_the_match_waits_for_the_other(cast, match):
    response = report(cast.alice, match, {"score": [5, 3], "statement": "close one"})
    assert response.status_code == 200, response.data
    assert response.data["id"] == match.pk and response.data["status"] == "reported"
    assert response.data["score"] is None  # not confirmed yet
    [live] = response.data["reports"]
    assert live["side"] == 0 and live["score"] == [5, 3] and live["status"] == "pending"
    assert live["statement"] == "close one" and live["with_games"] is False
    assert "reporter" not in live and cast.alice.email not in response.content.decode()


def test_matching_reports_of_both_sides_confirm_the_result(cast, match):
    report(cast.alice, match, {"score": [3, 5]})
    response = report(cast.bob, match, {"score": [3, 5]}, auth="session")
    assert response.status_code == 200
    assert (response.data["status"], response.data["score"], response.data["winner"]) == ("confirmed", [3, 5], 1)
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1, match.winner) == (Match.Status.CONFIRMED, 3, 5, 1)


def test_a_repeated_identical_report_returns_200_and_changes_nothing(cast, match):
    first = report(cast.alice, match, {"score": [5, 3]})
    before = Report.objects.get(match=match)
    updated_at = Match.objects.get(pk=match.pk).updated_at
    again = report(cast.alice, match, {"score": [5, 3]})
    assert again.status_code == 200 and again.data["reports"] == first.data["reports"]
    after = Report.objects.get(match=match)
    assert (after.pk, after.status) == (before.pk, before.status)
    assert Match.objects.get(pk=match.pk).updated_at == updated_at


def test_a_repeated_report_after_confirmation_returns_200_and_changes_nothing(cast, match):
    report(cast.alice, match, {"score": [5, 3]})
    report(cast.bob, match, {"score": [5, 3]})
    reports = list(Report.objects.filter(match=match).values_list("pk", "status"))
    response = report(cast.bob, match, {"score": [5, 3]})
    assert response.status_code == 200 and response.data["status"] == "confirmed"
    assert list(Report.objects.filter(match=match).values_list("pk", "status")) == reports


def test_a_repeated_report_with_its_logs_is_not_replayed_again(api_client, monkeypatch):
    match = MatchFactory(length=3)
    alice = match.side0.player_a.user
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    games = [[action_to_dict(a) for a in game] for game in random_match_games(random.Random(5), 3)]
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
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    api_client.post(f"/api/v1/matches/{match.pk}/report/", {"score": [5, 3]}, format="json")
    changed = api_client.post(f"/api/v1/matches/{match.pk}/report/", {"score": [5, 4]}, format="json")
    assert changed.status_code == 200
    assert match.reports.exclude(status=Report.Status.SUPERSEDED).get().score == (5, 4)


def test_a_different_report_after_confirmation_is_a_409(cast, match):
    report(cast.alice, match, {"score": [5, 3]})
    report(cast.bob, match, {"score": [5, 3]})
    response = report(cast.bob, match, {"score": [3, 5]})
    assert response.status_code == 409 and response.data["code"] == "already_confirmed"
    match.refresh_from_db()
    assert (match.score0, match.score1, match.winner) == (5, 3, 0)
    assert Report.objects.filter(match=match).count() == 2


def test_reports_that_disagree_dispute_the_match(cast, match):
    report(cast.alice, match, {"score": [5, 3]})
    response = report(cast.bob, match, {"score": [4, 5]})
    assert response.status_code == 200 and response.data["status"] == "disputed"
    assert {r["status"] for r in response.data["reports"]} == {"contested"}


@pytest.mark.parametrize(("role", "expected", "status"), [
    ("alice", 200, "reported"),
    ("bob", 200, "reported"),
    ("carol", 403, "scheduled"),
    ("organiser", 200, "confirmed"),  # the organiser's report is an override
    ("other_organiser", 403, "scheduled"),
    ("staff", 200, "confirmed"),
    ("anonymous", 401, "scheduled"),
])
def test_who_may_report(cast, match, role, expected, status):
    response = report(cast.user(role), match, {"score": [5, 1]})
    assert response.status_code == expected, response.data
    match.refresh_from_db()
    assert match.status == status
    if expected != 200:
        assert set(response.data) == {"detail", "code"}
        assert_nothing_saved(match)


def test_a_report_with_game_logs_stores_the_games_once_confirmed(cast, match):
    games = json_games(5, seed=FIVE_POINTS_SEVEN_GAMES)
    response = report(cast.alice, match, {"score": [4, 7], "games": games})
    assert response.status_code == 200, response.data
    assert response.data["reports"][0]["with_games"] is True
    assert not Game.objects.filter(match=match).exists()  # only a confirmed result has games
    confirmed = client_for(cast.bob).post(url(match, "confirm"), {}, format="json")
    assert confirmed.status_code == 200
    assert [g["number"] for g in confirmed.data["games"]] == [1, 2, 3, 4, 5, 6, 7]
    assert [g["score_before"] for g in confirmed.data["games"]][:2] == [[0, 0], [0, 1]]
    assert [g["crawford"] for g in confirmed.data["games"]] == [False, False, False, False, True, False, False]
    assert list(Game.objects.filter(match=match).order_by("number").values_list("log", flat=True)) == games


def test_a_side_reports_with_a_mat_file(cast, match):
    text, score, count = mat_text(5, seed=FIVE_POINTS_SEVEN_GAMES)
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": score[0], "score1": score[1], "file": upload(text), "statement": "from gnubg"},
        format="multipart")
    assert response.status_code == 200, response.data
    stored = Report.objects.get(match=match)
    # The file's full score (a gammon at cube 2 from 4-3) is kept; the result is shown capped.
    assert stored.score == (4, 5) and stored.full_score == (4, 7)
    assert len(stored.games) == count and stored.statement == "from gnubg"
    client_for(cast.bob).post(url(match, "confirm"), format="json")
    assert Game.objects.filter(match=match).count() == count
    match.refresh_from_db()
    assert (match.score0, match.score1, match.full_score) == (4, 5, (4, 7))


# --- bad reports: 400, nothing saved -------------------------------------------------------------


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"score": [5, 3], "colour": "white"}, "colour", "unknown field"),
    ({"score": [5, 3], "status": "confirmed"}, "status", "this field is read-only"),
    ({"score": [5, 3], "winner": 0}, "winner", "this field is read-only"),
    ({}, "score", "This field is required."),
    ({"score": [5]}, "score", "a score is two whole numbers from 0 to 9999, side 0's first, such as [5, 3]"),
    ({"score": ["5", 3]}, "score", "a score is two whole numbers from 0 to 9999, side 0's first, such as [5, 3]"),
    ({"score": [-1, 5]}, "score", "a score is two whole numbers from 0 to 9999, side 0's first, such as [5, 3]"),
    # Past the score columns (2**31) and past any score (MAX_SCORE): a 400, not a database error.
    ({"score": [2**31, 0]}, "score", "a score is two whole numbers from 0 to 9999, side 0's first, such as [5, 3]"),
    ({"score": [5, 10_000]}, "score", "a score is two whole numbers from 0 to 9999, side 0's first, such as [5, 3]"),
    ({"score": [5, 3], "statement": 5 * "x" * 1000}, "statement", "Ensure this field has no more than 2000 characters."),
])
def test_a_malformed_report_is_a_400_naming_the_field(cast, match, body, field, message):
    response = report(cast.alice, match, body)
    assert response.status_code == 400
    label = field.capitalize() if field in ("score", "statement") else f"“{field}”"  # a key no field has: as sent
    assert response.data["errors"] == {field: [message]} and response.data["detail"] == f"{label}: {message}"
    assert_nothing_saved(match)


@pytest.mark.parametrize(("score", "reason"), [
    ([5, 5], "both sides have 5 points or more"), ([3, 4], "neither side has reached 5 points"),
    ([0, 0], "neither side has reached 5 points"),
])
def test_a_score_that_cannot_end_the_match_is_a_400(cast, match, score, reason):
    response = report(cast.alice, match, {"score": score})
    assert response.status_code == 400 and response.data["code"] == "bad_score"
    assert reason in response.data["detail"] and response.data["errors"] == {"score": [response.data["detail"]]}
    assert_nothing_saved(match)


def test_a_body_that_is_not_an_object_is_a_400(cast, match):
    response = report(cast.alice, match, [5, 3])
    assert response.status_code == 400 and response.data["code"] == "invalid"
    assert_nothing_saved(match)


def test_games_that_are_not_lists_of_actions_are_a_400(cast, match):
    response = report(cast.alice, match, {"score": [5, 3], "games": {"1": []}})
    assert response.status_code == 400 and response.data["code"] == "bad_action"
    bad_action = report(cast.alice, match, {"score": [5, 3], "games": [[{"type": "roll", "side": 0, "dice": [7, 1]}]]})
    assert bad_action.status_code == 400 and bad_action.data["code"] == "bad_action"
    assert bad_action.data["game"] == 1 and bad_action.data["action_index"] == 1
    assert "'dice' must be two integers 1..6" in bad_action.data["detail"]
    assert_nothing_saved(match)


def test_a_log_with_an_illegal_play_is_a_400_naming_game_move_side_and_rule(cast, match):
    games = json_games(5, seed=FIVE_POINTS_SEVEN_GAMES)
    # Game 2's first play: the roll stands, the checker play cannot be made with it.
    first_move = next(i for i, a in enumerate(games[1]) if a["type"] == "move")
    games[1][first_move] = {**games[1][first_move], "play": "24/1"}
    side = games[1][first_move]["side"]
    response = report(cast.alice, match, {"score": [4, 7], "games": games})
    assert response.status_code == 400
    data = response.data
    assert data["code"] == "invalid_game_log"
    assert (data["game"], data["move"], data["side"], data["rule"]) == (2, 1, side, "wrong_steps")
    assert data["action"] == "play 24/1" and data["detail"].startswith(f"game 2, move 1, side {side}: play 24/1")
    assert_nothing_saved(match)


def test_a_log_that_disagrees_with_the_score_is_a_400(cast, match):
    games = json_games(5, seed=FIVE_POINTS_SEVEN_GAMES)
    response = report(cast.alice, match, {"score": [5, 3], "games": games})
    assert response.status_code == 400 and response.data["code"] == "log_disagrees"
    assert response.data["detail"] == "the game logs give 4-7, not the claimed 5-3" and response.data["game"] == 7
    assert_nothing_saved(match)


def test_a_double_in_the_crawford_game_is_a_400():
    cast = make_cast(length=3)
    games = json_games(3, seed=THREE_POINTS_CRAWFORD)
    crawford = games[1]
    # Before the second roll of the Crawford game, the side about to roll doubles (and is taken).
    second_roll = [i for i, a in enumerate(crawford) if a["type"] == "roll"][1]
    side = crawford[second_roll]["side"]
    crawford[second_roll:second_roll] = [{"type": "double", "side": side, "value": 2}, {"type": "take", "side": 1 - side}]
    response = report(cast.alice, cast.match, {"score": [3, 0], "games": games})
    assert response.status_code == 400
    assert (response.data["game"], response.data["side"], response.data["rule"]) == (2, side, "crawford")
    assert "no doubling in the Crawford game" in response.data["detail"]
    assert_nothing_saved(cast.match)


@pytest.mark.parametrize(("score0", "message"), [(2**31, "Ensure this value is less than or equal to 9999."),
                                                 (-1, "Ensure this value is greater than or equal to 0.")])
def test_a_score_out_of_bounds_with_a_mat_file_is_a_400_naming_the_field(cast, match, score0, message):
    text, _, _ = mat_text(5, seed=3)
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": score0, "score1": 0, "file": upload(text)}, format="multipart")
    assert response.status_code == 400
    assert response.data["errors"] == {"score0": [message]}
    assert_nothing_saved(match)


def test_a_malformed_mat_file_is_a_400_naming_the_line_and_file(cast, match):
    text = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 7x: 13/7\n"
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": 5, "score1": 0, "file": upload(text, "broken.mat")}, format="multipart")
    assert response.status_code == 400
    assert response.data["code"] == "mat_parse_error"
    assert response.data["line"] == 5 and response.data["file"] == "broken.mat"
    assert response.data["detail"].startswith("game 1, line 5: ") and response.data["game"] == 1
    assert_nothing_saved(match)


def test_a_mat_file_with_an_illegal_play_names_its_line(cast, match):
    text, _, _ = mat_text(5, seed=FIVE_POINTS_ONE_GAME)
    text = text.replace("  1) 23: 13/11 6/3", "  1) 23: 13/10 6/3", 1)
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": 8, "score1": 0, "file": upload(text)}, format="multipart")
    assert response.status_code == 400, response.data
    assert response.data["code"] == "invalid_game_log" and response.data["file"] == "match.mat"
    assert (response.data["line"], response.data["game"], response.data["move"], response.data["side"]) == (7, 1, 1, 0)
    assert_nothing_saved(match)


def test_a_mat_file_of_another_length_is_a_400(cast, match):
    text, _, _ = mat_text(3, seed=THREE_POINTS_CRAWFORD)
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": 5, "score1": 0, "file": upload(text, "three.mat")}, format="multipart")
    assert response.status_code == 400 and response.data["code"] == "log_disagrees"
    assert response.data["file"] == "three.mat" and "3-point match" in response.data["detail"]
    assert_nothing_saved(match)


def test_a_mat_upload_refuses_unknown_and_read_only_fields(cast, match):
    text, _, _ = mat_text(5, seed=FIVE_POINTS_ONE_GAME)
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": 8, "score1": 0, "winner": 0, "file": upload(text)}, format="multipart")
    assert response.status_code == 400 and response.data["errors"] == {"winner": ["this field is read-only"]}
    missing = client_for(cast.alice).post(url(match, "report"), {"score0": 8, "score1": 0}, format="multipart")
    assert missing.status_code == 400 and list(missing.data["errors"]) == ["file"]
    assert_nothing_saved(match)


def test_an_oversized_upload_is_refused_with_the_file_name(cast, match, settings):
    size = settings.MAX_UPLOAD_BYTES + 1
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": 5, "score1": 0, "file": upload(b";" * size, "huge.mat")}, format="multipart")
    assert response.status_code in (400, 413)
    assert response.data["code"] == "upload_too_large" and response.data["file"] == "huge.mat"
    # One byte past 2 MB reads as 2.0 MB: the refusal says it is larger than the limit.
    assert response.data["detail"] == f"huge.mat is larger than the limit of {filesizeformat(settings.MAX_UPLOAD_BYTES)}"
    assert_nothing_saved(match)


def test_more_actions_than_the_limit_are_refused(cast, match, settings):
    roll = {"type": "roll", "side": 0, "dice": [3, 1]}
    games = [[roll] * 5_000, [roll] * (settings.MAX_LOG_ACTIONS - 5_000 + 1)]
    response = report(cast.alice, match, {"score": [5, 0], "games": games})
    assert response.status_code == 400 and response.data["code"] == "log_too_large"
    assert response.data["detail"] == f"the game logs hold {settings.MAX_LOG_ACTIONS + 1} actions; the limit is 10000"
    assert_nothing_saved(match)


def test_a_mat_file_with_more_actions_than_the_limit_is_refused(cast, match, settings):
    text, score, _ = mat_text(5, seed=FIVE_POINTS_SEVEN_GAMES)
    settings.MAX_LOG_ACTIONS = 50
    response = client_for(cast.alice).post(
        url(match, "report"), {"score0": score[0], "score1": score[1], "file": upload(text)}, format="multipart")
    assert response.status_code == 400 and response.data["code"] == "log_too_large"
    assert_nothing_saved(match)


def test_a_json_body_over_the_request_limit_is_refused(cast, match, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = report(cast.alice, match, {"score": [5, 3], "statement": "x" * 1500})
    assert response.status_code == 413 and response.data["code"] == "body_too_large"
    assert response.data["detail"] == "the request body is over the limit of 1000\xa0bytes"
    assert_nothing_saved(match)


def test_a_form_encoded_body_is_a_415(cast, match):
    response = client_for(cast.alice).post(url(match, "report"), "score0=5&score1=3",
                                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.data["code"] == "unsupported_media_type"
    assert_nothing_saved(match)


# --- confirm and contest -------------------------------------------------------------------------


def test_the_other_side_confirms_a_report(cast, match):
    report(cast.alice, match, {"score": [5, 2]})
    response = client_for(cast.bob, auth="session").post(url(match, "confirm"))
    assert response.status_code == 200
    assert (response.data["status"], response.data["score"], response.data["winner"]) == ("confirmed", [5, 2], 0)
    again = client_for(cast.bob).post(url(match, "confirm"))
    assert again.status_code == 200 and again.data["reports"] == response.data["reports"]


@pytest.mark.parametrize(("role", "expected", "code"), [
    ("alice", 409, "nothing_to_confirm"),  # her own report is not hers to confirm
    ("carol", 403, "not_a_party"),
    ("organiser", 403, "not_a_party"),
    ("other_organiser", 403, "not_a_party"),
    ("staff", 403, "not_a_party"),
    ("anonymous", 401, "not_authenticated"),
])
def test_only_the_other_side_confirms(cast, match, role, expected, code):
    report(cast.alice, match, {"score": [5, 2]})
    response = client_for(cast.user(role)).post(url(match, "confirm"))
    assert response.status_code == expected and response.data["code"] == code
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert Report.objects.get(match=match).status == Report.Status.PENDING


def test_confirming_with_nothing_reported_is_a_409(cast, match):
    response = client_for(cast.bob).post(url(match, "confirm"))
    assert response.status_code == 409 and response.data["code"] == "nothing_to_confirm"
    assert_nothing_saved(match)


def test_a_confirmation_refuses_a_body(cast, match):
    report(cast.alice, match, {"score": [5, 2]})
    response = client_for(cast.bob).post(url(match, "confirm"), {"score": [2, 5]}, format="json")
    assert response.status_code == 400 and response.data["errors"] == {"score": ["this field is read-only"]}
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED


def test_the_other_side_contests_a_report(cast, match):
    report(cast.alice, match, {"score": [5, 2]})
    response = client_for(cast.bob).post(url(match, "contest"), {"statement": "I won game 4"}, format="json")
    assert response.status_code == 200 and response.data["status"] == "disputed"
    [live] = response.data["reports"]
    assert live["status"] == "contested" and live["contest_statement"] == "I won game 4"
    assert "Contested" not in live["statement"]
    again = client_for(cast.bob).post(url(match, "contest"), {"statement": "I won game 4"}, format="json")
    assert again.status_code == 200 and again.data["reports"] == response.data["reports"]


@pytest.mark.parametrize(("role", "expected"), [
    ("alice", 409), ("carol", 403), ("organiser", 403), ("other_organiser", 403), ("staff", 403), ("anonymous", 401),
])
def test_only_the_other_side_contests(cast, match, role, expected):
    report(cast.alice, match, {"score": [5, 2]})
    response = client_for(cast.user(role)).post(url(match, "contest"), {"statement": "no"}, format="json")
    assert response.status_code == expected
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED
    assert Report.objects.get(match=match).statement == ""


def test_contesting_a_confirmed_result_is_a_409(cast, match):
    report(cast.alice, match, {"score": [5, 2]})
    client_for(cast.bob).post(url(match, "confirm"))
    response = client_for(cast.bob).post(url(match, "contest"), {"statement": "changed my mind"}, format="json")
    assert response.status_code == 409 and response.data["code"] == "already_confirmed"
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED


def test_contesting_with_nothing_reported_is_a_409(cast, match):
    response = client_for(cast.bob).post(url(match, "contest"), {}, format="json")
    assert response.status_code == 409 and response.data["code"] == "nothing_to_confirm"
    assert_nothing_saved(match)


def test_a_contest_refuses_unknown_fields(cast, match):
    report(cast.alice, match, {"score": [5, 2]})
    response = client_for(cast.bob).post(url(match, "contest"), {"reason": "no"}, format="json")
    assert response.status_code == 400 and response.data["errors"] == {"reason": ["unknown field"]}
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED


# --- override ------------------------------------------------------------------------------------


def dispute(cast, match) -> None:
    report(cast.alice, match, {"score": [5, 3]})
    report(cast.bob, match, {"score": [3, 5]})


@pytest.mark.parametrize(("role", "expected"), [
    ("organiser", 200), ("staff", 200), ("other_organiser", 403), ("alice", 403), ("bob", 403), ("carol", 403),
    ("anonymous", 401),
])
def test_who_may_override_a_disputed_result(cast, match, role, expected):
    dispute(cast, match)
    response = client_for(cast.user(role)).post(url(match, "override"), {"score": [5, 4], "statement": "ruling"},
                                                 format="json")
    assert response.status_code == expected
    match.refresh_from_db()
    if expected == 200:
        assert (match.status, match.score0, match.score1, match.winner) == (Match.Status.CONFIRMED, 5, 4, 0)
        [live] = response.data["reports"]
        assert live["side"] is None and live["status"] == "confirmed" and live["statement"] == "ruling"
    else:
        assert match.status == Match.Status.DISPUTED and match.score0 is None
        assert Report.objects.filter(match=match).count() == 2


def test_the_events_organiser_overrides_a_match_of_his_event(cast):
    event = TournamentFactory(organiser=cast.other_organiser)
    match = MatchFactory(side0=cast.match.side0, side1=cast.match.side1, event=event, organiser=cast.organiser)
    response = client_for(cast.other_organiser).post(url(match, "override"), {"score": [1, 5]}, format="json")
    assert response.status_code == 200 and response.data["winner"] == 1


def test_a_player_who_created_his_own_match_cannot_override_it(cast):
    carol_side = SideFactory(player_a=cast.carol.player)
    created = client_for(cast.carol).post(
        "/api/v1/matches/", {"side0": [cast.carol.player.pk], "side1": [cast.bob.player.pk], "length": 5}, format="json")
    match = Match.objects.get(pk=created.data["id"])
    assert match.side0 == carol_side and match.organiser is None  # a player's own match has no director
    response = client_for(cast.carol).post(url(match, "override"), {"score": [5, 0]}, format="json")
    assert response.status_code == 403 and response.data["code"] == "not_organiser"
    assert_nothing_saved(match)


def test_an_override_with_a_mat_file_stores_the_games(cast, match):
    dispute(cast, match)
    text, score, count = mat_text(5, seed=FIVE_POINTS_SEVEN_GAMES)
    response = client_for(cast.organiser, auth="session").post(
        url(match, "override"), {"score0": score[0], "score1": score[1], "file": upload(text)}, format="multipart")
    assert response.status_code == 200, response.data
    assert response.data["score"] == [4, 5] and len(response.data["games"]) == count  # capped; 4-7 in full
    assert Game.objects.filter(match=match).count() == count


def test_an_identical_override_changes_nothing(cast, match):
    client_for(cast.organiser).post(url(match, "override"), {"score": [5, 4]}, format="json")
    reports = list(Report.objects.filter(match=match).values_list("pk", "status"))
    again = client_for(cast.organiser).post(url(match, "override"), {"score": [5, 4]}, format="json")
    assert again.status_code == 200
    assert list(Report.objects.filter(match=match).values_list("pk", "status")) == reports


def test_a_bad_override_changes_nothing(cast, match):
    dispute(cast, match)
    games = json_games(5, seed=FIVE_POINTS_SEVEN_GAMES)
    response = client_for(cast.organiser).post(url(match, "override"), {"score": [7, 4], "games": games}, format="json")
    assert response.status_code == 400 and response.data["code"] == "log_disagrees"
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED and match.score0 is None
    assert set(Report.objects.filter(match=match).values_list("status", flat=True)) == {Report.Status.CONTESTED}


# --- every result endpoint: 404 and 405 ---------------------------------------------------------


@pytest.mark.parametrize("action", ["report", "confirm", "contest", "override"])
def test_an_unknown_match_is_a_404(cast, action):
    response = client_for(cast.staff).post(f"/api/v1/matches/999999/{action}/", {"score": [5, 0]}, format="json")
    assert response.status_code == 404 and response.data == {"detail": "there is no match 999999", "code": "not_found"}


@pytest.mark.parametrize("action", ["report", "confirm", "contest", "override"])
@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
def test_result_endpoints_only_take_post(cast, match, action, method):
    response = getattr(client_for(cast.alice), method)(url(match, action))
    assert response.status_code == 405 and response.data["code"] == "method_not_allowed"


def test_the_answer_to_a_report_is_kept_as_sent_and_the_detail_answers_with_it_and_its_etag(
        cast, match, django_assert_num_queries):
    from django.core.cache import cache

    answered = report(cast.alice, match, {"score": [5, 3]})
    assert answered.status_code == 200
    anonymous = client_for(None)
    with django_assert_num_queries(1):  # the version: the answer itself is the one kept
        detail = anonymous.get(f"/api/v1/matches/{match.pk}/")
    assert detail.content == answered.content
    etag = detail["ETag"]
    assert etag and detail["Cache-Control"] == "no-cache"
    again = anonymous.get(f"/api/v1/matches/{match.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    cache.clear()  # rendered anew from the database: the same bytes
    assert anonymous.get(f"/api/v1/matches/{match.pk}/").content == answered.content
    confirmed = report(cast.bob, match, {"score": [5, 3]})
    changed = anonymous.get(f"/api/v1/matches/{match.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and changed.content == confirmed.content

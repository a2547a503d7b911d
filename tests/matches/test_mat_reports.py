""".mat reports as players make them: the score reported capped at the match length, the file's
players in either order (found by name, accents and case aside, else by the reporter's word), and
a bad game refused naming its game and line with nothing saved. Through the page and the API."""

import html
import random
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from engine.formats.mat_check import match_from_actions
from engine.formats.mat_write import write_mat
from engine.match import MatchRules
from engine.randomgame import random_match_games
from engine.scores import capped_score
from matches.models import Match, Report
from matches.services.logs import fold
from tests.factories import MatchFactory
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

MAT_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "mat"
# lasse (the file's left player) beats 09197035670 5-2 in a 3-point match: the deciding game 3 is a
# backgammon from 2-2, and the file says "Wins 3 point and the match". Players report it 3-2.
CAPPED = "galaxy_3pt_match2561306.mat"


def real_file(name: str = CAPPED) -> bytes:
    return (MAT_DIR / name).read_bytes()


def upload(data: bytes, name: str = "match.mat") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/plain")


def three_point_match(name0: str, name1: str) -> Match:
    return MatchFactory(
        length=3,
        side0__player_a__display_name=name0, side0__player_a__user__username=f"u0{name0.lower()[:8]}",
        side1__player_a__display_name=name1, side1__player_a__user__username=f"u1{name1.lower()[:8]}",
    )


def user_of(match: Match, side: int):
    return match.sides[side].player_a.user


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def report_page(client, match, user, score, data: bytes, **extra):
    client.force_login(user)
    fields = {"report-score0": str(score[0]), "report-score1": str(score[1]), "report-mat_file": upload(data)}
    fields.update({f"report-{key}": str(value) for key, value in extra.items()})
    return client.post(reverse("matches:report", args=[match.pk]), fields)


def assert_nothing_saved(match: Match) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert not Report.objects.filter(match=match).exists()
    assert not match.games.exists()


def test_capped_is_the_winners_points_cut_at_the_length():
    assert capped_score(3, (5, 2)) == (3, 2)
    assert capped_score(5, (2, 7)) == (2, 5)
    assert capped_score(3, (3, 2)) == (3, 2)
    assert capped_score(0, (9, 4)) == (9, 4)  # a money session


def test_fold_drops_accents_case_and_extra_spaces():
    assert fold("Ștefan") == fold("stefan") == fold("  STEFAN ") == "stefan"
    assert fold("Jérôme  Dupré") == "jerome dupre"
    assert fold("Ana") != fold("Anna")


def test_a_capped_report_with_the_real_file_is_accepted_and_the_other_side_confirms(client):
    match = three_point_match("Lasse", "Mehdi")
    response = report_page(client, match, user_of(match, 0), (3, 2), real_file())
    assert response.status_code == 302, text_of(response)
    report = Report.objects.get(match=match)
    assert (report.score, report.status, len(report.games)) == ((3, 2), Report.Status.PENDING, 3)

    client.force_login(user_of(match, 1))
    assert client.post(reverse("matches:confirm", args=[match.pk])).status_code == 302
    match.refresh_from_db()
    assert (match.status, match.score0, match.score1, match.winner) == (Match.Status.CONFIRMED, 3, 2, 0)
    games = list(match.games.order_by("number"))
    assert [(g.winner, g.points, g.ending) for g in games][-1] == (0, 3, "backgammon")


def test_the_full_score_of_the_file_is_accepted_too_and_another_capped_score_is_not(client):
    match = three_point_match("Lasse", "Mehdi")
    response = report_page(client, match, user_of(match, 0), (3, 1), real_file())
    assert response.status_code == 400
    assert "the game logs give 5-2, not the claimed 3-1" in text_of(response)
    assert_nothing_saved(match)
    assert report_page(client, match, user_of(match, 0), (5, 2), real_file()).status_code == 302


def test_a_reversed_file_is_mapped_to_the_matchs_sides_by_name_through_the_api():
    # The file's left player, lasse, is this match's side 1.
    match = three_point_match("Mehdi", "LASSE")
    response = client_for(user_of(match, 0)).post(
        f"/api/v1/matches/{match.pk}/report/", {"score0": 2, "score1": 3, "file": upload(real_file())},
        format="multipart")
    assert response.status_code == 200, response.data
    report = Report.objects.get(match=match)
    assert report.score == (2, 3) and report.winner == 1
    # The file's first roll is its left player's (lasse, side 0 of the file): side 1 here.
    assert report.games[0][0]["type"] == "roll" and report.games[0][0]["side"] == 1
    summary = response.data["reports"][0]["games"]
    # In the file: 09197035670 wins game 1 (a drop, cube 2), lasse games 2 and 3: here side 0, then side 1.
    assert [(g["winner"], g["points"], g["ending"], g["score_after"]) for g in summary] == [
        (0, 2, "drop", [2, 0]), (1, 2, "gammon", [2, 2]), (1, 3, "backgammon", [2, 5])]


def test_a_reversed_file_is_mapped_by_the_reporters_word_when_the_names_do_not_tell(client):
    match = three_point_match("Alice", "Bob")
    # Bob (side 1) says he is the file's first player (lasse): the file is turned round.
    response = report_page(client, match, user_of(match, 1), (2, 3), real_file(), file_side=0)
    assert response.status_code == 302, text_of(response)
    assert Report.objects.get(match=match).score == (2, 3)


def accented_file() -> tuple[bytes, tuple[int, int]]:
    checked = match_from_actions(("Ștefan", "Ana"), MatchRules(3), random_match_games(random.Random(5), 3))
    return write_mat(checked).encode(), checked.final_score


def test_a_name_matches_whatever_its_accents_and_case():
    data, (left, right) = accented_file()
    match = three_point_match("ana", "stefan")  # the file's Ștefan (left) is side 1 here
    response = client_for(user_of(match, 1)).post(
        f"/api/v1/matches/{match.pk}/report/",
        {"score0": min(right, 3), "score1": min(left, 3), "file": upload(data)}, format="multipart")
    assert response.status_code == 200, response.data
    assert Report.objects.get(match=match).score == (min(right, 3), min(left, 3))


def test_an_unmatched_name_without_the_side_choice_is_refused_asking_which_side(client):
    match = three_point_match("Alice", "Bob")
    response = report_page(client, match, user_of(match, 0), (3, 2), real_file())
    assert response.status_code == 400
    text = text_of(response)
    assert ("The file's players are lasse and 09197035670, and neither name is yours: say which player of the "
            "file is you.") in text
    assert "Which player of the file is you?" in text
    assert_nothing_saved(match)

    api = client_for(user_of(match, 0)).post(
        f"/api/v1/matches/{match.pk}/report/", {"score0": 3, "score1": 2, "file": upload(real_file())},
        format="multipart")
    assert api.status_code == 400
    assert api.data["code"] == "file_side_unknown" and api.data["field"] == "file_side"
    assert_nothing_saved(match)

    answered = client_for(user_of(match, 0)).post(
        f"/api/v1/matches/{match.pk}/report/",
        {"score0": 3, "score1": 2, "file_side": 0, "file": upload(real_file())}, format="multipart")
    assert answered.status_code == 200, answered.data


def test_the_organiser_says_which_player_of_the_file_is_side_0(client):
    match = three_point_match("Alice", "Bob")
    client.force_login(match.organiser)
    url = reverse("matches:override", args=[match.pk])
    refused = client.post(url, {"override-score0": "3", "override-score1": "2", "override-mat_file": upload(real_file())})
    assert refused.status_code == 400
    assert "say which player of the file is Alice" in text_of(refused)
    assert_nothing_saved(match)
    done = client.post(url, {"override-score0": "2", "override-score1": "3", "override-file_side": "1",
                             "override-mat_file": upload(real_file())})
    assert done.status_code == 302, text_of(done)
    match.refresh_from_db()
    assert (match.score0, match.score1, match.winner) == (2, 3, 1)


def test_a_bad_game_is_refused_naming_the_game_and_the_line_and_nothing_is_saved(client):
    lines = real_file().decode().split("\n")
    assert lines[75].startswith(" 11) 62: 25/23 21/15")  # game 3's turn 11, at line 76
    lines[75] = " 11) 62: 25/23 21/15             5x: 25/20"
    broken = "\n".join(lines).encode()
    match = three_point_match("Lasse", "Mehdi")
    response = report_page(client, match, user_of(match, 0), (3, 2), broken)
    assert response.status_code == 400
    assert 'match.mat: game 3, line 76: expected a roll such as "52:" or a cube action, found "5x: 25/20"' in \
        text_of(response)
    assert_nothing_saved(match)

    illegal = real_file().decode().split("\n")
    illegal[75] = " 11) 63: 6/0 6/3                 63: 15/9 9/6"  # bearing off from the bar
    api = client_for(user_of(match, 0)).post(
        f"/api/v1/matches/{match.pk}/report/",
        {"score0": 3, "score1": 2, "file": upload("\n".join(illegal).encode())}, format="multipart")
    assert api.status_code == 400
    assert (api.data["game"], api.data["line"]) == (3, 76)
    assert api.data["detail"].startswith("game 3, line 76: move 11, lasse: play 6/0 6/3")  # the file's left player
    assert api.data["side"] == 0 and "side 0" not in api.data["detail"]
    assert_nothing_saved(match)

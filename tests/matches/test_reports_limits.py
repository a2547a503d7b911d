"""A .mat file on the synchronous report path (API and page) is refused as soon as it passes the
size, game or action limit, while it is read: a 400 naming the limit, the file, the line and the
game, and nothing replayed or saved."""

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.defaultfilters import filesizeformat
from django.test import Client
from django.urls import reverse

from matches.models import Game, Report
from matches.services import logs
from tests.matches.factories_api import client_for, make_cast, mat_text

pytestmark = pytest.mark.django_db

FIVE_POINTS_SEVEN_GAMES = 1  # 5 points, seed 1: seven games, side 1 wins 7-4


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def seven_games():
    text, score, games = mat_text(5, seed=FIVE_POINTS_SEVEN_GAMES)
    assert games == 7
    return text, score


@pytest.fixture
def replayed(monkeypatch):
    """The games of each file replayed: a file past a limit is never replayed."""
    counts = []
    real = logs.check_mat

    def counting(read, **kwargs):
        counts.append(len(read.games))
        return real(read, **kwargs)

    monkeypatch.setattr(logs, "check_mat", counting)
    return counts


def upload(text: str, name: str = "match.mat") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def post_report(cast, text, score, name="match.mat"):
    return client_for(cast.alice).post(f"/api/v1/matches/{cast.match.pk}/report/",
                                       {"score0": score[0], "score1": score[1], "file": upload(text, name)},
                                       format="multipart")


def assert_nothing_saved(match) -> None:
    match.refresh_from_db()
    assert match.score0 is None and not Report.objects.filter(match=match).exists()
    assert not Game.objects.filter(match=match).exists()


def line_of(text: str, wanted: str) -> int:
    return text.splitlines().index(wanted) + 1


def test_a_file_past_the_game_limit_is_refused_at_its_game_line_unreplayed(cast, seven_games, settings, replayed):
    text, score = seven_games
    settings.MAX_LOG_GAMES = 3
    response = post_report(cast, text, score, "long.mat")
    line = line_of(text, " Game 4")
    assert response.status_code == 400
    assert response.data == {"detail": f"game 4 at line {line} is past the limit of 3 games", "code": "log_too_large",
                             "file": "long.mat", "line": line, "game": 4}
    assert replayed == []
    assert_nothing_saved(cast.match)


def test_a_file_past_the_action_limit_is_refused_at_the_line_that_passed_it(cast, seven_games, settings, replayed):
    text, score = seven_games
    settings.MAX_LOG_ACTIONS = 50
    response = post_report(cast, text, score)
    assert response.status_code == 400 and response.data["code"] == "log_too_large"
    line, game = response.data["line"], response.data["game"]
    assert response.data["detail"] == f"game {game} passes the limit of 50 actions at line {line}"
    # The refusal comes on the line that passed 50 actions, not after reading the file.
    assert line < len(text.splitlines()) and game < 7
    assert replayed == []
    assert_nothing_saved(cast.match)


def test_a_file_within_the_limits_is_replayed_once_and_saved(cast, seven_games, settings, replayed):
    text, score = seven_games
    settings.MAX_LOG_GAMES = 7
    response = post_report(cast, text, score)
    assert response.status_code == 200, response.data
    assert replayed == [7]


def test_the_page_names_the_limit_the_file_passed(cast, seven_games, settings, replayed):
    text, score = seven_games
    settings.MAX_LOG_GAMES = 3
    client = Client()
    client.force_login(cast.alice)
    response = client.post(reverse("matches:report", args=[cast.match.pk]), {
        "report-score0": str(score[0]), "report-score1": str(score[1]), "report-mat_file": upload(text, "long.mat"),
    })
    assert response.status_code == 400
    line = line_of(text, " Game 4")
    assert f"long.mat: game 4 at line {line} is past the limit of 3 games" in response.content.decode()
    assert replayed == []
    assert_nothing_saved(cast.match)


def test_the_page_refuses_a_file_over_the_size_limit_before_reading_it(cast, seven_games, settings, replayed):
    text, score = seven_games
    settings.MAX_UPLOAD_BYTES = 1000
    client = Client()
    client.force_login(cast.alice)
    response = client.post(reverse("matches:report", args=[cast.match.pk]), {
        "report-score0": str(score[0]), "report-score1": str(score[1]), "report-mat_file": upload(text, "big.mat"),
    })
    assert response.status_code == 400
    # Its real size, not the limit plus the one byte a cut read would have seen.
    said = f"big.mat is {filesizeformat(len(text.encode()))}; the limit is 1000\xa0bytes"
    assert "KB" in said and said in html.unescape(response.content.decode())
    assert replayed == []
    assert_nothing_saved(cast.match)

"""GET /api/v1/matches/{id}/games/, /games/{number}/ and /mat/: every moment of every game, and
the match as a .mat download that GNU Backgammon imports."""

import json
import subprocess
import sys
import textwrap

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from engine.ids import position_from_id
from engine.scores import capped_score
from matches.models import Match, Side
from matches.services.logs import log_from_json
from matches.services.reporting import claim_make, match_confirm, match_report
from tests.factories import MatchFactory, PlayerFactory
from tests.matches.factories_api import ROLES, client_for, json_games, make_cast

pytestmark = pytest.mark.django_db

START = "4HPwATDgc/ABMA"  # GNU Backgammon's Position ID of the starting position


def games_url(match, number: int | None = None) -> str:
    return f"/api/v1/matches/{match.pk}/games/" + (f"{number}/" if number is not None else "")


def mat_url(match) -> str:
    return f"/api/v1/matches/{match.pk}/mat/"


def play_out(cast, seed: int) -> list[list[dict]]:
    """Alice reports the seeded random match with its logs, Bob confirms: the games are stored."""
    match = cast.match
    games = json_games(match.length, seed=seed)
    log = log_from_json(games, match.rules())
    match_report(match_id=match.pk, user=cast.alice, claim=claim_make(match, log.final_score, log))
    match_confirm(match_id=match.pk, user=cast.bob)
    match.refresh_from_db()
    return games


@pytest.fixture
def cast():
    return make_cast()


# --- games and moments --------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_it_lists_every_game_with_every_moment_to_everyone(cast, role):
    games = play_out(cast, seed=1)  # seven games, 4-7
    response = client_for(cast.user(role)).get(games_url(cast.match))
    assert response.status_code == 200
    assert [g["number"] for g in response.data] == [1, 2, 3, 4, 5, 6, 7]
    for game, log in zip(response.data, games, strict=True):
        assert len(game["moments"]) == len(log) + 1  # before every action, and after the last
        assert [m["action"] for m in game["moments"]] == [*log, None]
        assert [m["index"] for m in game["moments"]] == list(range(len(log) + 1))
    assert response.data[4]["crawford"] is True and response.data[4]["score_before"] == [4, 1]


def test_the_first_and_last_moments_of_a_game(cast):
    play_out(cast, seed=3)  # one game: side 0 wins a gammon on a cube of 4
    [game] = client_for().get(games_url(cast.match)).data
    first, last = game["moments"][0], game["moments"][-1]
    assert first == {"index": 0, "position_id": START, "turn": 0, "cube": 1, "cube_owner": None, "dice": None,
                     "phase": "opening", "to_act": None, "move": 1, "action": {"type": "roll", "side": 0, "dice": [2, 3]}}
    assert last["phase"] == "over" and last["action"] is None and last["cube"] == 4
    # The final position, decoded from its id: the winner has borne off all fifteen, the loser none.
    final = position_from_id(last["position_id"], turn=last["turn"])
    assert final.boards[0][0] == 15 and final.boards[1][0] == 0
    assert (game["winner"], game["points"], game["ending"]) == (0, 8, "gammon")


def test_a_moment_shows_the_dice_and_the_cube_as_they_are(cast):
    games = play_out(cast, seed=3)
    moments = client_for().get(games_url(cast.match, 1)).data["moments"]
    after_roll = moments[1]  # side 0 rolled 23 and has not played yet
    assert (after_roll["dice"], after_roll["phase"], after_roll["to_act"]) == ([2, 3], "to_play", 0)
    take = next(i for i, action in enumerate(games[0]) if action["type"] == "take")
    taker = games[0][take]["side"]
    assert moments[take]["phase"] == "doubled" and moments[take]["to_act"] == taker
    assert (moments[take + 1]["cube"], moments[take + 1]["cube_owner"]) == (2, taker)
    ids = {m["position_id"] for m in moments}
    assert all(len(pid) == 14 for pid in ids) and len(ids) > 20


def test_it_shows_one_game(cast):
    games = play_out(cast, seed=1)
    response = client_for(cast.carol, auth="session").get(games_url(cast.match, 5))
    assert response.status_code == 200
    data = response.data
    assert (data["number"], data["score_before"], data["crawford"]) == (5, [4, 1], True)
    assert len(data["moments"]) == len(games[4]) + 1 and data["condoned"] == []
    assert not any(m["action"] and m["action"]["type"] == "double" for m in data["moments"])


def test_a_match_without_games_has_an_empty_game_list(cast):
    response = client_for().get(games_url(cast.match))
    assert response.status_code == 200 and response.data == []


def test_an_unknown_game_or_match_is_a_404(cast):
    play_out(cast, seed=3)
    response = client_for().get(games_url(cast.match, 2))
    assert response.status_code == 404
    assert response.data == {"detail": f"match {cast.match.pk} has no game 2", "code": "not_found"}
    for url in ("/api/v1/matches/999999/games/", "/api/v1/matches/999999/games/1/", "/api/v1/matches/999999/mat/"):
        response = client_for().get(url)
        assert response.status_code == 404 and response.data["detail"] == "there is no match 999999"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_games_and_the_mat_file_are_read_only(cast, method):
    play_out(cast, seed=3)
    client = client_for(cast.organiser)
    for url in (games_url(cast.match), games_url(cast.match, 1), mat_url(cast.match)):
        response = getattr(client, method)(url, {}, format="json")
        assert response.status_code == 405 and response.data["code"] == "method_not_allowed"
    assert cast.match.games.count() == 1


# --- the .mat download --------------------------------------------------------------------------


def test_it_downloads_the_match_as_a_mat_file(cast):
    play_out(cast, seed=1)
    response = client_for().get(mat_url(cast.match))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="match-{cast.match.pk}.mat"'
    text = response.content.decode()
    assert '; [Player 1 "Alice"]' in text and '; [Player 2 "Bob"]' in text and " 5 point match" in text
    checked = check_mat(read_mat(text))  # the engine reads back what it wrote
    assert checked.players == ("Alice", "Bob") and len(checked.games) == 7
    # The file holds the full score; the match shows it capped at the length and keeps it in full.
    assert checked.final_score == cast.match.full_score == (4, 7) and checked.winner == 1
    assert (cast.match.score0, cast.match.score1) == (4, 5)


def test_the_download_answers_text_even_to_a_client_asking_for_text(cast):
    play_out(cast, seed=3)
    response = client_for().get(mat_url(cast.match), HTTP_ACCEPT="text/plain")
    assert response.status_code == 200 and response.content.decode().startswith("; [")


def test_a_downloaded_mat_file_can_be_reported_again(cast):
    play_out(cast, seed=1)
    text = client_for().get(mat_url(cast.match)).content
    rematch = MatchFactory(side0=cast.match.side0, side1=cast.match.side1, length=5, organiser=cast.organiser)
    response = client_for(cast.bob).post(
        f"/api/v1/matches/{rematch.pk}/report/",
        {"score0": 4, "score1": 7, "file": SimpleUploadedFile("again.mat", text)}, format="multipart")
    assert response.status_code == 200, response.data
    # The same games, action by action (plays may be written differently: 8/2 is 8/3 3/2).
    stored = [g.log for g in cast.match.games.order_by("number")]
    reported = rematch.reports.get().games
    assert [[a["type"] for a in game] for game in reported] == [[a["type"] for a in game] for game in stored]


def test_a_match_without_games_has_no_mat_file(cast):
    response = client_for().get(mat_url(cast.match))
    assert response.status_code == 409 and response.data["code"] == "no_games"
    assert response.data["detail"].startswith("this match has no recorded games, so there is no match file")


def test_a_pair_and_an_event_are_named_in_the_mat_file():
    cast = make_cast()
    dora = PlayerFactory(user__username="dora")
    pair = Side.objects.create(player_a=cast.match.side0.player_a, player_b=dora)
    Match.objects.filter(pk=cast.match.pk).update(side0=pair)
    cast.match.refresh_from_db()
    play_out(cast, seed=3)
    text = client_for().get(mat_url(cast.match)).content.decode()
    assert '; [Player 1 "Alice & Dora"]' in text
    assert check_mat(read_mat(text)).players == ("Alice & Dora", "Bob")


# --- GNU Backgammon reads the download ------------------------------------------------------------

GNUBG_READER = textwrap.dedent("""
    import json, sys
    import gnubg

    path, out = sys.argv[1], sys.argv[2]
    gnubg.command('import mat "%s"' % path)
    match = gnubg.match()
    info = match["match-info"]
    games = [game["info"] for game in match["games"]]
    with open(out, "w") as handle:
        json.dump({"length": info["match-length"], "names": [info["X"]["name"], info["O"]["name"]], "games": games}, handle)
""")


def gnubg_reads(path, tmp_path) -> dict:
    """Import the file with GNU Backgammon's Python bindings in a subprocess (gnubg may hang or crash
    on input it dislikes, and it prints boards on stdout): its view of the match as a dict."""
    script, out = tmp_path / "read_with_gnubg.py", tmp_path / "gnubg.json"
    script.write_text(GNUBG_READER)
    done = subprocess.run([sys.executable, str(script), str(path), str(out)], capture_output=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return json.loads(out.read_text())


@pytest.mark.oracle
@pytest.mark.parametrize(("length", "seed"), [(5, 1), (5, 3), (3, 0), (7, 4), (1, 2)])
def test_gnubg_imports_the_downloaded_mat_file_with_the_same_games_and_score(tmp_path, length, seed):
    cast = make_cast(length=length)
    play_out(cast, seed=seed)
    match = cast.match
    path = tmp_path / "match.mat"
    path.write_bytes(client_for().get(mat_url(match)).content)
    seen = gnubg_reads(path, tmp_path)
    assert seen["length"] == length and seen["names"] == ["Alice", "Bob"]
    assert len(seen["games"]) == match.games.count()
    last = seen["games"][-1]
    final = [last["score-X"], last["score-O"]]
    final[0 if last["winner"] == "X" else 1] += last["points-won"]
    assert tuple(final) == match.full_score and capped_score(length, final) == (match.score0, match.score1)
    stored = list(match.games.order_by("number"))
    assert [(g["score-X"], g["score-O"]) for g in seen["games"]] == [(g.score0, g.score1) for g in stored]
    assert [g["winner"] for g in seen["games"]] == ["X" if g.winner == 0 else "O" for g in stored]


@pytest.mark.oracle
def test_rules_9_a_match_with_mid_match_penalty_points_downloads_with_the_real_scores(tmp_path):
    """RULES.md §9: a .mat file has no word for a penalty, so each game's score line says the score
    as it stood (the penalty included) and the Crawford game follows from it; GNU Backgammon reads
    the same scores the match stored. (Before, the download replayed without the penalty: a 500.)"""
    from engine.actions import action_to_dict
    from matches.services.penalties import match_penalty_give
    from matches.services.reporting import Draft
    from tests.engine.test_game import log
    from tests.engine.test_match import resigned

    match = MatchFactory(length=5, status=Match.Status.IN_PLAY)
    match_penalty_give(match.pk, 1, 1, "late", match.organiser, score=(3, 3))
    games = [[action_to_dict(a) for a in log(resigned(side, 1))] for side in (0, 1, 0, 1, 0, 1, 0)]
    match.refresh_from_db()
    match_report(match_id=match.pk, user=match.side0.player_a.user, claim=Draft((5, 3), games))
    match_confirm(match_id=match.pk, user=match.side1.player_a.user)
    response = client_for().get(mat_url(match))
    assert response.status_code == 200, response.content
    stored = [(g.score0, g.score1, g.crawford) for g in Match.objects.get(pk=match.pk).games.order_by("number")]
    assert stored[-1] == (4, 3, True)  # 3-3, a point against side 1: 4-3, the Crawford game
    written = read_mat(response.content.decode())
    assert [tuple(g.score) for g in written.games] == [s[:2] for s in stored]
    path = tmp_path / "match.mat"
    path.write_bytes(response.content)
    seen = gnubg_reads(path, tmp_path)
    assert [(g["score-X"], g["score-O"]) for g in seen["games"]] == [s[:2] for s in stored]

"""Exports: the analysis as a JSON download (/matches/{id}/analysis.json), and the match's .mat
file, which the engine reads back and GNU Backgammon's own command interpreter imports."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from analysis.services import match_analysis_request, match_analysis_run
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from matches.models import Game, Match
from tests.matches.factories_api import client_for

pytestmark = pytest.mark.django_db

#: Run in a child process (gnubg's interpreter is global state, and an import that hangs must not
#: hang the suite): import the .mat file as gnubg's own "import mat" does, with sound off and both
#: players human, and print what it read as JSON on the last line.
GNUBG_IMPORT = textwrap.dedent("""
    import json, sys
    import gnubg
    gnubg.command("set sound enable off")
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("import mat " + sys.argv[1])
    read = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    info = read["match-info"]
    print(json.dumps({"length": info["match-length"], "players": [info["X"]["name"], info["O"]["name"]],
                      "games": [[game["info"]["winner"], game["info"]["points-won"]] for game in read["games"]]}))
""")


def test_the_analysis_downloads_as_json_with_the_match_beside_it(played):
    match_analysis_request(played.match, actor=played.organiser, plies=0)
    row = match_analysis_run(played.match.pk)
    response = client_for().get(f"/matches/{played.match.pk}/analysis.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="match-{played.match.pk}-analysis.json"'
    body = json.loads(response.content)
    match = Match.objects.get(pk=played.match.pk)
    assert {key: body[key] for key in ("version", "plies", "engine", "settings", "sides", "games")} == row.result
    assert body["match"] == {"id": match.pk, "players": ["Alice", "Bob"], "length": 3, "crawford": True,
                             "score": [match.score0, match.score1], "full_score": [match.full_score0, match.full_score1],
                             "played_on": None}


def test_there_is_no_file_before_the_analysis_is_done(played):
    assert client_for().get(f"/matches/{played.match.pk}/analysis.json").status_code == 404  # queued
    assert client_for().get(f"/matches/{played.match.pk + 1000}/analysis.json").status_code == 404


def test_the_matchs_mat_export_still_reads_in_the_engine_and_in_gnubg(played, tmp_path):
    response = client_for().get(f"/api/v1/matches/{played.match.pk}/mat/")
    assert response.status_code == 200
    text = response.content
    games = list(Game.objects.filter(match=played.match).order_by("number"))
    check = check_mat(read_mat(text))
    assert (check.length, len(check.games)) == (3, len(games))
    assert [(g.winner, g.points) for g in check.games] == [(g.winner, g.points) for g in games]
    path = tmp_path / "match.mat"
    path.write_bytes(text)
    ran = subprocess.run([sys.executable, "-c", GNUBG_IMPORT, str(path)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    read = json.loads(ran.stdout.strip().splitlines()[-1])
    assert (read["length"], len(read["games"])) == (3, len(games))
    # gnubg names the file's first player (side 0) X, the second O, and each game's winner so.
    assert read["players"] == ["Alice", "Bob"]
    assert read["games"] == [["XO"[g.winner], g.points] for g in games]

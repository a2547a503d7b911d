"""``python -m engine``: the JSON contract of ``validate`` and ``plays``, run as a real process."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAT_DIR = ROOT.parent / "shared" / "data" / "mat"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_it_lists_the_plays_of_the_opening_31_as_the_opponent_sees_them():
    out = run("plays", stdin=json.dumps({"position": "4HPwATDgc/ABMA", "dice": [3, 1]}) + "\n")
    results = json.loads(out.stdout)["results"]
    assert out.returncode == 0
    assert "sGfwATDgc/ABMA" in results  # 8/5 6/5
    assert results == sorted(set(results)) and len(results) == 16


def test_it_passes_the_turn_when_nothing_can_be_played():
    from engine.board import Position, side_board
    from engine.ids import position_id

    # Side on roll has one checker on the bar; the opponent holds its whole home board.
    closed = Position.from_sides(side_board({6: 14}, bar=1), side_board({p: 2 for p in range(1, 7)} | {13: 3}))
    out = run("plays", stdin=json.dumps({"position": position_id(closed), "dice": [6, 6]}) + "\n")
    assert json.loads(out.stdout) == {"results": [position_id(closed.passed())]}


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("not json", "not JSON"),
        ('{"position": "4HPwATDgc/ABMA", "dice": [0, 3]}', "dice"),
        ('{"position": "4HPwATDgc/ABMA", "dice": [3]}', "dice"),
        ('{"position": "AAAA", "dice": [3, 1]}', "14 characters"),
        ('{"position": "4HPwATDgc/ABMA", "dice": [3, 1], "x": 1}', "unknown field"),
        ("[1, 2]", "object"),
    ],
)
def test_it_answers_a_bad_line_with_an_error_and_goes_on(line, fragment):
    good = json.dumps({"position": "4HPwATDgc/ABMA", "dice": [6, 5]})
    out = run("plays", stdin=f"{line}\n{good}\n")
    first, second = (json.loads(x) for x in out.stdout.splitlines())
    assert fragment in first["error"]
    assert "results" in second
    assert out.returncode == 0 and "Traceback" not in out.stderr


def test_it_validates_real_match_files_one_json_object_per_file():
    files = [str(MAT_DIR / "galaxy_3pt_match2561306.mat"), str(MAT_DIR / "gnubg_7pt_charlot1_charlot2.mat")]
    out = run("validate", *files)
    assert out.returncode == 0, out.stdout
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["file"] for r in reports] == files
    first = reports[0]
    assert first["ok"] is True and first["players"] == ["lasse", "09197035670"] and first["match_length"] == 3
    assert [g["winner"] for g in first["games"]] == [1, 0, 0]
    assert first["games"][0] == {"number": 1, "score": [0, 0], "crawford": False, "winner": 1, "points": 2,
                                 "cube": 2, "result": "drop"}
    assert [g["crawford"] for g in first["games"]] == [False, True, False]  # 0-2 after game 1
    assert first["games"][2]["score"] == [2, 2]
    assert first["final_score"] == [5, 2] and first["match_winner"] == 0
    assert reports[1]["final_score"] == [9, 2] and reports[1]["match_winner"] == 0


def test_it_reports_a_broken_file_with_its_line_and_exits_1(tmp_path):
    text = (MAT_DIR / "galaxy_3pt_match2561306.mat").read_text()
    broken = tmp_path / "broken.mat"
    broken.write_text(text.replace("  3) 42: 24/20 6/4", "  3) 42: 24/18 6/4", 1))
    missing = tmp_path / "missing.mat"
    out = run("validate", str(broken), str(MAT_DIR / "galaxy_1pt_match1501137.mat"), str(missing))
    assert out.returncode == 1
    bad, good, absent = (json.loads(line) for line in out.stdout.splitlines())
    assert bad["ok"] is False and bad["error"]["game"] == 1
    assert bad["error"]["line"] == text.splitlines().index("  3) 42: 24/20 6/4               42: 24/20 6/4") + 1
    assert "24/18 6/4" in bad["error"]["message"]
    assert good["ok"] is True
    assert absent["ok"] is False and "cannot read" in absent["error"]["message"]
    assert "Traceback" not in out.stderr

"""Our analysis against GNU Backgammon's own ``analyse match`` of the same real match.

gnubg is driven through its command interpreter (``gnubg.command``) in a child process (the
commands change gnubg's global state: a loaded match, players, settings): it imports the .mat
file, analyses it at the same depth and exports the analysis as text (one file per game), which
is read back here. Sounds off and both players human, or the interpreter waits for a computer
player; ``set threads 1`` keeps it from spreading over the shared cores.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.compute import analyse_match
from engine.formats.mat import check_mat, read_mat

pytestmark = pytest.mark.oracle

ROOT = Path(__file__).resolve().parents[2]
MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
STEM = "gnubg_3pt_test_match01"
NUMBER = r"([+-]?[\d.]+)"

GNUBG_SCRIPT = """
import sys, gnubg
path, plies, out = sys.argv[1], sys.argv[2], sys.argv[3]
for command in ("set sound enable off", "set player 0 human", "set player 1 human", "set display off",
                "set threads 1", f"set analysis chequerplay evaluation plies {plies}",
                f"set analysis cubedecision evaluation plies {plies}", f"import mat {path}", "analyse match",
                f"export match text {out}"):
    gnubg.command(command)
"""


def gnubg_analysis(tmp_path: Path, plies: int) -> list[Path]:
    """gnubg's own analysis of the match at ``plies``, as text files (game 1, 2, ...)."""
    out = tmp_path / "gnubg.txt"
    subprocess.run([sys.executable, "-c", GNUBG_SCRIPT, str(MAT_DIR / f"{STEM}.mat"), str(plies), str(out)],
                   check=True, capture_output=True, timeout=600)
    return [out, *sorted(tmp_path.glob("gnubg_0*.txt"))]


def read_export(path: Path) -> tuple[list[dict], dict]:
    """The checker plays of one exported game (dice, gnubg's best and played equities, the
    roll's luck) and the statistics at the end of the file (the match's, in the last file)."""
    plays: list[dict] = []
    stats: dict = {}
    record = None
    for line in path.read_text().splitlines():
        if re.match(r"Move number \d+:\s+\S+ to play \d\d", line):
            record = {"moves": []}
            plays.append(record)
            continue
        if re.match(r"(Move number|\* \S+ (doubles|accepts|rejects))", line):
            record = None
        if line.startswith("Match statistics"):
            stats = {}
        match = re.match(r"(Unforced moves|Close or actual cube decisions)\s+(\d+)\s+(\d+)", line)
        if match:
            stats[match.group(1)] = (int(match.group(2)), int(match.group(3)))
        match = re.match(r"Error total EMG \(MWC\)\s+" + NUMBER + r" \(.*?\)\s+" + NUMBER, line)
        if match:
            stats.setdefault("error totals", []).append((float(match.group(1)), float(match.group(2))))
        if record is None:
            continue
        match = re.match(r"Rolled \d\d \(" + NUMBER + r"\)", line)
        if match:
            record["luck"] = float(match.group(1))
        match = re.match(r"(\*?)\s+\d+\. Cubeful \d-ply\s+(.*?)\s+Eq\.: " + NUMBER, line)
        if match:
            record["moves"].append((match.group(1) == "*", match.group(2).strip(), float(match.group(3))))
    return [play for play in plays if play["moves"]], stats


def compare(tmp_path: Path, plies: int):
    checked = check_mat(read_mat((MAT_DIR / f"{STEM}.mat").read_bytes()))
    ours = analyse_match(checked.rules, [list(game.replay.actions) for game in checked.games], plies=plies)
    files = gnubg_analysis(tmp_path, plies)
    assert len(files) == len(ours.games)
    differences, luck_differences, stats = [], [], {}
    for game, path in zip(ours.games, files, strict=True):
        theirs, stats = read_export(path)
        mine = [d for d in game.decisions if d.kind == "play"]
        assert len(mine) == len(theirs), f"game {game.number}"
        for decision, record in zip(mine, theirs, strict=True):
            best = record["moves"][0][2]
            played = next(equity for chosen, _, equity in record["moves"] if chosen)
            differences.append(abs(decision.loss - (best - played)))
            luck_differences.append(abs(decision.luck - record["luck"]))
    return ours, differences, luck_differences, stats


def test_checker_plays_and_counts_agree_with_gnubgs_own_analysis_at_0_ply(tmp_path):
    ours, differences, luck_differences, stats = compare(tmp_path, 0)
    assert len(differences) > 140
    # gnubg prints 3 decimals: every loss agrees to its rounding (two rounded equities: 0.002).
    assert max(differences) < 0.002
    # Luck agrees but for dances (valued one ply deeper here): within 0.03, mostly exact.
    assert max(luck_differences) < 0.03
    assert sum(1 for d in luck_differences if d < 0.0015) > 0.8 * len(luck_differences)
    # Unforced decisions: gnubg's unforced moves plus its close (or actual) cube decisions.
    unforced = tuple(a + b for a, b in zip(stats["Unforced moves"], stats["Close or actual cube decisions"],
                                           strict=True))
    assert unforced == (ours.sides[0].unforced, ours.sides[1].unforced)


@pytest.mark.slow
def test_the_match_verdict_agrees_with_gnubgs_own_analysis_at_2_ply(tmp_path):
    ours, differences, _, stats = compare(tmp_path, 2)
    assert max(differences) < 0.002
    unforced = tuple(a + b for a, b in zip(stats["Unforced moves"], stats["Close or actual cube decisions"],
                                           strict=True))
    assert unforced == (ours.sides[0].unforced, ours.sides[1].unforced)
    # Overall equity lost (checker play, cube, overall are printed in that order): the cube
    # decisions are built by averaging (see analysis.compute), so within 0.02 of gnubg's.
    overall = stats["error totals"][-1]
    for side in (0, 1):
        assert ours.sides[side].equity_lost == pytest.approx(-overall[side], abs=0.02)

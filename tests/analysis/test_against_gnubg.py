"""Our analysis against GNU Backgammon's own ``analyse match`` of the same real match files.

gnubg is driven as a player drives it, through its command interpreter in a child process: it
imports the original .mat file (not the one the engine writes for our analysis), analyses it at
the same depth, saves it as SGF (its statistics per game, six decimals) and exports it as text
(each decision's Position ID, ranked plays and equities to three decimals, the match's
statistics and its words). What each side of the comparison says:

- per side, from gnubg's statistics: unforced plays, close or actual cube decisions, plays marked
  doubtful, bad and very bad, the checker and cube errors, the luck, the PR (500 x errors over
  unforced decisions) within 0.01, and the rating and luck words;
- per checker play: the same Position ID (the engine's position is gnubg's), the played and best
  plays the same plays, the loss within 0.001 of what gnubg prints, and the roll's luck.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from analysis.compute import analyse_match
from analysis.gnubg_sgf import read_sgf
from analysis.verdict import LUCK_WORDS, RATING_WORDS
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from engine.ids import position_from_id
from engine.validation import validate_play

pytestmark = pytest.mark.oracle

ROOT = Path(__file__).resolve().parents[2]
MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
FILES = sorted(path.stem for path in MAT_DIR.glob("*.mat"))
AT_2_PLY = ["galaxy_3pt_match2561306", "gnubg_3pt_test_match01", "edge_galaxy_3pt_capped_wins_match1004844"]
NUMBER = r"([+-]?\d+\.\d+)"

GNUBG_SCRIPT = """
import sys, gnubg
path, plies, folder = sys.argv[1], sys.argv[2], sys.argv[3]
for command in ("set sound enable off", "set player 0 human", "set player 1 human", "set display off",
                "set threads 1", f"set analysis chequerplay evaluation plies {plies}",
                f"set analysis cubedecision evaluation plies {plies}", f'import mat "{path}"', "analyse match",
                f'save match "{folder}/gnubg.sgf"', f'export match text "{folder}/gnubg.txt"'):
    gnubg.command(command)
"""


@dataclass
class TheirPlay:
    """One checker play as gnubg's text export shows it."""

    game: int
    position_id: str
    dice: tuple[int, int]
    luck: float | None = None
    moves: list[tuple[bool, str, float]] = field(default_factory=list)  # (played, play, equity)


def gnubg_own(tmp_path: Path, stem: str, plies: int) -> tuple[list, list[TheirPlay], dict]:
    """gnubg's own analysis of the file: its saved games, its plays and its match statistics."""
    subprocess.run([sys.executable, "-c", GNUBG_SCRIPT, str(MAT_DIR / f"{stem}.mat"), str(plies), str(tmp_path)],
                   check=True, capture_output=True, timeout=900)
    games = read_sgf((tmp_path / "gnubg.sgf").read_text(encoding="utf-8"))
    texts = [tmp_path / "gnubg.txt", *sorted(tmp_path.glob("gnubg_0*.txt"))]
    plays: list[TheirPlay] = []
    stats: dict = {}
    for number, path in enumerate(texts, start=1):
        game_plays, game_stats = read_export(path, number)
        plays += game_plays
        stats = game_stats or stats  # the match's statistics close the last file
    return games, plays, stats


def read_export(path: Path, game: int) -> tuple[list[TheirPlay], dict]:
    plays: list[TheirPlay] = []
    stats: dict = {}
    record: TheirPlay | None = None
    in_match_stats = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if record is not None and not record.position_id and (found := re.search(r"Position ID: (\S+)", line)):
            record.position_id = found.group(1)
        if found := re.match(r"Move number \d+:\s+.* to play (\d)(\d)", line):
            record = TheirPlay(game, "", (int(found.group(1)), int(found.group(2))))
            plays.append(record)
            continue
        if line.startswith("Move number"):
            record = None
        if record is not None and (found := re.match(r"Rolled \d\d \(" + NUMBER + r"\)", line)):
            record.luck = float(found.group(1))
        if record is not None and (found := re.match(r"(\*?)\s+(?:\d+\.|\?\?)\s+Cubeful \d-ply\s+(.*?)\s+Eq\.: " + NUMBER,
                                                     line)):
            record.moves.append((found.group(1) == "*", found.group(2).strip(), float(found.group(3))))
        if line.startswith("Match statistics"):
            in_match_stats = True
        if not in_match_stats:
            continue
        for label in ("Unforced moves", "Close or actual cube decisions", "Moves marked doubtful",
                      "Moves marked bad", "Moves marked very bad", "Total moves"):
            if found := re.match(re.escape(label) + r"\s+(\d+)\s+(\d+)", line):
                stats[label] = (int(found.group(1)), int(found.group(2)))
        for label in ("Overall rating", "Luck rating"):
            if line.startswith(label):
                stats[label] = tuple(word.strip() for word in re.split(r"\s{2,}", line[len(label):].strip()))
    return [play for play in plays if play.moves], stats


def gnubg_sums(games: list) -> dict[str, tuple[float, float]]:
    """gnubg's statistics summed over the games (its statcontext as sgf.c writes it: M, C, D)."""
    sums = {name: [0.0, 0.0] for name in ("unforced", "total", "very bad", "bad", "doubtful", "checker", "cube",
                                          "luck")}
    for game in games:
        moves, cube, dice = game.stats["M"], game.stats["C"], game.stats["D"]
        for side in (0, 1):
            sums["unforced"][side] += moves[side]
            sums["total"][side] += moves[2 + side]
            for offset, name in ((4, "very bad"), (6, "bad"), (8, "doubtful")):
                sums[name][side] += moves[offset + side]
            sums["checker"][side] += moves[12 + 2 * side]
            # After 20 counts, per side 6 kinds of cube error, each (EMG, MWC).
            sums["cube"][side] += sum(cube[20 + 12 * side + 2 * kind] for kind in range(6))
            sums["luck"][side] += dice[10 + 2 * side]
    return {name: (values[0], values[1]) for name, values in sums.items()}


def same_play(position_id: str, dice: tuple[int, int], first: str, second: str) -> bool:
    """Whether two written plays of ``dice`` from gnubg's position are the same play."""
    position = position_from_id(position_id)
    return validate_play(position, dice, first).position == validate_play(position, dice, second).position


def compare(tmp_path: Path, stem: str, plies: int) -> None:
    checked = check_mat(read_mat((MAT_DIR / f"{stem}.mat").read_bytes()))
    ours = analyse_match(checked.rules, [list(game.replay.actions) for game in checked.games], plies=plies)
    games, their_plays, stats = gnubg_own(tmp_path, stem, plies)
    assert len(games) == len(ours.games)

    # Per side: gnubg's statistics.
    sums = gnubg_sums(games)
    for side, mine in enumerate(ours.sides):
        close = stats["Close or actual cube decisions"][side]
        assert mine.unforced_plays == sums["unforced"][side] == stats["Unforced moves"][side]
        assert mine.plays == sums["total"][side] == stats["Total moves"][side]
        assert mine.cube_decisions == close
        assert (mine.doubtful, mine.errors, mine.blunders) == (
            stats["Moves marked doubtful"][side], stats["Moves marked bad"][side], stats["Moves marked very bad"][side])
        assert mine.checker_lost == pytest.approx(sums["checker"][side], abs=1e-4)
        assert mine.cube_lost == pytest.approx(sums["cube"][side], abs=1e-4)
        assert mine.luck == pytest.approx(sums["luck"][side], abs=1e-3)
        decisions = sums["unforced"][side] + close
        their_pr = 500.0 * (sums["checker"][side] + sums["cube"][side]) / decisions if decisions else 0.0
        assert abs(mine.pr - their_pr) < 0.01, (side, mine.pr, their_pr)
        assert RATING_WORDS[mine.rating] == stats["Overall rating"][side]
        assert LUCK_WORDS[mine.luck_rating] == stats["Luck rating"][side]

    # Per checker play: the same position, the same plays, the same loss.
    mine_by_position = {}
    for game in ours.games:
        for decision in game.decisions:
            if decision.kind == "play":
                mine_by_position[(game.number, decision.position_id, tuple(sorted(decision.dice)))] = decision
    assert len(their_plays) > 0
    for theirs in their_plays:
        key = (theirs.game, theirs.position_id, tuple(sorted(theirs.dice)))
        mine = mine_by_position.get(key)
        assert mine is not None, f"gnubg's play at {key} is not one of ours"
        (_, best, best_equity), played = theirs.moves[0], next((move for move in theirs.moves if move[0]), None)
        where = f"game {theirs.game}, {theirs.position_id}, {theirs.dice}"
        assert same_play(theirs.position_id, theirs.dice, mine.best, best) or mine.loss == 0.0, where
        if played is None:
            # gnubg leaves out a played play no worse than the last it lists (all plays alike).
            assert mine.loss <= best_equity - theirs.moves[-1][2] + 0.001, where
        else:
            assert same_play(theirs.position_id, theirs.dice, mine.played, played[1]), where
            assert abs(mine.loss - (best_equity - played[2])) <= 0.001 + 1e-9, (where, mine.loss, best_equity, played)
        if theirs.luck is not None:
            assert mine.luck == pytest.approx(theirs.luck, abs=0.0006), where


@pytest.mark.slow
@pytest.mark.parametrize("stem", FILES)
def test_every_real_file_agrees_with_gnubgs_own_analysis_at_0_ply(tmp_path, stem):
    compare(tmp_path, stem, 0)


@pytest.mark.slow
@pytest.mark.parametrize("stem", AT_2_PLY)
def test_three_real_files_agree_with_gnubgs_own_analysis_at_2_ply(tmp_path, stem):
    compare(tmp_path, stem, 2)


def _play_at(stem: str, plies: int, game: int, position: str):
    checked = check_mat(read_mat((MAT_DIR / f"{stem}.mat").read_bytes()))
    analysis = analyse_match(checked.rules, [list(g.replay.actions) for g in checked.games], plies=plies)
    return analysis, next(d for d in analysis.games[game - 1].decisions if d.kind == "play" and d.position_id == position)


def test_a_bear_off_is_judged_by_the_play_made_not_the_first_checker_borne_off():
    # 43 played 5/2 4/off: gnubg's best is 4/off 3/off, the play made loses 0.014.
    _, decision = _play_at("galaxy_7pt_match11995639", 0, 3, "s70TAEC7uwMAAA")
    assert decision.played == "5/2 4/off" and decision.best == "4/off 3/off"
    assert decision.loss == pytest.approx(0.014, abs=0.0006) and decision.mark == ""


def test_a_hit_and_bear_off_is_marked_doubtful_as_gnubg_marks_it():
    # 61 played 6/5* 6/off: gnubg loses 0.047 against 6/off 1/off, doubtful.
    _, decision = _play_at("studio_13pt_llabba_diablodeldados", 0, 1, "tu1GAALvdgYAAA")
    assert decision.played == "6/5* 6/off" and decision.best == "6/off 1/off"
    assert decision.loss == pytest.approx(0.047, abs=0.0006) and decision.mark == "doubtful"


@pytest.mark.slow
def test_two_ply_is_gnubgs_two_ply():
    # 11 played 8/7(2) 6/5(2): gnubg's 2-ply best is 8/4 at -0.260, the play made -0.275.
    analysis, decision = _play_at("galaxy_3pt_match2561306", 2, 1, "yNsOBwBsPYMBAw")
    assert decision.played == "8/7(2) 6/5(2)" and decision.best == "8/4"
    assert decision.equity_best == pytest.approx(-0.260, abs=0.0006)
    assert decision.equity_played == pytest.approx(-0.275, abs=0.0006)
    assert decision.loss == pytest.approx(0.015, abs=0.0011)
    assert analysis.settings["depth"] == "2-ply" and analysis.settings["evaluated_plies"] == 2

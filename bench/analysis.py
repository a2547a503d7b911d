"""Analysis benchmark: how fast GNU Backgammon's verdict on a match is made (analysis.compute).

    .venv/bin/python bench/analysis.py [--file STEM] [--plies 0,2] [--long STEM] [--random-25]
                                       [--workers N]

It prints, for each depth asked:
- decisions examined per second on a real match (--file, from ../shared/data/mat): every checker
  play, every turn with the cube available and every answer to a double, as counted by
  ``decisions_total`` (the progress a worker reports);
- the time to analyse the longest real match on one process (--long; by default the longest
  file in ../shared/data/mat: the data holds no 25-point match, the longest is 17 points), and
  with --random-25 a seeded random 25-point match played by the engine's sensible-random player
  (its positions are stranger than real ones: a second figure, not a substitute);
- with --workers N, the same real match analysed by N processes at once (gnubg is one
  single-threaded engine per process, as in a prefork worker pool) and the speed-up over one.
Timings are CPU seconds of the analysing process (``time.process_time``) unless said "wall"; the
gnubg evaluation cache is emptied between runs by running each in a fresh child process.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.compute import analyse_match, decisions_total  # noqa: E402
from engine.formats.mat import check_mat, read_mat  # noqa: E402
from engine.match import MatchRules  # noqa: E402
from engine.randomgame import random_match_games  # noqa: E402

MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
DEFAULT_FILE = "galaxy_7pt_match11696104"


def load(stem: str) -> tuple[MatchRules, list]:
    if stem == "random-25":
        return MatchRules(25), random_match_games(random.Random(20261202), 25)
    checked = check_mat(read_mat((MAT_DIR / f"{stem}.mat").read_bytes()))
    return checked.rules, [list(game.replay.actions) for game in checked.games]


def longest_file() -> str:
    def size(path: Path) -> tuple[int, int]:
        checked = check_mat(read_mat(path.read_bytes()))
        return checked.length, sum(len(game.replay.actions) for game in checked.games)

    return max(MAT_DIR.glob("*.mat"), key=size).stem


def run_one(stem: str, plies: int) -> dict:
    """Analyse ``stem`` here (a fresh process: gnubg's cache starts empty) and report figures."""
    rules, games = load(stem)
    total = decisions_total(rules, games)
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyse_match(rules, games, plies=plies)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    listed = sum(len(game.decisions) for game in analysis.games)
    return {"stem": stem, "plies": plies, "length": rules.length, "games": len(games), "examined": total,
            "listed": listed, "cpu": cpu, "wall": wall,
            "pr": [round(side.pr, 2) for side in analysis.sides]}


def in_child(stem: str, plies: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--child", stem, "--plies", str(plies)],
                            stdout=subprocess.PIPE, text=True)


def child_result(process: subprocess.Popen) -> dict:
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"a benchmark child failed (exit {process.returncode})")
    return json.loads(out.strip().splitlines()[-1])


def describe(result: dict) -> str:
    return (f"{result['stem']} ({result['length']} points, {result['games']} games): {result['examined']} decisions"
            f" examined, {result['listed']} listed, {result['cpu']:.1f} s CPU ({result['wall']:.1f} s wall):"
            f" {result['examined'] / result['cpu']:.1f} decisions/s; PR {result['pr'][0]} / {result['pr'][1]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", default=DEFAULT_FILE, help="the real match for decisions per second")
    parser.add_argument("--plies", default="0,2", help="depths, comma-separated (0..3)")
    parser.add_argument("--long", default=None, help="the long match (default: the longest real file)")
    parser.add_argument("--skip-long", action="store_true", help="leave the long match out")
    parser.add_argument("--random-25", action="store_true", help="also a seeded random 25-point match")
    parser.add_argument("--workers", type=int, default=1, help="also N processes at once on --file")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    depths = [int(p) for p in args.plies.split(",")]
    if args.child:
        print(json.dumps(run_one(args.child, depths[0])))
        return

    for plies in depths:
        print(f"{plies}-ply:")
        print("  " + describe(child_result(in_child(args.file, plies))))
        if not args.skip_long:
            stem = args.long or longest_file()
            print("  longest real match: " + describe(child_result(in_child(stem, plies))))
        if args.random_25:
            print("  random 25-point match: " + describe(child_result(in_child("random-25", plies))))
        if args.workers > 1:
            start = time.perf_counter()
            one = child_result(in_child(args.file, plies))
            alone = time.perf_counter() - start
            start = time.perf_counter()
            results = [child_result(p) for p in [in_child(args.file, plies) for _ in range(args.workers)]]
            together = time.perf_counter() - start
            rate_one = one["examined"] / alone
            rate_many = sum(r["examined"] for r in results) / together
            print(f"  {args.workers} processes at once: {rate_many:.1f} decisions/s wall against {rate_one:.1f}"
                  f" for one: {rate_many / rate_one:.2f}x")


if __name__ == "__main__":
    main()

"""Analysis benchmark: our analysis (analysis.compute) against GNU Backgammon's own ``analyse match``.

    .venv/bin/python bench/analysis.py [--files STEM,...] [--plies 0,2] [--rounds N] [--files-2ply STEM,...]

Both sides analyse the same real matches (../shared/data/mat) at the same depth on the same
machine, in alternating rounds (gnubg's, ours, gnubg's, ours ...), and the script prints decisions
per second of each and their ratio (ours / gnubg's: above 1.0, ours is faster). A match's
decisions are the engine's count (``decisions_total``: every checker play, every turn with the
cube available, every answer to a double), the same number for both sides.

Two shapes are timed, each by wall clock, the median of the rounds:

- **whole process against whole process**: a fresh Python process each time. gnubg's own is
  driven as a player drives it: ``import mat``, ``analyse match``, ``show statistics match``,
  ``export match text`` (the verdict a player reads). Ours is ``analyse_match`` on the engine's
  replay of the same file (it writes the .mat, has gnubg analyse it, reads back the SGF and walks
  it beside the engine's replay), then the JSON the service stores, with the match's games shared
  between the process and ``--processes`` - 1 helpers (the service's ``CRAWFORD_ANALYSIS_PROCESSES``,
  2 by default); in a fresh process its helpers start fresh too.
- **warm process against warm process**: one process per side that has already loaded gnubg
  and analysed a first match, then analyses each file in turn: how a worker runs. Only the
  analysis of each file is timed; gnubg's evaluation cache is emptied before each file on both
  sides (ours before each game; gnubg's ``clear cache`` is sent first), so neither reuses the
  other files' evaluations.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
if not MAT_DIR.is_dir():
    MAT_DIR = Path("/work/shared/data/mat")
FILES_0 = "galaxy_3pt_match2561306,galaxy_7pt_match11696104,galaxy_17pt_match9102134"
FILES_2 = "galaxy_3pt_match2561306,gnubg_3pt_test_match01"

GNUBG_SETUP = """
import gnubg, os, sys, tempfile
SETTINGS = ("set sound enable off", "set player 0 human", "set player 1 human", "set display off", "set threads 1")
def gnubg_analyse(path, plies):
    out = tempfile.mkdtemp()
    saved = os.dup(1)
    sink = os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    try:
        for command in ("clear cache", *SETTINGS, f"set analysis chequerplay evaluation plies {plies}",
                        f"set analysis cubedecision evaluation plies {plies}", f'import mat "{path}"',
                        "analyse match", "show statistics match", f'export match text "{out}/match.txt"'):
            gnubg.command(command)
    finally:
        os.dup2(saved, 1)
"""

OURS_SETUP = """
import json, sys
sys.path.insert(0, {root!r})
from analysis.compute import analyse_match
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
def ours_analyse(path, plies):
    checked = check_mat(read_mat(open(path, "rb").read()))
    analysis = analyse_match(checked.rules, [list(game.replay.actions) for game in checked.games], plies=plies,
                             processes={processes})
    json.dumps(analysis.to_json())
"""

WHOLE = """
{setup}
{call}(sys.argv[1], int(sys.argv[2]))
"""

WARM = """
{setup}
import json, sys, time
{call}(sys.argv[1], 0)  # gnubg loaded, the nets read, a first match analysed
for line in sys.stdin:
    path, plies = line.split()
    start = time.perf_counter()
    {call}(path, int(plies))
    print(json.dumps(time.perf_counter() - start), flush=True)
"""


def decisions(stem: str) -> int:
    from analysis.compute import decisions_total
    from engine.formats.mat import read_mat
    from engine.formats.mat_check import check_mat

    checked = check_mat(read_mat((MAT_DIR / f"{stem}.mat").read_bytes()))
    return decisions_total(checked.rules, [list(game.replay.actions) for game in checked.games])


PROCESSES = 2


def code(side: str, template: str) -> str:
    setup = GNUBG_SETUP if side == "gnubg" else OURS_SETUP.format(root=str(ROOT), processes=PROCESSES)
    return template.format(setup=setup, call="gnubg_analyse" if side == "gnubg" else "ours_analyse")


def whole(side: str, stem: str, plies: int) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code(side, WHOLE), str(MAT_DIR / f"{stem}.mat"), str(plies)], check=True,
                   cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


class Warm:
    """One long-lived process of one side, timing each analysis it is asked for."""

    def __init__(self, side: str, first: str):
        self.process = subprocess.Popen([sys.executable, "-c", code(side, WARM), str(MAT_DIR / f"{first}.mat")],
                                        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def time(self, stem: str, plies: int) -> float:
        self.process.stdin.write(f"{MAT_DIR / f'{stem}.mat'} {plies}\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def report(label: str, stems: list[str], plies: int, times: dict[str, dict[str, list[float]]]) -> float:
    rates = {}
    for side in ("gnubg", "ours"):
        total_time = sum(statistics.median(times[side][stem]) for stem in stems)
        rates[side] = sum(decisions(stem) for stem in stems) / total_time
    for stem in stems:
        gnubg, ours = (statistics.median(times[side][stem]) for side in ("gnubg", "ours"))
        print(f"    {stem}: {decisions(stem)} decisions; gnubg's own {gnubg:.3f} s, ours {ours:.3f} s"
              f" ({gnubg / ours:.2f}x)")
    ratio = rates["ours"] / rates["gnubg"]
    print(f"  {label}, {plies}-ply: gnubg's own {rates['gnubg']:.1f} decisions/s, ours {rates['ours']:.1f}"
          f" decisions/s: ours / gnubg's = {ratio:.2f}x")
    return ratio


def main() -> None:
    global PROCESSES
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", default=FILES_0, help="the real matches at 0-ply, comma-separated")
    parser.add_argument("--files-2ply", default=FILES_2, help="the real matches at 2-ply (and deeper)")
    parser.add_argument("--plies", default="0,2", help="depths, comma-separated (0..3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each side (alternating)")
    parser.add_argument("--processes", type=int, default=PROCESSES,
                        help="processes sharing our analysis of a match (the service's CRAWFORD_ANALYSIS_PROCESSES)")
    args = parser.parse_args()
    PROCESSES = args.processes
    print(f"ours: {PROCESSES} process(es) a match; gnubg's own: one process, as gnubg runs")
    for plies in (int(p) for p in args.plies.split(",")):
        stems = (args.files if plies == 0 else args.files_2ply).split(",")
        print(f"{plies}-ply, {args.rounds} alternating rounds, medians:")
        times = {side: {stem: [] for stem in stems} for side in ("gnubg", "ours")}
        for _ in range(args.rounds):
            for stem in stems:
                for side in ("gnubg", "ours"):
                    times[side][stem].append(whole(side, stem, plies))
        report("whole process against whole process", stems, plies, times)
        warm = {side: Warm(side, stems[0]) for side in ("gnubg", "ours")}
        times = {side: {stem: [] for stem in stems} for side in ("gnubg", "ours")}
        try:
            for _ in range(args.rounds):
                for stem in stems:
                    for side in ("gnubg", "ours"):
                        times[side][stem].append(warm[side].time(stem, plies))
        finally:
            for process in warm.values():
                process.close()
        report("warm process against warm process", stems, plies, times)


if __name__ == "__main__":
    main()

"""Engine benchmark: prints figures, and ratios against GNU Backgammon measured in the same run.

    .venv/bin/python bench/engine.py [--positions N] [--seed S]

On a fixed, seeded corpus of positions from random games it measures:
- microseconds per position to generate every legal play, and the ratio to gnubg's
  ``find_best_moves`` at 0-ply on the same positions (gnubg generates the plays in C and scores
  each with its neural net; we only generate);
- recorded plays validated per second (one written play per position, parsed and checked);
- the time to read, replay and check every .mat file in ../shared/data/mat, and a 25-point
  match log (written as .mat, then read and checked);
- peak memory of the engine alone, in a child process that never loads gnubg.
Targets from the engine issue are printed next to each figure. Timings take the best of a few
rounds, to keep the noise of a shared machine out of the ratios.
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

from engine.formats.mat import check_mat, match_from_actions, read_mat, write_mat  # noqa: E402
from engine.match import MatchRules  # noqa: E402
from engine.moves import legal_plays, parse_play, validate_play  # noqa: E402
from engine.randomgame import random_match_games, random_positions  # noqa: E402

MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
ROUNDS = 3


def best_of(rounds: int, work) -> float:
    """The fastest of ``rounds`` runs of ``work()``, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def recorded_plays(corpus, seed: int) -> list:
    rng = random.Random(seed)
    records = []
    for position, dice in corpus:
        plays = legal_plays(position, dice)
        if plays:
            records.append((position, dice, rng.choice(plays).notation))
    return records


def validate_all(records) -> None:
    parse_play.cache_clear()  # each round parses the written plays afresh
    for position, dice, text in records:
        validate_play(position, dice, text)


def mat_files() -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in sorted(MAT_DIR.glob("*.mat"))]


def check_all(files) -> None:
    for _, data in files:
        check_mat(read_mat(data))


def long_match_text(seed: int) -> tuple[str, int, int]:
    games = random_match_games(random.Random(seed), 25)
    checked = match_from_actions(("Alice", "Bob"), MatchRules(25), games)
    return write_mat(checked), len(games), sum(len(g) for g in games)


def engine_memory(positions: int, seed: int) -> dict:
    """Run the engine's work in this process (no gnubg) and report its peak resident memory.

    (tracemalloc is not used: its own bookkeeping would multiply the figure it measures.)
    """
    corpus = random_positions(seed, positions)
    validate_all(recorded_plays(corpus, seed))
    for position, dice in corpus:
        legal_plays(position, dice)
    check_all(mat_files())
    text, _, _ = long_match_text(seed)
    check_mat(read_mat(text))
    # VmHWM (peak resident set of this address space) rather than ru_maxrss, which Linux carries
    # over from the benchmark process that spawned this one.
    status = Path("/proc/self/status").read_text()
    peak_kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    return {"process_maxrss_mb": peak_kb / 1024}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        print(json.dumps(engine_memory(args.positions, args.seed)))
        return

    import gnubg  # test-time oracle, only for the ratio

    corpus = random_positions(args.seed, args.positions)
    print(f"corpus: {len(corpus)} positions from seeded random games (seed {args.seed})")

    ours = best_of(ROUNDS, lambda: [legal_plays(p, d) for p, d in corpus])
    cube, context = gnubg.cube_info(), gnubg.eval_context(0, 0, 1, 0, 0.0)
    boards = [(p.to_gnubg(), d) for p, d in corpus]
    # gnubg caches its evaluations: the first pass is its real cost on new positions, later
    # passes hit the cache. Both are printed; the target is judged on the cold pass.
    cold = best_of(1, lambda: [gnubg.find_best_moves(b, cube, context, d) for b, d in boards])
    warm = best_of(ROUNDS, lambda: [gnubg.find_best_moves(b, cube, context, d) for b, d in boards])
    per = len(corpus) / 1e6
    print(f"all legal plays: {ours / per:.1f} us/position; gnubg find_best_moves 0-ply: {cold / per:.1f} us/position"
          f" on new positions, {warm / per:.1f} us/position from its evaluation cache")
    print(f"  ratio ours/gnubg: {ours / cold:.2f}x on new positions (target: at most 5x), "
          f"{ours / warm:.2f}x against its cache")

    records = recorded_plays(corpus, args.seed)
    elapsed = best_of(ROUNDS, lambda: validate_all(records))
    rate = len(records) / elapsed
    print(f"recorded plays validated: {rate:,.0f}/s over {len(records)} plays  (target: at least 50,000/s)")

    files = mat_files()
    elapsed = best_of(ROUNDS, lambda: check_all(files))
    games = sum(len(check_mat(read_mat(data)).games) for _, data in files)
    print(f"all {len(files)} .mat files in shared/data/mat ({games} games): {elapsed * 1000:.1f} ms to read, replay and check")

    text, n_games, n_actions = long_match_text(args.seed)
    elapsed = best_of(ROUNDS, lambda: check_mat(read_mat(text)))
    print(f"25-point match log ({n_games} games, {n_actions} actions): {elapsed * 1000:.1f} ms, "
          f"{elapsed / n_actions * 1e6:.1f} us per action  (target: under 20 ms)")

    child = subprocess.run(
        [sys.executable, __file__, "--memory-child", "--positions", str(args.positions), "--seed", str(args.seed)],
        capture_output=True, text=True, check=True,
    )
    memory = json.loads(child.stdout)
    print(f"peak memory, engine alone (interpreter included): {memory['process_maxrss_mb']:.1f} MB resident"
          "  (target: under 50 MB)")


if __name__ == "__main__":
    main()

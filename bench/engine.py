"""Engine benchmark: prints figures, and ratios against GNU Backgammon measured in the same run.

    .venv/bin/python bench/engine.py [--positions N] [--seed S] [--rounds R]

On a fixed, seeded corpus of positions from random games it measures:
- microseconds per position to generate every legal play, and the ratio to gnubg's
  ``find_best_moves`` at 0-ply on the same positions (gnubg generates the plays in C and scores
  each with its neural net; we only generate), on new positions and from its evaluation cache;
- leaves per distinct play: complete sequences of steps the generator looks at for each play
  it returns (1.61 when every non-double explored both dice orders);
- recorded plays validated per second (one written play per position, parsed and checked);
- the time to read, replay and check every .mat file in ../shared/data/mat, and a 25-point
  match log (written as .mat, then read and checked);
- peak memory of the engine alone, in a child process that never loads gnubg.
Goals are printed next to each figure, and the exit status is 1 when one is missed. Timings
are CPU time of this process (``time.process_time``), the best of a few rounds; our generation
and gnubg's are timed in alternate rounds, so that a busy spell of a shared machine weighs on
both sides of the ratio.
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

from engine.formats.mat import read_mat  # noqa: E402
from engine.formats.mat_check import check_mat, match_from_actions  # noqa: E402
from engine.formats.mat_write import write_mat  # noqa: E402
from engine.match import MatchRules  # noqa: E402
from engine.moves import generation_count, legal_plays  # noqa: E402
from engine.notation import parse_play  # noqa: E402
from engine.randomgame import random_match_games, random_positions  # noqa: E402
from engine.validation import validate_play  # noqa: E402

MAT_DIR = ROOT.parent / "shared" / "data" / "mat"
ROUNDS = 5
# Goals: the engine's validation and generation rates, a match log's time and the memory used.
VALIDATION_GOAL = 100_000  # recorded plays per second
WARM_RATIO_GOAL = 2.0  # our generation / gnubg's with its evaluation cache warm
COLD_RATIO_GOAL = 5.0  # our generation / gnubg's on new positions
MATCH_LOG_GOAL_MS = 20.0
MEMORY_GOAL_MB = 50.0


def timed(work) -> float:
    """CPU seconds of one run of ``work()``."""
    start = time.process_time()
    work()
    return time.process_time() - start


def best_of(rounds: int, *works) -> list[float]:
    """The fastest of ``rounds`` runs of each of ``works``, taken in alternate order, in seconds."""
    best = [float("inf")] * len(works)
    for _ in range(rounds):
        for index, work in enumerate(works):
            best[index] = min(best[index], timed(work))
    return best


def recorded_plays(corpus, seed: int) -> list:
    rng = random.Random(seed)
    records = []
    for position, dice in corpus:
        plays = legal_plays(position, dice)
        if plays:
            play = rng.choice(plays)
            records.append((position, dice, play.notation, play.dice_used))
    return records


def validate_all(records) -> None:
    parse_play.cache_clear()  # each round parses the written plays afresh
    for position, dice, text, _ in records:
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
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timed rounds; the best counts")
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        print(json.dumps(engine_memory(args.positions, args.seed)))
        return

    import gnubg  # test-time oracle, only for the ratio

    corpus = random_positions(args.seed, args.positions)
    print(f"corpus: {len(corpus)} positions from seeded random games (seed {args.seed})")
    missed = []

    def goal(met: bool, what: str) -> str:
        if not met:
            missed.append(what)
        return "met" if met else "MISSED"

    cube, context = gnubg.cube_info(), gnubg.eval_context(0, 0, 1, 0, 0.0)
    boards = [(p.to_gnubg(), d) for p, d in corpus]

    def ours() -> None:
        for position, dice in corpus:
            legal_plays(position, dice)

    def theirs() -> None:
        for board, dice in boards:
            gnubg.find_best_moves(board, cube, context, dice)

    # gnubg caches its evaluations: the first pass is its real cost on new positions, later
    # passes hit the cache. Both are compared.
    cold = timed(theirs)
    mine, warm = best_of(args.rounds, ours, theirs)
    per = len(corpus) / 1e6
    print(f"all legal plays: {mine / per:.1f} us/position; gnubg find_best_moves 0-ply: {cold / per:.1f} us/position"
          f" on new positions, {warm / per:.1f} us/position from its evaluation cache")
    cold_ratio, warm_ratio = mine / cold, mine / warm
    print(f"  ratio ours/gnubg on new positions: {cold_ratio:.2f}x  (goal: at most {COLD_RATIO_GOAL:g}x: "
          f"{goal(cold_ratio <= COLD_RATIO_GOAL, 'generation against gnubg on new positions')})")
    print(f"  ratio ours/gnubg against its cache: {warm_ratio:.2f}x  (goal: at most {WARM_RATIO_GOAL:g}x: "
          f"{goal(warm_ratio <= WARM_RATIO_GOAL, 'generation against gnubg from its cache')})")
    counts = [generation_count(p, d) for p, d in corpus]
    leaves, plays = sum(c[0] for c in counts), sum(c[1] for c in counts)
    print(f"  leaves per distinct play: {leaves / plays:.2f} ({leaves} sequences looked at for {plays} plays;"
          " 1.61 with both dice orders everywhere)")

    records = recorded_plays(corpus, args.seed)
    (elapsed,) = best_of(args.rounds, lambda: validate_all(records))
    rate = len(records) / elapsed
    print(f"recorded plays validated: {rate:,.0f}/s over {len(records)} plays  (goal: at least {VALIDATION_GOAL:,}/s: "
          f"{goal(rate >= VALIDATION_GOAL, 'validation')})")
    # A play written with one checker using several dice (13/10 with 2-1) takes its own path.
    joined = [r for r in records if len(parse_play(r[2])) < r[3]]
    others = [r for r in records if len(parse_play(r[2])) >= r[3]]
    joined_time, others_time = best_of(args.rounds, lambda: validate_all(joined), lambda: validate_all(others))
    print(f"  {len(joined)} plays with a checker using several dice: {joined_time / len(joined) * 1e6:.1f} us each;"
          f" the other {len(others)}: {others_time / len(others) * 1e6:.1f} us each")

    files = mat_files()
    (elapsed,) = best_of(args.rounds, lambda: check_all(files))
    games = sum(len(check_mat(read_mat(data)).games) for _, data in files)
    print(f"all {len(files)} .mat files in shared/data/mat ({games} games): {elapsed * 1000:.1f} ms to read, replay and check")

    text, n_games, n_actions = long_match_text(args.seed)
    (elapsed,) = best_of(args.rounds, lambda: check_mat(read_mat(text)))
    print(f"25-point match log ({n_games} games, {n_actions} actions): {elapsed * 1000:.1f} ms, "
          f"{elapsed / n_actions * 1e6:.1f} us per action  (goal: under {MATCH_LOG_GOAL_MS:g} ms: "
          f"{goal(elapsed * 1000 < MATCH_LOG_GOAL_MS, 'match log')})")

    child = subprocess.run(
        [sys.executable, __file__, "--memory-child", "--positions", str(args.positions), "--seed", str(args.seed)],
        capture_output=True, text=True, check=True,
    )
    memory = json.loads(child.stdout)["process_maxrss_mb"]
    print(f"peak memory, engine alone (interpreter included): {memory:.1f} MB resident"
          f"  (goal: under {MEMORY_GOAL_MB:g} MB: {goal(memory < MEMORY_GOAL_MB, 'memory')})")
    if missed:
        print(f"goals missed: {', '.join(missed)}")
        sys.exit(1)
    print("all goals met")

if __name__ == "__main__":
    main()

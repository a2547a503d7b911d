"""Draw benchmark: prints how long the pure draw takes on the event sizes of the tournaments issue.

    .venv/bin/python bench/draw.py [--seed S] [--rounds N]

It measures, against the targets of issue 4 (point 10):
- the draw of a 1,024-entrant bracket with a progressive consolation flight (losers of main
  rounds 1..3) and a last-chance flight: random seeding from a recorded seed, the main bracket,
  both fed flights, and the first pairings (``advance`` with no results). Target: under 0.5 s.
- the pairing of one Swiss round of 1,000 players after 6 rounds, the 6 rounds simulated with
  results drawn from a seeded ``random.Random``. Target: under 2 s. Printed twice: without
  restrictions, and with ten-player clubs whose members may not meet.
Also printed, without targets: the state of the full 1,024 bracket once every result is in.

Not here yet: the issue's third figure, the standings endpoint's throughput for a 256-player
Swiss after 8 rounds as a ratio to a no-op endpoint (and the same query count for 16 and 256
players). It needs the Django side of the tournaments app (models, selectors, API) and will join
``bench/api.py``'s server harness when that exists.

Timings take the best of a few rounds, to keep the noise of a shared machine out.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.draw import (  # noqa: E402
    Result,
    SwissRound,
    add_consolation,
    advance,
    pair_round,
    seed_randomly,
    single_elimination,
)

ROUNDS = 3


def best_of(rounds: int, work):
    """The fastest of ``rounds`` runs of ``work()`` in seconds, and its last answer."""
    best, answer = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        answer = work()
        best = min(best, time.perf_counter() - start)
    return best, answer


def draw_bracket(entrants: list[str], seed: int):
    bracket = single_elimination(seed_randomly(entrants, seed), lengths=[5, 5, 7, 9])
    bracket = add_consolation(bracket, rounds=3, lengths=[3, 5])
    bracket = add_consolation(bracket, name="last_chance", source="consolation", rounds=1, lengths=3)
    return bracket, advance(bracket, {}).ready()


def play_out(bracket, rng: random.Random) -> dict:
    results: dict = {}
    while pairings := advance(bracket, results).ready():
        for p in pairings:
            results[p.id] = rng.choice((p.top, p.bottom))
    return results


def swiss_history(entrants: list[int], rounds: int, rng: random.Random, clubs=None) -> list[SwissRound]:
    history: list[SwissRound] = []
    for _ in range(rounds):
        answer = pair_round(entrants, history, lengths=5, clubs=clubs)
        if not answer.ok:
            raise SystemExit(f"round {answer.round} could not be paired: {answer.message}")
        results = tuple(Result(p.top, p.bottom, rng.choice((p.top, p.bottom))) for p in answer.pairings)
        history.append(SwissRound(answer.round, results, answer.bye))
    return history


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--rounds", type=int, default=6, help="Swiss rounds played before the timed one")
    args = parser.parse_args()

    entrants = [f"player {i:04}" for i in range(1, 1025)]
    elapsed, (bracket, first) = best_of(ROUNDS, lambda: draw_bracket(entrants, args.seed))
    flights = ", ".join(f"{f.name} {f.rounds} rounds" for f in bracket.flights)
    print(f"1,024-entrant bracket with a progressive consolation (main rounds 1-3) and a last chance: "
          f"{elapsed * 1000:.1f} ms to draw ({len(bracket.matches)} matches; {flights}; "
          f"{len(first)} first pairings)  (target: under 500 ms)")

    results = play_out(bracket, random.Random(args.seed))
    elapsed, state = best_of(ROUNDS, lambda: advance(bracket, results))
    print(f"  the same bracket with all {len(results)} results in: {elapsed * 1000:.1f} ms to advance, "
          f"{len(state.placings())} placings")

    players = list(range(1, 1001))
    for label, clubs in (("no restrictions", None), ("clubs of ten kept apart", {p: p % 100 for p in players})):
        history = swiss_history(players, args.rounds, random.Random(args.seed), clubs)
        elapsed, answer = best_of(ROUNDS, lambda h=history, c=clubs: pair_round(players, h, lengths=5, clubs=c))
        assert answer.ok, answer
        print(f"Swiss round {answer.round} of 1,000 players after {args.rounds} rounds ({label}): "
              f"{elapsed * 1000:.1f} ms to pair {len(answer.pairings)} matches  (target: under 2,000 ms)")
    print("standings endpoint throughput (256-player Swiss after 8 rounds): not measured yet; it comes with the "
          "Django side of the tournaments app")


if __name__ == "__main__":
    main()

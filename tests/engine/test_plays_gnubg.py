"""Differential test: our legal plays against GNU Backgammon's, position by position.

gnubg's ``find_best_moves`` lists one move tuple per distinct resulting position. Its Python
binding cuts a tuple short at the first checker borne off (0 ends the C array), so a tuple whose
length is odd ends with the point of that bear-off and the rest of the play is unknown. Complete
tuples are compared exactly; cut ones are matched to our remaining plays by what can follow the
known prefix, and the whole set must match one to one.
"""

import random

import pytest

from engine.board import BAR, OFF, Position
from engine.moves import legal_plays
from engine.randomgame import random_positions

gnubg = pytest.importorskip("gnubg")

CASES = 20_000
pytestmark = pytest.mark.oracle


def _apply(me: list, opp: list, s: int, t: int) -> None:
    me[s] -= 1
    me[t] += 1
    if t > 0 and opp[25 - t] == 1:
        opp[25 - t] = 0
        opp[BAR] += 1


def _continuations(me: list, opp: list, dice: list[int]) -> set:
    """Every position reachable by playing some of ``dice`` step by step (any order)."""
    found = {(tuple(me), tuple(opp))}
    for i, d in enumerate(set(dice)):
        rest = list(dice)
        rest.remove(d)
        sources = (BAR,) if me[BAR] else range(24, 0, -1)
        for s in sources:
            if not me[s]:
                continue
            t = s - d
            if t > 0 and opp[25 - t] > 1:
                continue
            if t <= 0 and (any(me[7:26]) or (t < 0 and any(me[s + 1:7]))):
                continue
            m2, o2 = list(me), list(opp)
            _apply(m2, o2, s, max(t, 0))
            found |= _continuations(m2, o2, rest)
        del i
    return found


def _gnubg_results(position: Position, dice) -> tuple[set, list]:
    """(positions of complete tuples, candidate sets of cut tuples), as (mover, opponent) keys."""
    moves = gnubg.find_best_moves(position.to_gnubg(), CUBE, EVAL, tuple(dice))
    full, cut = set(), []
    all_dice = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for entry in moves:
        flat = list(entry["move"])
        truncated = len(flat) % 2 == 1
        if truncated:
            flat.append(OFF)
        me, opp = list(position.mover), list(position.opponent)
        used = []
        for s, t in zip(flat[::2], flat[1::2], strict=True):
            _apply(me, opp, s, t)
            used.append(s - t)
        if not truncated:
            full.add((tuple(me), tuple(opp)))
            continue
        candidates = set()
        # The die behind the bear-off may be larger than its distance: try each reading.
        for die in set(all_dice):
            rest = list(all_dice)
            ok = True
            for distance in [*used[:-1], die]:
                if distance in rest:
                    rest.remove(distance)
                else:
                    ok = False
            if ok and die >= used[-1]:
                candidates |= _continuations(me, opp, rest)
        cut.append(candidates)
    return full, cut


def _match(cut: list[set], ours: set) -> bool:
    """A one-to-one assignment of cut tuples to our plays (augmenting paths, tiny graphs)."""
    owner: dict = {}

    def assign(i: int, seen: set) -> bool:
        for key in cut[i] & ours:
            if key in seen:
                continue
            seen.add(key)
            if key not in owner or assign(owner[key], seen):
                owner[key] = i
                return True
        return False

    return all(assign(i, set()) for i in range(len(cut)))


CUBE = gnubg.cube_info()
EVAL = gnubg.eval_context(0, 0, 1, 0, 0.0)


def _kind(position: Position) -> str:
    me, opp = position.mover, position.opponent
    if me[BAR] or opp[BAR]:
        return "bar"
    if position.all_home(position.turn) or position.all_home(1 - position.turn):
        return "bear-off"
    front = max(p for p in range(1, 25) if me[p])
    if front < 25 - max(p for p in range(1, 25) if opp[p]):
        return "race"
    made = [p for p in range(1, 25) if me[p] >= 2]
    longest = run = 0
    for p in range(1, 25):
        run = run + 1 if p in made else 0
        longest = max(longest, run)
    return "prime" if longest >= 4 else "contact"


@pytest.mark.slow
def test_it_finds_exactly_the_plays_gnubg_finds_on_20000_positions_from_random_games():
    corpus = random_positions(2026, CASES)
    kinds: dict[str, int] = {}
    failures = []
    for position, dice in corpus:
        kinds[_kind(position)] = kinds.get(_kind(position), 0) + 1
        ours = {(p.position.boards[position.turn], p.position.boards[1 - position.turn])
                for p in legal_plays(position, dice)}
        full, cut = _gnubg_results(position, dice)
        if not ours:
            # gnubg lists the unchanged position once when nothing can be played.
            expected_none = full <= {(position.mover, position.opponent)} and not cut
            if not expected_none:
                failures.append((position, dice))
            continue
        if len(ours) != len(full) + len(cut) or not full <= ours or not _match(cut, ours - full):
            failures.append((position, dice))
    assert not failures[:5], f"{len(failures)} positions differ from gnubg, e.g. {failures[:3]}"
    # The corpus really covers the kinds of position the rules treat differently.
    assert all(kinds.get(kind, 0) >= 100 for kind in ("bar", "bear-off", "race", "prime", "contact")), kinds


@pytest.mark.parametrize("seed", range(5))
def test_it_agrees_with_gnubg_on_every_roll_of_sampled_positions(seed):
    rng = random.Random(seed)
    positions = [p for p, _ in random_positions(seed + 100, 400)]
    for position in rng.sample(positions, 20):
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                ours = {(p.position.boards[position.turn], p.position.boards[1 - position.turn])
                        for p in legal_plays(position, (d1, d2))}
                full, cut = _gnubg_results(position, (d1, d2))
                if ours:
                    assert len(ours) == len(full) + len(cut) and full <= ours and _match(cut, ours - full)

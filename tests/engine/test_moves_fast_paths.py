"""The fast paths of move generation and validation give exactly what the general ones gave.

Generation: :func:`legal_plays` against a frozen copy of the generator it replaced (both dice
orders for every non-double, a position key built for every leaf), on random positions and dice
with bar entries, bear-offs and doubles, and on positions from random games: the same plays, in
the same order, with the same steps. Validation: :func:`validate_play` against the general search
alone (:class:`_Search`, then the check that as many dice as possible are used), for the written
form of every legal play, the same play written one die at a time, and random hops, legal or not:
the same play or the same error. The oracle tests (``test_plays_gnubg.py``) hold the frozen
generator's answers to GNU Backgammon's.
"""

import hypothesis
import pytest
from hypothesis import strategies as st

from engine.board import BAR, CHECKERS, OFF, Position
from engine.errors import IllegalPlay, NotationError
from engine.moves import Play, generation_count, legal_plays, max_dice_playable
from engine.notation import Hop, parse_play
from engine.randomgame import random_positions
from engine.validation import _as_written, _first_route, _Search, validate_play

# --- the generator as it was (engine/moves.py before the fast paths), frozen ------------------


def _record(results: dict, me: list, opp: list, steps: list, used: int, die: int) -> None:
    key = (tuple(me), tuple(opp))
    known = results.get(key)
    # A position reached by several sequences keeps the one that uses the most dice (and, with
    # one die, the higher die): only those count when the maximum-dice rule filters the plays.
    if known is None or (used, die) > (known[1], known[2]):
        results[key] = (tuple(steps), used, die)


def _generate_mixed(me: list, opp: list, hi: int, lo: int) -> dict:
    """Plays of a non-double roll (hi > lo): both orders of the two dice, then the filters.

    The step (legality, move, hit, undo) is written out in place rather than called: this loop
    is the engine's hot path, and a call per step costs about a third of its time.
    """
    results: dict = {}
    far = sum(me[7:26])
    for first, second in ((hi, lo), (lo, hi)):
        sources = (BAR,) if me[BAR] else range(24, 0, -1)
        for s in sources:
            if not me[s]:
                continue
            t = s - first
            if t > 0:
                if opp[25 - t] > 1:
                    continue
            elif far or (t < 0 and any(me[s + 1:7])):
                continue
            else:
                t = 0
            # apply the first step
            me[s] -= 1
            me[t] += 1
            hit = t > 0 and opp[25 - t] == 1
            if hit:
                opp[25 - t] = 0
                opp[BAR] += 1
            far2 = far - (s > 6 and t <= 6)
            if me[OFF] == CHECKERS:
                _record(results, me, opp, [(s, t)], 2, hi)
            else:
                played_second = False
                sources2 = (BAR,) if me[BAR] else range(24, 0, -1)
                for s2 in sources2:
                    if not me[s2]:
                        continue
                    t2 = s2 - second
                    if t2 > 0:
                        if opp[25 - t2] > 1:
                            continue
                    elif far2 or (t2 < 0 and any(me[s2 + 1:7])):
                        continue
                    else:
                        t2 = 0
                    played_second = True
                    me[s2] -= 1
                    me[t2] += 1
                    hit2 = t2 > 0 and opp[25 - t2] == 1
                    if hit2:
                        opp[25 - t2] = 0
                        opp[BAR] += 1
                    _record(results, me, opp, [(s, t), (s2, t2)], 2, hi)
                    if hit2:
                        opp[25 - t2] = 1
                        opp[BAR] -= 1
                    me[t2] -= 1
                    me[s2] += 1
                if not played_second:
                    _record(results, me, opp, [(s, t)], 1, first)
            # undo the first step
            if hit:
                opp[25 - t] = 1
                opp[BAR] -= 1
            me[t] -= 1
            me[s] += 1
    return results


def _generate_double(me: list, opp: list, d: int) -> dict:
    """Plays of a double: up to four steps of ``d``.

    Steps are taken from non-increasing source points: any legal sequence can be reordered that
    way (moving a higher checker first never closes a point nor spoils a bear-off), so this visits
    every resulting position while skipping most permutations of the same steps.
    """
    results: dict = {}
    steps: list = []

    def walk(start: int, depth: int, far: int) -> None:
        moved = False
        if depth < 4 and me[OFF] < CHECKERS:
            sources = (BAR,) if me[BAR] else range(min(start, 24), 0, -1)
            for s in sources:
                if not me[s]:
                    continue
                t = s - d
                if t > 0:
                    if opp[25 - t] > 1:
                        continue
                elif far or (t < 0 and any(me[s + 1:7])):
                    continue
                else:
                    t = 0
                moved = True
                me[s] -= 1
                me[t] += 1
                hit = t > 0 and opp[25 - t] == 1
                if hit:
                    opp[25 - t] = 0
                    opp[BAR] += 1
                steps.append((s, t))
                walk(s, depth + 1, far - (s > 6 and t <= 6))
                steps.pop()
                if hit:
                    opp[25 - t] = 1
                    opp[BAR] -= 1
                me[t] -= 1
                me[s] += 1
        if not moved and depth:
            _record(results, me, opp, steps, 4 if me[OFF] == CHECKERS else depth, d)

    walk(BAR, 0, sum(me[7:26]))
    return results


def _best(results: dict, hi: int) -> list:
    """Keep the plays that use the most dice; with one die only, the higher die where it can."""
    if not results:
        return []
    most = max(used for _, used, _ in results.values())
    kept = [(key, steps, used, die) for key, (steps, used, die) in results.items() if used == most]
    if most == 1 and any(die == hi for _, _, _, die in kept):
        kept = [entry for entry in kept if entry[3] == hi]
    return kept


def frozen_legal_plays(position: Position, dice) -> list[Play]:
    """Every legal play of ``dice`` for the side on roll, one per distinct resulting position.

    An empty list means no die can be played: the turn passes. Raises :class:`IllegalPlay`
    (code ``bad_dice``) for dice outside 1..6.
    """
    d1, d2 = dice
    turn = position.turn
    me, opp = list(position.mover), list(position.opponent)
    hi, lo = max(d1, d2), min(d1, d2)
    results = _generate_double(me, opp, hi) if hi == lo else _generate_mixed(me, opp, hi, lo)
    plays = []
    for (mine, theirs), steps, used, _ in _best(results, hi):
        boards = (mine, theirs) if turn == 0 else (theirs, mine)
        plays.append(Play(position, steps, Position(boards, 1 - turn), used))
    return plays


# --- random positions -----------------------------------------------------------------------

# Where the side on roll's checkers may stand, by kind of position: anywhere (contact, primes),
# some on the bar (entries), all home or one checker outside (bear-offs and the last checker
# coming in), home with a few borne off.
_REGIONS = {
    "anywhere": list(range(1, 25)),
    "bar": [BAR, BAR, *range(1, 25)],
    "home": list(range(1, 7)),
    "almost_home": [*range(1, 7), *range(1, 7), 7, 9, 12, 18, 24],
}


@st.composite
def positions(draw) -> Position:
    """A legal position: fifteen checkers a side, no point shared, either side on roll."""
    region = draw(st.sampled_from(sorted(_REGIONS)))
    mine = [0] * 26
    off = draw(st.integers(0, 14 if region in ("home", "almost_home") else 3))
    mine[OFF] = off
    for point in draw(st.lists(st.sampled_from(_REGIONS[region]), min_size=CHECKERS - off, max_size=CHECKERS - off)):
        mine[point] += 1
    if region == "bar" and not mine[BAR]:
        mine[BAR] = 1
        mine[draw(st.sampled_from([p for p in range(1, 25) if mine[p]] or [OFF]))] -= 1
    # The opponent's points (its own numbering) that the side on roll does not hold.
    free = [q for q in range(1, 25) if not mine[25 - q]]
    theirs = [0] * 26
    their_off = draw(st.integers(0, 5))
    theirs[OFF] = their_off
    spots = st.sampled_from([*free, BAR]) if draw(st.booleans()) else st.sampled_from(free)
    for point in draw(st.lists(spots, min_size=CHECKERS - their_off, max_size=CHECKERS - their_off)):
        theirs[point] += 1
    turn = draw(st.integers(0, 1))
    boards = (tuple(mine), tuple(theirs)) if turn == 0 else (tuple(theirs), tuple(mine))
    return Position.from_sides(*boards, turn=turn)


dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))
# Doubles drawn as often as the rest: they have their own fast path.
rolls = st.one_of(dice_rolls, st.integers(1, 6).map(lambda d: (d, d)))


def as_tuples(plays: list[Play]) -> list[tuple]:
    return [(play.before, play.steps, play.position, play.dice_used) for play in plays]


# --- generation -----------------------------------------------------------------------------


@hypothesis.settings(deadline=None, max_examples=800)
@hypothesis.given(position=positions(), dice=rolls)
def test_it_generates_the_plays_of_the_frozen_generator_in_its_order(position, dice):
    assert as_tuples(legal_plays(position, dice)) == as_tuples(frozen_legal_plays(position, dice))


@pytest.mark.parametrize("seed", [20261129, 31])
def test_it_generates_the_plays_of_the_frozen_generator_over_random_games(seed):
    differing = [
        (str(position), dice)
        for position, dice in random_positions(seed, 4000)
        if as_tuples(legal_plays(position, dice)) != as_tuples(frozen_legal_plays(position, dice))
    ]
    assert not differing, f"{len(differing)} positions differ, e.g. {differing[:3]}"


def _position(mine: dict, theirs: dict, *, bar: int = 0) -> Position:
    """Side 0 on roll with ``mine``; ``theirs`` written in side 0's numbering."""
    me = [0] * 26
    for point, count in mine.items():
        me[point] = count
    me[BAR] = bar
    me[OFF] = CHECKERS - sum(me)
    opp = [0] * 26
    for point, count in theirs.items():
        opp[25 - point] = count
    opp[OFF] = CHECKERS - sum(opp)
    return Position.from_sides(tuple(me), tuple(opp))


@pytest.mark.parametrize(
    ("position", "dice", "written"),
    [
        # One checker on the bar, the 19 held: only the 5 enters, then the 6 moves on.
        pytest.param(_position({6: 14}, {19: 2}, bar=1), (6, 5), {"bar/14"}, id="bar"),
        # The 2 brings the last checker home, then the 5 bears off from the 5: only in that order.
        pytest.param(_position({8: 1, 5: 1, 1: 13}, {20: 2}), (5, 2), {"8/6 5/off"}, id="bear-off"),
        # 13/10 with 2-1 when the 11 is held: only through the 12, the 1 first (hitting there).
        pytest.param(_position({13: 2, 6: 13}, {11: 2, 12: 1}), (2, 1), {"13/12*/10"}, id="held"),
    ],
)
def test_it_finds_the_plays_only_one_order_of_the_dice_gives(position, dice, written):
    plays = legal_plays(position, dice)
    assert {play.notation for play in plays} >= written
    assert as_tuples(plays) == as_tuples(frozen_legal_plays(position, dice))


def test_it_looks_at_fewer_sequences_than_plays_times_two_orders():
    # 6-5 from the start, worked out by hand: 6s 24/18, 13/7, 8/2; 5s 13/8, 8/3 (24/19 and 6/1
    # held). After each 6, the 5s: 18/13 13/8 8/3, 13/8 8/3 7/2, 13/8 8/3 (8 sequences); the
    # 5 then the 6 with one checker adds 13/8/2 (the 8/3/-3 cannot). 13/2 is reached three
    # ways: 7 plays out of 9 sequences, where both orders of the dice looked at 14.
    assert generation_count(Position.start(), (6, 5)) == (9, 7)
    assert len(legal_plays(Position.start(), (6, 5))) == 7


@hypothesis.settings(deadline=None, max_examples=300)
@hypothesis.given(position=positions(), dice=rolls)
def test_it_counts_the_plays_it_returns(position, dice):
    leaves, plays = generation_count(position, dice)
    assert plays == len(legal_plays(position, dice))
    assert leaves >= plays


# --- validation -----------------------------------------------------------------------------


def general_validate(position: Position, dice, text: str) -> Play:
    """validate_play as it was before the route for a checker using several dice: the hops as
    written one die each, else the full search; then as many dice as possible."""
    hops = parse_play(text)
    d1, d2 = dice
    dice_list = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
    if len(hops) > len(dice_list):
        raise IllegalPlay("more sub-moves than the roll allows", code="wrong_steps")
    best = _as_written(list(position.mover), list(position.opponent), hops, dice_list)
    if best is None:
        search = _Search(list(position.mover), list(position.opponent), dice_list)
        search.run(hops, dice_list, [], 0)
        if search.best is None:
            raise IllegalPlay(search.error[2], code=search.error[1])
        best = search.best
    used, steps, mine, theirs = best
    boards = (mine, theirs) if position.turn == 0 else (theirs, mine)
    result = Play(position, steps, Position(boards, 1 - position.turn), used)
    if used == len(dice_list):
        return result
    most, plays = max_dice_playable(position, dice)
    if not plays or any(p.position == result.position for p in plays):
        return result
    raise IllegalPlay("not enough dice", code="dice_not_all_used" if most > used else "higher_die_not_played")


def outcome(check, position: Position, dice, text: str):
    try:
        return tuple(check(position, dice, text))
    except IllegalPlay as error:
        return ("illegal", error.code)
    except NotationError as error:
        return ("notation", error.code)


def one_die_at_a_time(play: Play) -> str:
    return write(play.steps)


@hypothesis.settings(deadline=None, max_examples=500)
@hypothesis.given(position=positions(), dice=rolls, data=st.data())
def test_it_validates_every_legal_play_as_the_general_search_does(position, dice, data):
    plays = legal_plays(position, dice)
    hypothesis.assume(plays)
    play = data.draw(st.sampled_from(plays))
    for text in (play.notation, one_die_at_a_time(play), " ".join(reversed(play.notation.split()))):
        got = outcome(validate_play, position, dice, text)
        assert got == outcome(general_validate, position, dice, text)
        assert got[2] == play.position


def write(hops) -> str:
    return " ".join(f"{'bar' if s == BAR else s}/{'off' if t == OFF else t}" for s, t in hops)


any_hop = st.tuples(st.integers(1, 25), st.integers(0, 24)).filter(lambda hop: hop[0] > hop[1])


def plausible_hops(data, position: Position, dice) -> list[tuple[int, int]]:
    """One to three hops, each from a point the side on roll holds (or the bar) by a distance
    the dice can cover with one checker: routes that mostly work, and the near misses."""
    d1, d2 = dice
    sums = [d1 * k for k in range(1, 5)] if d1 == d2 else [d1, d2, d1 + d2]
    held = [p for p in range(1, 26) if position.mover[p]] or [BAR]
    written = []
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.sampled_from(held))
        written.append((start, max(start - data.draw(st.sampled_from(sums)), OFF)))
    return written


@hypothesis.settings(deadline=None, max_examples=800)
@hypothesis.given(position=positions(), dice=rolls, data=st.data())
def test_it_judges_any_written_play_as_the_general_search_does(position, dice, data):
    if data.draw(st.booleans()):
        written = plausible_hops(data, position, dice)
    else:
        written = data.draw(st.lists(any_hop, min_size=1, max_size=4))
    text = write(written)
    assert outcome(validate_play, position, dice, text) == outcome(general_validate, position, dice, text)


def joined_hops(data, position: Position, dice) -> list[tuple[int, int]]:
    """Hops that use every die, at least one of them with several dice: 13/10 with 2-1,
    13/5 6/2(2) with 4-4; each from a point the side on roll holds, or the bar."""
    d1, d2 = dice
    held = [p for p in range(1, 26) if position.mover[p]] or [BAR]
    if d1 != d2:
        start = data.draw(st.sampled_from(held))
        return [(start, max(start - d1 - d2, OFF))]
    parts = data.draw(st.sampled_from([(4,), (3, 1), (1, 3), (2, 2), (2, 1, 1), (1, 2, 1), (1, 1, 2)]))
    written = []
    for dice_used in parts:
        start = data.draw(st.sampled_from(held))
        written.append((start, max(start - d1 * dice_used, OFF)))
    return written


@hypothesis.settings(deadline=None, max_examples=800)
@hypothesis.given(position=positions(), dice=rolls, data=st.data())
def test_its_route_for_a_checker_using_several_dice_is_the_one_the_search_finds_first(position, dice, data):
    d1, d2 = dice
    dice_list = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
    chosen = tuple(Hop(s, t) for s, t in joined_hops(data, position, dice))
    route = _first_route(list(position.mover), list(position.opponent), chosen, dice_list)
    search = _Search(list(position.mover), list(position.opponent), dice_list)
    search.run(chosen, dice_list, [], 0)
    if route is not None:
        assert route == search.best
    text = write((hop.start, hop.end) for hop in chosen)
    assert outcome(validate_play, position, dice, text) == outcome(general_validate, position, dice, text)


def test_its_route_for_a_checker_using_several_dice_reads_most_such_plays_of_random_games():
    taken = joined = 0
    for position, dice in random_positions(7, 1500):
        d1, d2 = dice
        dice_list = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
        for play in legal_plays(position, dice):
            chosen = parse_play(play.notation)
            if len(chosen) >= play.dice_used:
                continue
            joined += 1
            route = _first_route(list(position.mover), list(position.opponent), chosen, dice_list)
            if route is None:
                continue
            taken += 1
            search = _Search(list(position.mover), list(position.opponent), dice_list)
            search.run(chosen, dice_list, [], 0)
            assert route == search.best, (str(position), dice, play.notation)
    # Bear-offs (8/off) and plays using fewer dice than the roll are left to the search.
    assert joined > 2000
    assert taken > 0.8 * joined


def test_it_reads_13_10_with_2_1_through_the_point_that_does_not_hit():
    # The 11 holds a blot, the 12 is open: the search's reading goes through the 12.
    position = _position({13: 2, 6: 13}, {11: 1})
    play = validate_play(position, (2, 1), "13/10")
    assert play.steps == ((13, 12), (12, 10))
    assert play.position.boards[1][25 - 11] == 1
    assert tuple(play) == tuple(general_validate(position, (2, 1), "13/10"))

"""Checker plays: every legal play for a roll.

A play is what a side does with one roll. It is made of *steps*, one per die used, each
``(from, to)`` in the mover's own numbering (25 is the bar, 0 is off); :mod:`engine.notation`
writes and reads them, and :mod:`engine.validation` checks a recorded play against the rules.

The rules (RULES.md §3): each die is a separate step; bar first; a point held by two or more
opposing checkers is closed, also as an intermediate landing point; as many dice as possible must
be played, and the higher die when only one can be; bearing off only with all fifteen checkers
home, a higher die bearing off from the highest occupied point only.

:func:`legal_plays` lists the distinct resulting positions, each with one way of writing it.

Generation has a general search (:func:`_generate_mixed`, :func:`_generate_double`: every order
of the dice, a position key per sequence) and faster paths for the positions where less is
enough, each giving the same plays in the same order with the same steps: a non-double with no
checker on the bar and no bear-off possible needs one order of the dice (:func:`_plain_mixed`),
one entering from the bar keys only the plays where the entered checker moves on
(:func:`_entering_mixed`), and a double with no bear-off possible needs no key at all
(:func:`_plain_double`). Positions where a checker may bear off during the play, and rolls of
which only one die can be played, go to the general search.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import NamedTuple

from .board import BAR, CHECKERS, OFF, Position
from .errors import IllegalPlay
from .notation import format_steps


class Play(NamedTuple):
    """One legal way to play a roll: its steps and the resulting position.

    ``position`` is the position after the play with the opponent on roll; ``before`` the one it
    was played from. ``dice_used`` counts the dice the play consumed.
    """

    before: Position
    steps: tuple[tuple[int, int], ...]
    position: Position
    dice_used: int

    @property
    def notation(self) -> str:
        return format_steps(self.before, self.steps)

    def __str__(self) -> str:
        return self.notation


# --- generation ----------------------------------------------------------------------------


def _record(results: dict, me: list, opp: list, steps: list, used: int, die: int) -> None:
    key = (tuple(me), tuple(opp))
    known = results.get(key)
    # A position reached by several sequences keeps the one that uses the most dice (and, with
    # one die, the higher die): only those count when the maximum-dice rule filters the plays.
    if known is None or (used, die) > (known[1], known[2]):
        results[key] = (tuple(steps), used, die)


def _generate_mixed(me: list, opp: list, hi: int, lo: int, results: dict | None = None) -> dict:
    """Plays of a non-double roll (hi > lo): both orders of the two dice, then the filters.

    The general search, for what the faster paths leave (bear-offs, one die playable). The step
    (legality, move, hit, undo) is written out in place rather than called: a call per step
    costs about a third of this loop's time. ``results``, when given, receives the sequences.
    """
    results = {} if results is None else results
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


def _generate_double(me: list, opp: list, d: int, results: dict | None = None) -> dict:
    """Plays of a double: up to four steps of ``d``.

    Steps are taken from non-increasing source points: any legal sequence can be reordered that
    way (moving a higher checker first never closes a point nor spoils a bear-off), so this visits
    every resulting position while skipping most permutations of the same steps. ``results``,
    when given, receives the sequences.
    """
    results = {} if results is None else results
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


def check_dice(dice) -> tuple[int, int]:
    """The roll as two dice; raises :class:`IllegalPlay` ``bad_dice`` unless both are 1..6."""
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        d1 = d2 = None
    if d1 not in _DIE or d2 not in _DIE:
        raise IllegalPlay(f"dice must be two numbers 1..6, not {dice!r}", code="bad_dice")
    return d1, d2


_DIE = frozenset(range(1, 7))


_new_position = object.__new__
_set_boards = Position.boards.__set__  # type: ignore[attr-defined]
_set_turn = Position.turn.__set__  # type: ignore[attr-defined]
_new_play = tuple.__new__


def _hits(opp, landings) -> tuple:
    """The opponent's board after checkers land on ``landings`` in turn: a lone checker is hit
    by the first one to land on its point."""
    theirs = list(opp)
    for t in landings:
        if t and theirs[25 - t] == 1:
            theirs[25 - t] = 0
            theirs[BAR] += 1
    return tuple(theirs)


def _plain_mixed(position: Position, me, opp, hi: int, lo: int, tally: list | None = None) -> list[Play] | None:
    """The plays of a non-double roll (hi > lo) with no checker on the bar and at least two
    checkers outside the home board, in the order and with the steps the general search
    (:func:`_generate_mixed`) gives them; None when no play uses both dice (the general search
    then finds the one-die plays).

    Why one order of the dice is enough here: without a checker on the bar and with no bear-off
    possible (each step brings at most one checker home), a step's legality depends only on its
    source holding a checker and its landing point being open, and no step closes a point (a hit
    only empties one). So two checkers moved by the two dice give the same position in either
    order; the low-die-first order adds only a checker moving with both dice through its other
    intermediate point, and those come after the high-die-first plays, as in the general search.
    Two plays can reach the same position only when they move one checker with both dice (net:
    one checker from X to Y), so only those are keyed, by (X, Y, the blot hit on the way).
    ``tally[0]``, when given, grows by the number of two-step sequences looked at.
    """
    first: list = []
    second: list = []
    for s in range(24, lo, -1):
        if me[s]:
            t = s - lo
            if opp[25 - t] < 2:
                second.append((s, t))
            if s > hi and opp[25 - s + hi] < 2:
                first.append((s, s - hi))
    # ``second`` runs from the highest source down; ``order`` finds a point's place in it.
    order = [-s for s, _ in second]
    turn = position.turn
    after = 1 - turn
    plays: list[Play] = []
    append = plays.append
    chains: set = set()
    explored = 0
    for step in first:
        s, t = step
        hit_t = t if opp[25 - t] == 1 else 0
        seconds = second
        # The moved checker may have left its point empty, or stand where no checker stood:
        # then it alone moves on from there.
        if me[s] == 1:
            at = bisect_left(order, -s)
            if at < len(order) and order[at] == -s:
                seconds = second[:at] + second[at + 1:]
        if not me[t] and t > lo and opp[25 - t + lo] < 2:
            at = bisect_right(order, -t)
            if seconds is not second and at > bisect_left(order, -s):
                at -= 1
            seconds = [*seconds[:at], (t, t - lo), *seconds[at:]]
        explored += len(seconds)
        base = list(me)
        base[s] -= 1
        base[t] += 1
        for step2 in seconds:
            s2, t2 = step2
            if s2 == t:
                key = (s, t2, hit_t)
                if key in chains:
                    continue
                chains.add(key)
            elif t2 == s:
                key = (s2, t, 0)
                if key in chains:
                    continue
                chains.add(key)
            mine = base.copy()
            mine[s2] -= 1
            mine[t2] += 1
            theirs = _hits(opp, (t, t2)) if hit_t or opp[25 - t2] == 1 else opp
            result = _new_position(Position)
            _set_boards(result, (tuple(mine), theirs) if turn == 0 else (theirs, tuple(mine)))
            _set_turn(result, after)
            append(_new_play(Play, (position, (step, step2), result, 2)))
    for step in second:
        s, t = step
        t2 = t - hi
        if t2 > 0 and opp[25 - t2] < 2:
            explored += 1
            key = (s, t2, t if opp[25 - t] == 1 else 0)
            if key in chains:
                continue
            chains.add(key)
            mine = list(me)
            mine[s] -= 1
            mine[t2] += 1
            theirs = _hits(opp, (t, t2)) if opp[25 - t] == 1 or opp[25 - t2] == 1 else opp
            result = _new_position(Position)
            _set_boards(result, (tuple(mine), theirs) if turn == 0 else (theirs, tuple(mine)))
            _set_turn(result, after)
            append(_new_play(Play, (position, (step, (t, t2)), result, 2)))
    if tally is not None:
        tally[0] += explored
    return plays or None


def _entering_mixed(position: Position, me, opp, hi: int, lo: int, tally: list | None = None) -> list[Play] | None:
    """The plays of a non-double roll (hi > lo) with checkers on the bar, in the order and with
    the steps of :func:`_generate_mixed`; None when no play uses both dice.

    With one checker on the bar the two orders differ (which die enters), so both are played
    out, but no bear-off can happen (the entered checker is still outside the home board), and
    the two orders meet only when the entered checker moves on with the other die: those
    plays are keyed by the blot hit on the way. With two or more on the bar both dice enter.
    ``tally[0]``, when given, grows by the number of two-step sequences looked at.
    """
    if me[BAR] > 1:
        if opp[hi] > 1 or opp[lo] > 1:
            return None
        if tally is not None:
            tally[0] += 1
        steps = ((BAR, BAR - hi), (BAR, BAR - lo))
        return _plays_of(position, me, opp, [steps], 2)
    plays: list[Play] = []
    append = plays.append
    turn = position.turn
    after = 1 - turn
    chains: set = set()
    explored = 0
    for die, other in ((hi, lo), (lo, hi)):
        if opp[die] > 1:
            continue
        entry = BAR - die
        step = (BAR, entry)
        hit = opp[die] == 1
        base = list(me)
        base[BAR] = 0
        base[entry] += 1
        for s in range(24, other, -1):
            if not base[s]:
                continue
            t = s - other
            if opp[25 - t] > 1:
                continue
            explored += 1
            if s == entry:
                key = (t, entry if hit else 0)
                if key in chains:
                    continue
                chains.add(key)
            mine = base.copy()
            mine[s] -= 1
            mine[t] += 1
            theirs = _hits(opp, (entry, t)) if hit or opp[25 - t] == 1 else opp
            result = _new_position(Position)
            _set_boards(result, (tuple(mine), theirs) if turn == 0 else (theirs, tuple(mine)))
            _set_turn(result, after)
            append(_new_play(Play, (position, (step, (s, t)), result, 2)))
    if tally is not None:
        tally[0] += explored
    return plays or None


def _plays_of(position: Position, me, opp, all_steps: list, used: int) -> list[Play]:
    """Play objects for distinct ``all_steps`` (none bearing off) played from ``position``."""
    turn = position.turn
    plays = []
    for steps in all_steps:
        mine = list(me)
        for s, t in steps:
            mine[s] -= 1
            mine[t] += 1
        theirs = _hits(opp, [t for _, t in steps])
        boards = (tuple(mine), theirs) if turn == 0 else (theirs, tuple(mine))
        plays.append(Play(position, steps, Position(boards, 1 - turn), used))
    return plays


def _plain_double(position: Position, me, opp, d: int, tally: list | None = None) -> list[Play] | None:
    """The plays of a double when no checker can bear off during the play, in the order and
    with the steps of :func:`_generate_double`; None when a bear-off might happen (the general
    walk decides then).

    Entering checkers come first; the other steps are taken from non-increasing source points,
    as in the general walk. Without bear-offs a play of one die's steps is fixed by its
    resulting position (how many checkers pass each point follows from the counts), so every
    leaf of the walk is a distinct position and none needs a key. ``tally[0]``, when given,
    grows by the number of leaves of the walk.
    """
    entries = min(me[BAR], 4)
    if entries and opp[d] > 1:
        return []
    free = 4 - entries
    if sum(me[7:26]) < free:
        return None
    turn = position.turn
    after = 1 - turn
    landing = BAR - d
    prefix = ((BAR, landing),) * entries
    count = list(me)
    count[BAR] -= entries
    count[landing] += entries
    entered_hit = entries and opp[d] == 1
    if not free:
        leaves = [(prefix, tuple(count), entered_hit)]
    else:
        # A source is a point whose landing point is open and that holds a checker or can
        # receive one from a source above: the only points the walk can move from.
        sources = []
        movable = [False] * 31
        for s in range(24, d, -1):
            if opp[25 - s + d] < 2 and (count[s] or movable[s + d]):
                movable[s] = True
                sources.append(s)
        step = [(s, s - d) for s in range(26)]
        blot = [s > d and opp[25 - s + d] == 1 for s in range(26)]
        n = len(sources)
        leaves = []
        plays: list[Play] = []
        built = plays.append
        deepest = discarded = 0
        for i in range(n):
            a = sources[i]
            if not count[a]:
                continue
            count[a] -= 1
            count[a - d] += 1
            moved = False
            if free > 1:
                for j in range(i, n):
                    b = sources[j]
                    if not count[b]:
                        continue
                    moved = True
                    count[b] -= 1
                    count[b - d] += 1
                    moved2 = False
                    if free > 2:
                        for k in range(j, n):
                            c = sources[k]
                            if not count[c]:
                                continue
                            moved2 = True
                            count[c] -= 1
                            count[c - d] += 1
                            moved3 = False
                            if free > 3:
                                hit = blot[a] or blot[b] or blot[c]
                                for m in range(k, n):
                                    e = sources[m]
                                    if count[e]:
                                        # Four steps: the most a double plays, so the play is
                                        # kept and built at once (most plays of a double).
                                        moved3 = True
                                        if deepest < 4:
                                            deepest, discarded, leaves = 4, discarded + len(leaves), []
                                        count[e] -= 1
                                        count[e - d] += 1
                                        mine = tuple(count)
                                        count[e - d] -= 1
                                        count[e] += 1
                                        theirs = _hits(opp, (a - d, b - d, c - d, e - d)) if hit or blot[e] else opp
                                        result = _new_position(Position)
                                        _set_boards(result, (mine, theirs) if turn == 0 else (theirs, mine))
                                        _set_turn(result, after)
                                        built(_new_play(Play, (position, (step[a], step[b], step[c], step[e]), result, 4)))
                            if not moved3 and deepest <= 3:
                                if deepest < 3:
                                    deepest, discarded, leaves = 3, discarded + len(leaves), []
                                leaves.append(
                                    ((*prefix, step[a], step[b], step[c]), tuple(count),
                                     entered_hit or blot[a] or blot[b] or blot[c])
                                )
                            count[c - d] -= 1
                            count[c] += 1
                    if not moved2 and deepest <= 2:
                        if deepest < 2:
                            deepest, discarded, leaves = 2, discarded + len(leaves), []
                        leaves.append(((*prefix, step[a], step[b]), tuple(count), entered_hit or blot[a] or blot[b]))
                    count[b - d] -= 1
                    count[b] += 1
            if not moved and deepest <= 1:
                if deepest < 1:
                    deepest, discarded, leaves = 1, discarded + len(leaves), []
                leaves.append(((*prefix, step[a]), tuple(count), entered_hit or blot[a]))
            count[a - d] -= 1
            count[a] += 1
        if deepest == 4:
            if tally is not None:
                tally[0] += discarded + len(plays)
            return plays
        if not leaves:
            if not entries:
                return []
            leaves = [(prefix, tuple(count), entered_hit)]
    if tally is not None:
        tally[0] += len(leaves) + (discarded if free else 0)
    plays = []
    append = plays.append
    used = len(leaves[0][0])
    for steps, mine, hit in leaves:
        theirs = _hits(opp, [t for _, t in steps]) if hit else opp
        result = _new_position(Position)
        _set_boards(result, (mine, theirs) if turn == 0 else (theirs, mine))
        _set_turn(result, after)
        append(_new_play(Play, (position, steps, result, used)))
    return plays


def _fast_plays(position: Position, me, opp, d1: int, d2: int, tally: list | None = None) -> list[Play] | None:
    """The plays from the faster path that fits the roll, or None for the general search."""
    if d1 == d2:
        return _plain_double(position, me, opp, d1, tally)
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    if me[BAR]:
        return _entering_mixed(position, me, opp, hi, lo, tally)
    if sum(me[7:25]) > 1:
        return _plain_mixed(position, me, opp, hi, lo, tally)
    return None


def legal_plays(position: Position, dice) -> list[Play]:
    """Every legal play of ``dice`` for the side on roll, one per distinct resulting position.

    An empty list means no die can be played: the turn passes. Raises :class:`IllegalPlay`
    (code ``bad_dice``) for dice outside 1..6.
    """
    d1, d2 = check_dice(dice)
    turn = position.turn
    me, opp = position.boards[turn], position.boards[1 - turn]
    plays = _fast_plays(position, me, opp, d1, d2)
    if plays is not None:
        return plays
    hi, lo = max(d1, d2), min(d1, d2)
    mine, theirs = list(me), list(opp)
    results = _generate_double(mine, theirs, hi) if hi == lo else _generate_mixed(mine, theirs, hi, lo)
    plays = []
    for (mine, theirs), steps, used, _ in _best(results, hi):
        boards = (mine, theirs) if turn == 0 else (theirs, mine)
        plays.append(Play(position, steps, Position(boards, 1 - turn), used))
    return plays


class _CountingResults(dict):
    """The general search's results, counting the sequences it records (one per leaf)."""

    leaves = 0

    def get(self, key, default=None):
        self.leaves += 1
        return super().get(key, default)


def generation_count(position: Position, dice) -> tuple[int, int]:
    """How much work :func:`legal_plays` does for ``dice``: the complete sequences of steps it
    looks at (leaves of its search) and the distinct plays it returns. Changes nothing;
    raises like :func:`legal_plays`.
    """
    d1, d2 = check_dice(dice)
    turn = position.turn
    me, opp = position.boards[turn], position.boards[1 - turn]
    tally = [0]
    plays = _fast_plays(position, me, opp, d1, d2, tally)
    if plays is not None:
        return tally[0], len(plays)
    hi, lo = max(d1, d2), min(d1, d2)
    results = _CountingResults()
    if hi == lo:
        _generate_double(list(me), list(opp), hi, results)
    else:
        _generate_mixed(list(me), list(opp), hi, lo, results)
    return tally[0] + results.leaves, len(_best(results, hi))


def max_dice_playable(position: Position, dice) -> tuple[int, list[Play]]:
    """How many dice the best legal play uses, and those plays."""
    plays = legal_plays(position, dice)
    return (plays[0].dice_used if plays else 0), plays



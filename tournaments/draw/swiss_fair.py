"""The fairest Swiss pairing (the ``fair`` method of :mod:`.swiss`): of all valid pairings, one with
the least sum of squared score differences, then the fewest floaters, then floaters as low in the
table as they can be; within a score group, the top-down fold. Made by the quick way when it
reaches the lower bound, else as a maximum-weight perfect matching (:mod:`.weighted`). Pure."""

from __future__ import annotations

from collections.abc import Iterator

from .matching import Matcher
from .swiss_history import SwissPairing
from .values import Entrant, Pairing
from .weighted import max_weight_matching

#: How far from the fold partner (1 v 5 in a group of eight) the sparse graph reaches at first,
#: and how many of a score group's last and next group's first players its floater pairs join.
WINDOW = 4


def _choose_bye(n: int, byes: list[int], matcher: Matcher) -> int | None:
    """The bye: the lowest-ranked player of the fewest byes who leaves the others perfectly
    matchable (``matcher`` holds a maximum matching of everyone), taken out of ``matcher``."""
    fewest = min(byes)
    for i in range(n - 1, -1, -1):
        if byes[i] == fewest and matcher.remove(i):
            return i
    return None


class _Costs:
    """The cost of pairing ranks ``a < b``, lexicographic in five parts, packed in one integer
    (each part's unit exceeds the largest total the parts after it can reach in one round):

    1. a rematch (only when the organiser allows them: then as few as possible);
    2. the squared score difference. Squared, not plain: a 2.0 v 0.0 pair costs 4 and a 2.0 v 1.0
       next to a 1.0 v 0.0 costs 2, where plain differences cost 2 both ways and could not prefer
       the second;
    3. a floater (the two are in different score groups);
    4. for a floater pair, how high in the table it floats (the higher, the dearer: as in the
       top-down Swiss, the leading groups are kept together first);
    5. for a floater pair, how far the upper player is from the bottom of his group and the lower
       from the top of his (the traditional float: last of one group v first of the next).

    Pairs within a score group cost nothing but a rematch: who meets whom inside a group is the
    top-down fold's choice (:func:`_top_down`), made once the floaters are known.
    """

    def __init__(self, score: list[float], avoid: list[set[int]] | None):
        n = len(score)
        self.level = level = [round(2 * s) for s in score]
        spread = (max(level) - min(level)) if level else 0
        self.start = start = [0] * n
        self.end = end = [0] * n
        self.group = group = [0] * n
        i = count = 0
        while i < n:
            j = i
            while j < n and level[j] == level[i]:
                j += 1
            for k in range(i, j):
                start[k], end[k], group[k] = i, j, count
            count += 1
            i = j
        self.avoid = avoid
        self.n = n
        self.groups = count
        self.gap_unit = 2 * n * n + 1
        self.float_unit = self.gap_unit * (n * (count + 1) + 1)
        self.square_unit = self.float_unit * (n + 1)
        self.rematch_unit = self.square_unit * (n * spread * spread + 1)
        self.top = self.rematch_unit * (1 if avoid is None else 2) + self.square_unit * spread * spread + self.float_unit * 2

    def cost(self, a: int, b: int) -> int:
        d = self.level[a] - self.level[b]
        cost = 0
        if d:
            cost = ((self.end[a] - 1 - a) + (b - self.start[b]) + self.gap_unit * (self.groups - self.group[a])
                    + self.float_unit + self.square_unit * d * d)
        if self.avoid is not None and b in self.avoid[a]:
            cost += self.rematch_unit
        return cost

    def weight(self, a: int, b: int) -> int:
        return self.top - self.cost(a, b)

    def best_weight(self, a: int, b: int) -> int:
        """The largest weight any pair of a's and b's score groups can have."""
        d = self.level[a] - self.level[b]
        return self.top - (self.square_unit * d * d + self.float_unit if d else 0)


def _score_groups(players: list[int], level: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for p in players:
        if groups and level[groups[-1][0]] == level[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _candidates(groups: list[list[int]], ok) -> set[tuple[int, int]]:
    """The sparse graph first tried: each player's partners near his fold partner in his score
    group, and the last ``2 * WINDOW`` of each group against the first of the next two groups."""
    edges = set()
    for gi, members in enumerate(groups):
        g = len(members)
        half = g // 2
        for i, a in enumerate(members):
            for j in range(max(i + 1, i + half - WINDOW), min(g, i + half + WINDOW + 1)):
                if ok(a, members[j]):
                    edges.add((a, members[j]))
        for nxt in groups[gi + 1: gi + 3]:
            for a in members[-2 * WINDOW:]:
                for b in nxt[: 2 * WINDOW]:
                    if ok(a, b):
                        edges.add((a, b))
    return edges


def _neighbourhood(groups: list[list[int]], ok) -> set[tuple[int, int]]:
    """Every valid pair within a score group or between two neighbouring groups."""
    edges = set()
    for gi, members in enumerate(groups):
        around = members + (groups[gi + 1] if gi + 1 < len(groups) else [])
        for i, a in enumerate(members):
            for b in around[i + 1:]:
                if ok(a, b):
                    edges.add((a, b))
    return edges


def _proved(players: list[int], chosen: set[tuple[int, int]], groups: list[list[int]], ok, costs: _Costs):
    """The least-cost matching of ``players`` over every valid pair, solved on ``chosen`` (every
    pair within a score group or between neighbouring groups) and proved on the rest; None when
    ``chosen`` holds no perfect matching.

    The neighbourhood alone is not enough: a pair across two gaps (a 4 v a 2) costs as much in
    squared differences as two pairs across one gap each, with one floater fewer, so the least
    pairing may hold it. The blossom's duals say which pair left out could still improve the
    matching (a negative reduced cost): those are added and the matching solved again, until none
    is left. Then the duals are feasible on every valid pair and the matching is the least over
    all of them (Edmonds' linear programme). Only groups whose best pair could weigh more than the
    lowest dual are looked at: a pair's weight falls as its groups lie further apart."""
    while True:
        solved = _solve(players, chosen, costs)
        if solved is None:
            return None
        result, local = solved
        lowest = min(result.dual[:len(players)])
        more = set()
        for gi, members in enumerate(groups):
            for far in groups[gi + 2:]:
                if costs.best_weight(members[0], far[0]) <= lowest:
                    break
                more.update((a, b) for a in members for b in far if ok(a, b)
                            and result.reduced_cost(local[a], local[b], costs.weight(a, b)) < 0)
        if not more:
            return solved
        chosen = chosen | more


def _at_bound(solved, players: list[int], groups: list[list[int]], costs: _Costs) -> bool:
    """Whether the matching reaches the lower bound of every valid pairing, so that no pair left
    out of the sparse graph could improve it: no rematch; every floater pair joins two
    neighbouring score groups; and between two neighbouring groups, one floater pair when an odd
    number of players stand above the gap, none when even. (Every pairing crosses each gap with
    an odd number above at least once, and a pair spanning gaps of widths w1, w2... costs
    (w1 + w2 + ...)², no less than w1² + w2² + ...: so these costs and floaters are the least.)"""
    result, _ = solved
    index = {p: gi for gi, members in enumerate(groups) for p in members}
    crossings = [0] * len(groups)
    for u, v in result.pairs():
        a, b = sorted((players[u], players[v]))
        if costs.avoid is not None and b in costs.avoid[a]:
            return False
        ga, gb = index[a], index[b]
        if gb - ga > 1:
            return False
        if gb != ga:
            crossings[ga] += 1
    above = 0
    for gi, members in enumerate(groups[:-1]):
        above += len(members)
        if crossings[gi] != above % 2:
            return False
    return True


def pair_fair(
    number: int,
    ranked: list[Entrant],
    score: list[float],
    byes: list[int],
    blocked: list[set[int]],
    group: list,
    avoid: list[set[int]] | None,
    length: int,
) -> SwissPairing | None:
    """The fairest pairing of the players ``ranked`` (indices are ranks) where ``blocked`` pairs
    and same-``group`` pairs never meet; None if no valid pairing exists.

    1. The bye as in the top-down pairing (the lowest of the fewest byes who leaves the rest
       pairable).
    2. The quick way (:func:`_plain_floats`): when each score group can pass at most one floater
       to the next and pair the rest within itself, that pairing is optimal (it reaches the
       lower bound) and is taken. Otherwise:
    3. The floaters: a valid perfect matching of the least cost (:class:`_Costs`: rematches when
       ``avoid`` lists them, squared score differences, floaters), as a maximum-weight matching
       (:mod:`~tournaments.draw.weighted`). It is solved on a sparse graph (:func:`_candidates`);
       when the answer does not reach the lower bound every pairing obeys (:func:`_at_bound`),
       again on every valid pair within a score group or between two neighbouring ones
       (:func:`_neighbourhood`; tests/tournaments/draw/test_fair_swiss.py checks on seeded events
       that this never loses the optimum of the full graph), and on the full graph when that
       holds no perfect matching.
    4. Inside each score group, the players the matching paired there are paired again by the
       top-down fold (:func:`_top_down`): same cost, the traditional pairs.
    """
    n = len(ranked)
    matcher = Matcher(n, blocked, group)
    if matcher.maximise() < n // 2:
        return None
    bye = None
    if n % 2:
        bye = _choose_bye(n, byes, matcher)
        if bye is None:
            return None
    players = [i for i in range(n) if i != bye]
    costs = _Costs(score, avoid)
    ok = matcher.compatible
    groups = _score_groups(players, costs.level)
    final = _plain_floats(groups, blocked, group, avoid)
    if final is None:
        solved = _solve(players, _candidates(groups, ok), costs)
        if solved is None or not _at_bound(solved, players, groups, costs):
            solved = _proved(players, _neighbourhood(groups, ok), groups, ok, costs)
            if solved is None:
                solved = _solve(players, {(a, b) for i, a in enumerate(players) for b in players[i + 1:] if ok(a, b)},
                                costs)
        result, _ = solved
        found = [(players[u], players[v]) for u, v in result.pairs()]
        inside: dict[int, list[tuple[int, int]]] = {}
        final = []
        for p, q in found:
            p, q = min(p, q), max(p, q)
            if costs.level[p] == costs.level[q]:
                inside.setdefault(costs.level[p], []).append((p, q))
            else:
                final.append((p, q))
        for pairs in inside.values():
            final.extend(_top_down(pairs, blocked, group, avoid))
    final.sort()
    pairings = tuple(
        Pairing(f"swiss-{number}-{i}", "swiss", number, ranked[p], ranked[q], length)
        for i, (p, q) in enumerate(final, start=1)
    )
    return SwissPairing(number, pairings, ranked[bye] if bye is not None else None)


def _plain_floats(groups: list[list[int]], blocked: list[set[int]], group: list,
                  avoid: list[set[int]] | None) -> list[tuple[int, int]] | None:
    """The quick way to the optimum, taken when it exists (nearly always in a big event): group
    by group from the top, the floater from above (if any) meets the highest player of this group
    who leaves the rest pairable, and when the rest is odd its lowest player who leaves the
    others pairable floats down; the rest is paired top-down (:func:`_top_down_members`); no
    rematch, nothing forbidden. Such a pairing reaches the lower bound of :func:`_at_bound` (one
    floater pair across each gap with an odd number above, each between neighbouring groups),
    so no pairing has smaller squared differences or fewer floaters. None when a step finds no
    such player: the weighted matching decides then."""
    shut = blocked if avoid is None else [blocked[i] | avoid[i] for i in range(len(blocked))]
    out: list[tuple[int, int]] = []
    carry = None
    for members in groups:
        rest = list(members)
        if carry is not None:
            matcher = _local_matcher(rest, shut, group)
            size = matcher.maximise()
            odd = len(rest) % 2
            if size < len(rest) // 2:
                return None
            for i, y in enumerate(rest):
                if y in shut[carry] or (group[y] is not None and group[y] == group[carry]):
                    continue
                if not odd or matcher.remove(i):
                    out.append((carry, y))
                    del rest[i]
                    break
            else:
                return None
            carry = None
        matcher = _local_matcher(rest, shut, group)
        size = matcher.maximise()
        if len(rest) % 2 == 0:
            if size < len(rest) // 2:
                return None
        else:
            if size < len(rest) // 2:
                return None
            for i in range(len(rest) - 1, -1, -1):
                if matcher.remove(i):
                    carry = rest.pop(i)
                    break
            else:
                return None
        out.extend(_top_down_members(rest, shut, group))
    return None if carry is not None else out


def _local_matcher(members: list[int], shut: list[set[int]], group: list) -> Matcher:
    local = {p: i for i, p in enumerate(members)}
    return Matcher(len(members), [{local[o] for o in shut[p] if o in local} for p in members],
                   [group[p] for p in members])


def _top_down_members(members: list[int], shut: list[set[int]], group: list) -> list[tuple[int, int]]:
    """``members`` (ranks, best first; perfectly pairable where ``shut`` pairs and same-``group``
    pairs never meet) paired top board first, as the top-down method pairs a score group."""
    matcher = _local_matcher(members, shut, group)
    if matcher.maximise() < len(members) // 2:
        raise AssertionError("a score group to pair top-down is not pairable")
    return _folded(matcher, members)


def _folded(matcher: Matcher, members: list[int]) -> list[tuple[int, int]]:
    """The perfectly matchable ``members`` of ``matcher`` paired top board first: each in turn
    meets his most preferred partner (fold, then further down, then up) among those leaving the
    rest pairable."""
    alive = matcher.alive
    out = []
    while alive:
        p = alive[0]
        for q in partners_walk(alive, len(alive)):
            if matcher.fix(p, q):
                break
        else:  # cannot happen: the rest was perfectly matchable
            raise AssertionError("Swiss pairing lost its perfect matching")
        out.append((members[p], members[q]))
    return out


def _top_down(pairs: list[tuple[int, int]], blocked: list[set[int]], group: list,
              avoid: list[set[int]] | None) -> list[tuple[int, int]]:
    """The players of ``pairs`` (one score group) paired again top board first, as
    the top-down method does: each in turn meets his most preferred partner (fold, then further down,
    then up) among those leaving the rest pairable, rematches (``avoid``) not at all. When that
    is impossible, ``pairs`` as they are (the matching's, with its fewest rematches)."""
    members = sorted(p for pair in pairs for p in pair)
    local = {p: i for i, p in enumerate(members)}
    shut = [
        {local[o] for o in blocked[p] if o in local} | ({local[o] for o in avoid[p] if o in local} if avoid else set())
        for p in members
    ]
    matcher = Matcher(len(members), shut, [group[p] for p in members])
    if matcher.maximise() < len(members) // 2:
        return pairs
    return _folded(matcher, members)


def _solve(players: list[int], chosen: set[tuple[int, int]], costs: _Costs):
    """The maximum-weight perfect matching of ``players`` on the ``chosen`` pairs (and the map to
    its vertex numbers), started from a greedy matching of pairs of cost nought; None if the pairs
    hold no perfect matching."""
    local = {p: i for i, p in enumerate(players)}
    edges = sorted((local[a], local[b], costs.weight(a, b)) for a, b in chosen)
    top = max((w for _, _, w in edges), default=0)
    initial, used = [], set()
    for k, (u, v, w) in enumerate(edges):
        if w == top and u not in used and v not in used:
            used.add(u)
            used.add(v)
            initial.append(k)
    result = max_weight_matching(len(players), edges, maxcardinality=True, initial=initial)
    if result.size() * 2 < len(players):
        return None
    return result, local


def partners_walk(alive: list[int], g: int) -> Iterator[int]:
    """The partners of ``alive[0]`` in order of preference, made one at a time (most pairs take
    the first): the fold of its score group (``alive[:g]``; the top meets the top of the bottom
    half, then further down it, then up the top half), then everyone below the group.

    ``alive`` may change while the walk is paused only if it is put back as it was (a failed
    :meth:`Matcher.fix` restores it): the walk reads it by position.
    """
    if g > 1:
        half = g // 2
        for i in range(half, g):
            yield alive[i]
        for i in range(half - 1, 0, -1):
            yield alive[i]
    for i in range(max(g, 1), len(alive)):
        yield alive[i]

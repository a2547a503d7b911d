"""Swiss and elimination Swiss pairing (RULES.md §8), after lila's split: pure values and a pure
pairing function; loading rounds and saving pairings is the service's.

The rules, in order of strength:

1. hard: nobody meets the same opponent twice; no forbidden pairing (two entrants of the same
   club when ``clubs`` is given, and the pairs the organiser declares in ``forbidden``);
2. hard: with an odd number of players, the bye goes to a player with the fewest byes so far
   (so nobody gets a second bye before everyone has had one), the lowest-ranked such player
   who leaves a valid pairing of the others; a bye counts as a win;
3. preference: equal records meet. Players are ranked by score (wins, byes included), then
   seed; each score group is paired top half against bottom half (1 v 5, 2 v 6, 3 v 7, 4 v 8 in
   a group of eight), and the odd one out floats down to meet the top of the next group.

Two methods (``SwissOptions.method``; an event's ``swiss_pairing`` setting):

``fair`` (the default)
    of all valid pairings, one with the least sum of *squared* score differences, then the
    fewest floaters, then floaters as low in the table as they can be, the floater being the
    lowest of his group meeting the highest of the next; within a score group, the top-down
    fold below. Made by the quick way when it reaches the lower bound, else as a
    maximum-weight perfect matching (pure Python Edmonds blossom, :mod:`.weighted`); see
    :func:`_pair_fair`. 1,000 players: tens of milliseconds (bench/draw.py).
``top_down`` (the earlier pairing, kept for events that started with it)
    greedy from the top board, as follows.

The top-down pairing is made top board first: the best-ranked player still unpaired gets his most
preferred partner *among those that still leave a valid pairing of everyone else*. That check
is one augmenting-path search on a maximum matching kept alongside
(:class:`~tournaments.draw.matching.Matcher`), so the result is valid whenever any valid pairing
exists, and the search is never exponential. His partners are proposed one at a time in order of
preference (nearly always the first fits), never listed in full, and his score group's end is found
by bisection: a round costs about what its matching costs, 5,000 players in a few tens of
milliseconds (bench/draw.py).

When no valid pairing exists the answer is a :class:`NoPairing` with a code, a sentence and the
players left over, never an exception: ``too_few_players`` (fewer than two players left),
``finished`` (elimination Swiss: one player left, the winner), ``no_bye`` (every player who may
take the bye would leave the others unpairable), ``forbidden`` (the club or declared
restrictions make it impossible; without them it would pair), ``rematches`` (every pairing needs
a rematch). Wrong *input* (a round with a result missing, a stranger in the history) is an
error: ``DrawError``.

Elimination Swiss: with ``max_losses=k``, a player is out at his k-th loss and is not paired
again; the others pair as above (a bye is a win, so it never eliminates). Near its end the last
players have often all met: the answer is ``rematches`` unless the organiser allows them
(``allow_rematches=True``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain

from .errors import DrawError
from .lengths import Schedule, round_length
from .matching import Matcher
from .seeding import Seeding, as_order
from .standings import SWISS, Record, Standing, records, standings
from .values import DRAW, Entrant, Pairing, Result
from .weighted import max_weight_matching

#: The pairing methods: the fairest pairing (the default), and the earlier greedy one.
METHODS = ("fair", "top_down")

#: The codes of a :class:`NoPairing`, and what each means.
NO_PAIRING = {
    "too_few_players": "fewer than two players left to pair",
    "finished": "elimination Swiss: one player left, the winner",
    "no_bye": "every player who may have the bye (the fewest byes so far) would leave the others unpairable",
    "forbidden": "the club or declared restrictions make it impossible (without them it would pair)",
    "rematches": "every pairing needs a rematch",
}


@dataclass(frozen=True)
class SwissRound:
    """A round as played: its results (all decided before the next round can be paired) and the
    player who had the bye, if any."""

    number: int
    results: tuple[Result, ...]
    bye: Entrant | None = None


@dataclass(frozen=True)
class SwissPairing:
    """The pairings of round ``round``, top board first, and the bye (None with an even count)."""

    round: int
    pairings: tuple[Pairing, ...]
    bye: Entrant | None = None
    ok: bool = field(default=True, init=False)


@dataclass(frozen=True)
class NoPairing:
    """Round ``round`` cannot be paired: ``code`` (stable, one of :data:`NO_PAIRING`),
    ``message`` (for people), and the players a best attempt left unpaired."""

    round: int
    code: str
    message: str
    unpaired: tuple[Entrant, ...] = ()
    ok: bool = field(default=False, init=False)


def check_history(order: Sequence[Entrant], history: Iterable[SwissRound]) -> tuple[SwissRound, ...]:
    """The rounds, checked: known entrants only, each at most once per round, every result
    decided. Raises ``DrawError``: ``unknown_entrant``, ``bad_history``, ``round_not_complete``."""
    known = set(order)
    rounds = tuple(history)
    for played in rounds:
        seen: set = set()
        people = [e for r in played.results for e in (r.top, r.bottom)]
        if played.bye is not None:
            people.append(played.bye)
        for entrant in people:
            if entrant not in known:
                raise DrawError(f"{entrant!r} is not an entrant", code="unknown_entrant", entrant=entrant)
            if entrant in seen:
                raise DrawError(
                    f"{entrant!r} appears twice in round {played.number}", code="bad_history", entrant=entrant,
                    round=played.number,
                )
            seen.add(entrant)
        for result in played.results:
            if result.winner is None:
                raise DrawError(
                    f"round {played.number} is not complete: {result.top!r} v {result.bottom!r} has no result",
                    code="round_not_complete", round=played.number,
                )
    return rounds


def swiss_records(entrants: Seeding | Iterable[Entrant], history: Iterable[SwissRound]) -> dict[Entrant, Record]:
    """Each entrant's record after ``history`` (byes count as wins)."""
    order = as_order(entrants)
    rounds = check_history(order, history)
    return records(order, (r for p in rounds for r in p.results), (p.bye for p in rounds if p.bye is not None))


def swiss_standings(
    entrants: Seeding | Iterable[Entrant], history: Iterable[SwissRound], *, tiebreaks: Sequence[str] = SWISS
) -> tuple[Standing, ...]:
    """The Swiss table after ``history``: wins, Buchholz, median-Buchholz, head-to-head."""
    order = as_order(entrants)
    rounds = check_history(order, history)
    return standings(
        order, [r for p in rounds for r in p.results], [p.bye for p in rounds if p.bye is not None], tiebreaks=tiebreaks,
        unplayed=unplayed_rounds(order, rounds) if "fide_buchholz" in tiebreaks else None,
    )


def unplayed_rounds(
    entrants: Seeding | Iterable[Entrant], history: Iterable[SwissRound]
) -> dict[Entrant, list[tuple[float, float, int]]]:
    """Each entrant's unplayed rounds, for FIDE's Buchholz (tournaments.draw.standings): a bye
    (it gave him 1) or a round he was not in (withdrawn, not yet entered: 0), each as (his score
    before that round, the points it gave him, the rounds played after it)."""
    order = as_order(entrants)
    rounds = sorted(history, key=lambda p: p.number)
    score = dict.fromkeys(order, 0.0)
    out: dict[Entrant, list[tuple[float, float, int]]] = {}
    for index, played in enumerate(rounds):
        after = len(rounds) - index - 1
        gained = dict.fromkeys(order, None)
        for r in played.results:  # an undecided game (a round in play) is played, for nothing yet
            for e in (r.top, r.bottom):
                gained[e] = 0.0 if r.winner is None else 0.5 if r.winner is DRAW else float(r.winner == e)
        if played.bye is not None:
            out.setdefault(played.bye, []).append((score[played.bye], 1.0, after))
            gained[played.bye] = 1.0
        for e in order:
            if gained[e] is None:
                out.setdefault(e, []).append((score[e], 0.0, after))
                gained[e] = 0.0
            score[e] += gained[e]
    return out


@dataclass(frozen=True)
class SwissOptions:
    """How an event's Swiss rounds are paired (the organiser's choices, the same every round).

    ``lengths``: the match length schedule counted from round 1; ``clubs`` maps entrants to a club
    whose members never meet (entrants absent from it, or mapped to None, have no club);
    ``forbidden`` lists pairs the organiser forbids; ``max_losses`` makes it an elimination Swiss;
    ``allow_rematches`` lets a round that cannot be paired without a rematch be paired with them
    (the end of an elimination Swiss, a small club night), each player meeting a former opponent
    only when nobody else fits him (off by default); ``method`` is ``"fair"`` (the least squared
    score differences, :func:`_pair_fair`) or ``"top_down"`` (the earlier greedy pairing from the
    top board). Checked by :func:`pair_round`.
    """

    lengths: Schedule
    clubs: Mapping[Entrant, Hashable] | None = None
    forbidden: Iterable[tuple[Entrant, Entrant]] = ()
    max_losses: int | None = None
    allow_rematches: bool = False
    method: str = "fair"


def pair_round(
    entrants: Seeding | Iterable[Entrant],
    history: Iterable[SwissRound] = (),
    *,
    options: SwissOptions,
    withdrawn: Iterable[Entrant] = (),
) -> SwissPairing | NoPairing:
    """The pairings of the round after ``history`` (see the module docstring for the rules),
    paired as ``options`` say.

    ``entrants`` in seed order (everyone ever entered; late entrants last); ``withdrawn`` are
    not paired again.

    Deterministic: the same inputs always give the same pairing. Returns a
    :class:`SwissPairing`, or a :class:`NoPairing` saying why. Raises ``DrawError`` only for
    wrong input: ``unknown_entrant``, ``bad_history``, ``round_not_complete``, ``bad_length``,
    ``bad_max_losses``, ``bad_method``.
    """
    method, max_losses = options.method, options.max_losses
    if method not in METHODS:
        raise DrawError(f"no pairing method {method!r}; known: {', '.join(METHODS)}", code="bad_method", method=method)
    order = as_order(entrants)
    rounds = check_history(order, history)
    number = (max((p.number for p in rounds), default=0)) + 1
    length = round_length(options.lengths, number)
    if max_losses is not None and (not isinstance(max_losses, int) or isinstance(max_losses, bool) or max_losses < 1):
        raise DrawError(f"{max_losses!r} is not a number of losses", code="bad_max_losses", max_losses=repr(max_losses))
    known = set(order)
    out = set(withdrawn)
    clubs = dict(options.clubs or {})
    declared = [tuple(pair) for pair in options.forbidden]
    for entrant in (*out, *clubs, *(e for pair in declared for e in pair)):
        if entrant not in known:
            raise DrawError(f"{entrant!r} is not an entrant", code="unknown_entrant", entrant=entrant)

    table = records(order, (r for p in rounds for r in p.results), (p.bye for p in rounds if p.bye is not None))
    seed = {e: i for i, e in enumerate(order)}
    active = [e for e in order if e not in out and (max_losses is None or table[e].losses < max_losses)]
    if len(active) < 2:
        if max_losses is not None and rounds and len(active) == 1:
            return NoPairing(number, "finished", f"{active[0]!r} is the last player left: the event is over", tuple(active))
        return NoPairing(number, "too_few_players", f"{len(active)} player(s) left: nobody to pair", tuple(active))

    ranked = sorted(active, key=lambda e: (-table[e].score, seed[e]))
    index = {e: i for i, e in enumerate(ranked)}
    n = len(ranked)
    score = [table[e].score for e in ranked]
    rematch: list[set[int]] = [set() for _ in range(n)]
    for i, e in enumerate(ranked):
        rematch[i].update(index[o] for o in table[e].opponents if o in index)
    organiser: list[set[int]] = [set() for _ in range(n)]
    for a, b in declared:
        if a in index and b in index:
            organiser[index[a]].add(index[b])
            organiser[index[b]].add(index[a])
    restricted = [rematch[i] | organiser[i] for i in range(n)]
    group = [clubs.get(e) for e in ranked]

    byes = [table[e].byes for e in ranked]
    pair = _pair_fair if method == "fair" else _pair
    answer = pair(number, ranked, score, byes, restricted, group, None, length)
    if answer is None:
        if not options.allow_rematches:
            return _diagnose(number, ranked, restricted, rematch, group)
        answer = pair(number, ranked, score, byes, organiser, group, rematch, length)
        if answer is None:
            return _diagnose(number, ranked, organiser, None, group)
    return answer


def _pair(
    number: int,
    ranked: list[Entrant],
    score: list[float],
    byes: list[int],
    blocked: list[set[int]],
    group: list,
    avoid: list[set[int]] | None,
    length: int,
) -> SwissPairing | None:
    """The pairing of the players ``ranked`` (indices are ranks) where ``blocked`` pairs and
    same-``group`` pairs never meet; with ``avoid``, each player's avoided partners are tried
    only after all the others. None if no valid pairing exists."""
    n = len(ranked)
    matcher = Matcher(n, blocked, group)
    if matcher.maximise() < n // 2:
        return None
    bye = None
    if n % 2:
        fewest = min(byes)
        for i in range(n - 1, -1, -1):
            if byes[i] == fewest and matcher.remove(i):
                bye = ranked[i]
                break
        else:
            return None
    # Ranks are sorted by score, so a score group is a run of ranks: where p's run ends is known
    # once, and the live part of it is found by bisection instead of a scan per pair.
    group_end = [0] * n
    for i in range(n - 1, -1, -1):
        group_end[i] = group_end[i + 1] if i + 1 < n and score[i + 1] == score[i] else i + 1
    pairings = []
    alive = matcher.alive
    while alive:
        p = alive[0]
        g = bisect_left(alive, group_end[p])
        if avoid is None:
            candidates = _walk(alive, g)
        else:
            shunned = avoid[p]
            candidates = chain((q for q in _walk(alive, g) if q not in shunned),
                               (q for q in _walk(alive, g) if q in shunned))
        for q in candidates:
            if matcher.fix(p, q):
                break
        else:  # cannot happen: the rest was perfectly matchable, so p's partner there fits
            raise AssertionError("Swiss pairing lost its perfect matching")
        pairings.append(Pairing(f"swiss-{number}-{len(pairings) + 1}", "swiss", number, ranked[p], ranked[q], length))
    return SwissPairing(number, tuple(pairings), bye)


def _walk(alive: list[int], g: int) -> Iterator[int]:
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


def _diagnose(
    number: int, ranked: list[Entrant], blocked: list[set[int]], rematch: list[set[int]] | None, group: list
) -> NoPairing:
    """Why no pairing exists under ``blocked`` and ``group``: the bye rule (the others would
    pair), the club and declared restrictions (without them it would pair: always so when
    rematches are allowed, ``rematch`` None), or rematches."""
    n = len(ranked)
    attempt = Matcher(n, blocked, group)
    if attempt.maximise() >= n // 2:
        return NoPairing(number, "no_bye", NO_PAIRING["no_bye"])
    unpaired = tuple(ranked[v] for v in attempt.free())
    if rematch is None or Matcher(n, rematch, [None] * n).maximise() >= n // 2:
        return NoPairing(
            number, "forbidden",
            "the forbidden pairings (same club, or pairs the organiser declared) leave no valid pairing", unpaired,
        )
    return NoPairing(number, "rematches", "every possible pairing would repeat a game already played", unpaired)


# --- the fairest pairing -------------------------------------------------------------------------

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


def _pair_fair(
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
            solved = _solve(players, _neighbourhood(groups, ok), costs)
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
    pairs never meet) paired top board first, as :func:`_pair` pairs a score group."""
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
        for q in _walk(alive, len(alive)):
            if matcher.fix(p, q):
                break
        else:  # cannot happen: the rest was perfectly matchable
            raise AssertionError("Swiss pairing lost its perfect matching")
        out.append((members[p], members[q]))
    return out


def _top_down(pairs: list[tuple[int, int]], blocked: list[set[int]], group: list,
              avoid: list[set[int]] | None) -> list[tuple[int, int]]:
    """The players of ``pairs`` (one score group) paired again top board first, as
    :func:`_pair` does: each in turn meets his most preferred partner (fold, then further down,
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

"""The fairest Swiss pairing: each round a valid pairing of the least squared
score differences, then the fewest floaters, checked against an exact optimum computed here.

The reference is networkx's ``max_weight_matching`` (a test-only dependency, pinned in
requirements-dev.txt; the draw itself stays pure) on the *full* graph of valid pairs, with costs
computed here independently of tournaments/draw/swiss_fair.py; the weighted blossom under the draw
(tournaments/draw/weighted.py) is checked against brute force and networkx on small graphs.

The rule implemented (described in our own words, after the FIDE Dutch system's criteria, which
we cite without section numbers): players meet opponents on the same score where they can; a
pairing across score groups is made only when the groups cannot be paired within themselves
(forbidden pairs, rematches, odd sizes), and then a 2.0 v 0.0 pair is worse than a 2.0 v 1.0
next to a 1.0 v 0.0 (the squared differences).
"""

from __future__ import annotations

import random
from contextlib import nullcontext
from functools import cache
from itertools import combinations
from unittest import mock

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import Result, SwissOptions, SwissRound, pair_round, swiss_fair, swiss_records
from tournaments.draw.matching import Matcher
from tournaments.draw.swiss_fair import _Costs, _neighbourhood, _score_groups, _solve
from tournaments.draw.weighted import max_weight_matching

# --- the weighted blossom against brute force and networkx ------------------------------------------


@st.composite
def weighted_graphs(draw):
    n = draw(st.integers(1, 10))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    weights = draw(st.lists(st.integers(0, draw(st.sampled_from([1, 5, 100]))), min_size=len(chosen),
                            max_size=len(chosen)))
    return n, [(u, v, w) for (u, v), w in zip(chosen, weights, strict=True)]


def brute_best(n, edges, perfect_only=False):
    """The largest total weight of a matching (of a largest one when ``perfect_only``), by brute
    force: (size, weight) compared lexicographically."""
    weight = {(u, v): w for u, v, w in edges}

    @cache
    def best(rest: frozenset) -> tuple[int, int]:
        if len(rest) < 2:
            return (0, 0)
        first = min(rest)
        others = rest - {first}
        options = [best(others)]
        for v in others:
            if (first, v) in weight:
                size, total = best(others - {v})
                options.append((size + 1, total + weight[(first, v)]))
        return max(options) if perfect_only else max(options, key=lambda o: (o[1], o[0]))

    return best(frozenset(range(n)))


@settings(max_examples=300, deadline=None)
@given(weighted_graphs(), st.booleans())
def test_the_blossom_finds_the_brute_force_optimum_and_its_duals_prove_it(graph, maxcardinality):
    n, edges = graph
    result = max_weight_matching(n, edges, maxcardinality=maxcardinality)
    weight = {(min(u, v), max(u, v)): w for u, v, w in edges}
    found = (result.size(), sum(weight[(u, v)] for u, v in result.pairs()))
    expected = brute_best(n, edges, perfect_only=maxcardinality)
    assert found[1] == expected[1] and (not maxcardinality or found[0] == expected[0])
    assert all(result.reduced_cost(u, v, w) >= 0 for u, v, w in edges)  # dual feasible: optimal
    assert all(result.reduced_cost(u, v, weight[(u, v)]) == 0 for u, v in result.pairs())  # tight


def test_the_blossom_agrees_with_networkx_on_larger_random_graphs():
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(10, 40)
        edges = [(u, v, rng.randint(0, 50)) for u, v in combinations(range(n), 2) if rng.random() < 0.3]
        graph = nx.Graph()
        graph.add_weighted_edges_from(edges)
        for cardinality in (False, True):
            reference = nx.max_weight_matching(graph, maxcardinality=cardinality)
            mine = max_weight_matching(n, edges, maxcardinality=cardinality)
            total = {(min(u, v), max(u, v)): w for u, v, w in edges}
            assert sum(total[tuple(sorted(p))] for p in reference) == sum(total[p] for p in mine.pairs())
            assert len(reference) == mine.size() or not cardinality


def test_a_start_from_a_matching_of_the_heaviest_edges_gives_the_same_optimum():
    rng = random.Random(7)
    n = 30
    edges = [(u, v, rng.choice([9, 9, 9, 4, 1])) for u, v in combinations(range(n), 2) if rng.random() < 0.4]
    used, initial = set(), []
    for k, (u, v, w) in enumerate(edges):
        if w == 9 and not {u, v} & used:
            used |= {u, v}
            initial.append(k)
    cold = max_weight_matching(n, edges, maxcardinality=True)
    warm = max_weight_matching(n, edges, maxcardinality=True, initial=initial)
    weight = {(u, v): w for u, v, w in edges}
    assert sum(weight[p] for p in cold.pairs()) == sum(weight[p] for p in warm.pairs())
    with pytest.raises(ValueError):
        max_weight_matching(n, edges, initial=[next(k for k, e in enumerate(edges) if e[2] < 9)])


# --- six players after three rounds --------------------------------------------------------------


def beat(winner, loser) -> Result:
    return Result(winner, loser, winner)


def test_six_players_in_round_4_are_paired_without_a_2_against_0():
    """After three rounds a, c, e, f have 2 wins, b 1, d none. The top-down
    pairing meets c v b (2 v 1) and e v d (2 v 0); the four on 2 wins can meet among themselves
    and b v d is 1 v 0: no difference above 1."""
    history = [
        SwissRound(1, (beat("a", "d"), beat("e", "b"), beat("f", "c"))),
        SwissRound(2, (beat("e", "a"), beat("b", "f"), beat("c", "d"))),
        SwissRound(3, (beat("c", "e"), beat("a", "b"), beat("f", "d"))),
    ]
    old = pair_round("abcdef", history, options=SwissOptions(lengths=5, method="top_down"))
    assert [(p.top, p.bottom) for p in old.pairings] == [("a", "f"), ("c", "b"), ("e", "d")]
    new = pair_round("abcdef", history, options=SwissOptions(lengths=5))
    assert [(p.top, p.bottom) for p in new.pairings] == [("a", "c"), ("e", "f"), ("b", "d")]


def test_an_unknown_method_is_refused():
    with pytest.raises(Exception) as error:
        pair_round("abcd", (), options=SwissOptions(lengths=5, method="dutch"))
    assert error.value.code == "bad_method"


# --- seeded events of 64 and 101 players against the exact optimum ---------------------------------


def measure(pairs, score) -> tuple[int, int]:
    """(the sum of squared score differences in half points, the floater pairs) of ``pairs``."""
    squares = sum(round(2 * (score[a] - score[b])) ** 2 for a, b in pairs)
    return squares, sum(1 for a, b in pairs if score[a] != score[b])


def reference_optimum(players, score, valid) -> tuple[int, int]:
    """The least (squares, floaters) of any perfect matching of ``players`` on the ``valid``
    pairs, by networkx on the full graph (weights: a large constant minus the packed cost)."""
    big = len(players) + 1
    graph = nx.Graph()
    graph.add_nodes_from(players)
    top = 10**12
    for a, b in combinations(players, 2):
        if valid(a, b):
            squares, floats = measure([(a, b)], score)
            graph.add_edge(a, b, weight=top - (squares * big + floats))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(players)
    return measure(matching, score)


def in_group_pairing_exists(players, score, valid) -> bool:
    """Whether every score group of ``players`` can be paired within itself."""
    groups: dict[float, list] = {}
    for p in players:
        groups.setdefault(score[p], []).append(p)
    for members in groups.values():
        if len(members) % 2:
            return False
        index = {p: i for i, p in enumerate(members)}
        blocked = [{index[q] for q in members if not valid(p, q)} for p in members]
        if Matcher(len(members), blocked, [None] * len(members)).maximise() < len(members) // 2:
            return False
    return True


@pytest.mark.parametrize("path", ["as_drawn", "matching_only"])
@pytest.mark.parametrize(
    ("players", "rounds", "seed", "club_size"),
    [(64, 9, 1, 0), (64, 9, 2, 8), (101, 10, 3, 0), (101, 10, 4, 10)],
)
def test_every_round_of_a_seeded_event_has_the_least_score_differences_and_no_avoidable_floater(
    players, rounds, seed, club_size, path, monkeypatch
):
    """Seeded 64- and 101-player events, every round, random results (and clubs kept apart in
    two of them): each round's (squared differences, floaters) equals networkx's optimum on the
    full graph of valid pairs; no pair crosses score groups when every group can be paired
    within itself; and the restriction the draw solves first at scale (every pair within a score
    group or between neighbouring groups) loses nothing against the full graph. ``matching_only``:
    the same with the quick way (swiss_fair._plain_floats) turned off, so that every round goes
    through the weighted matching."""
    if path == "matching_only":
        monkeypatch.setattr(swiss_fair, "_plain_floats", lambda *args: None)
    rng = random.Random(seed)
    entrants = list(range(1, players + 1))
    clubs = {e: e % (players // club_size) for e in entrants} if club_size else None
    history: list[SwissRound] = []
    for _ in range(rounds):
        answer = pair_round(entrants, history, options=SwissOptions(lengths=5, clubs=clubs))
        assert answer.ok, answer
        table = swiss_records(entrants, history)
        score = {e: table[e].score for e in entrants}
        met = {frozenset((r.top, r.bottom)) for h in history for r in h.results}

        def valid(a, b, met=met):
            return frozenset((a, b)) not in met and not (clubs and clubs[a] == clubs[b])

        paired = [e for e in entrants if e != answer.bye]
        pairs = [(p.top, p.bottom) for p in answer.pairings]
        assert all(valid(a, b) for a, b in pairs)
        assert measure(pairs, score) == reference_optimum(paired, score, valid)
        if in_group_pairing_exists(paired, score, valid):
            assert all(score[a] == score[b] for a, b in pairs)

        # the restriction to neighbouring score groups against the full graph, solved as the draw does
        ranked = sorted(paired, key=lambda e: (-score[e], e))
        costs = _Costs([score[e] for e in ranked], None)
        groups = _score_groups(list(range(len(ranked))), costs.level)

        def ok(i, j, ranked=ranked, valid=valid):
            return valid(ranked[i], ranked[j])

        restricted = _solve(list(range(len(ranked))), _neighbourhood(groups, ok), costs)
        full, _ = _solve(list(range(len(ranked))),
                         {(i, j) for i, j in combinations(range(len(ranked)), 2) if ok(i, j)}, costs)
        cost = lambda m, costs=costs: sum(costs.cost(min(u, v), max(u, v)) for u, v in m.pairs())  # noqa: E731
        # None: the restriction holds no perfect matching, and the draw takes the full graph
        assert restricted is None or cost(restricted[0]) == cost(full)
        assert measure([(ranked[u], ranked[v]) for u, v in full.pairs()], score) == measure(pairs, score)

        history.append(SwissRound(answer.round, tuple(Result(a, b, rng.choice((a, b))) for a, b in pairs), answer.bye))


def test_the_top_down_pairing_made_avoidable_floaters_and_the_fair_one_none_in_the_same_positions():
    """The top-down pairing at 64 players: ten events of 64 players, 7 rounds each, played by the
    top-down pairing; in 7 of the 70 rounds it paired across score groups although every group
    could be paired within itself. Asked in the same positions, the fair pairing never does."""
    avoidable = {"fair": 0, "top_down": 0}
    for seed in range(10):
        rng = random.Random(seed)
        entrants = list(range(1, 65))
        history: list[SwissRound] = []
        for _ in range(7):
            table = swiss_records(entrants, history)
            score = {e: table[e].score for e in entrants}
            met = {frozenset((r.top, r.bottom)) for h in history for r in h.results}
            answers = {m: pair_round(entrants, history, options=SwissOptions(lengths=5, method=m)) for m in avoidable}
            if in_group_pairing_exists(entrants, score, lambda a, b, met=met: frozenset((a, b)) not in met):
                for method, answer in answers.items():
                    avoidable[method] += any(score[p.top] != score[p.bottom] for p in answer.pairings)
            pairs = [(p.top, p.bottom) for p in answers["top_down"].pairings]
            history.append(SwissRound(len(history) + 1, tuple(Result(a, b, rng.choice((a, b))) for a, b in pairs)))
    assert avoidable == {"fair": 0, "top_down": 7}


def test_allowing_rematches_pairs_the_fewest_rematches():
    """With rematches allowed (the end of an elimination Swiss), a round that needs them has the
    fewest a valid pairing can have (networkx on the full graph, rematches weighing most)."""
    rng = random.Random(11)
    entrants = list(range(1, 13))
    history: list[SwissRound] = []
    checked = 0
    for _ in range(14):
        answer = pair_round(entrants, history, options=SwissOptions(lengths=5, allow_rematches=True))
        assert answer.ok
        met = {frozenset((r.top, r.bottom)) for h in history for r in h.results}
        rematches = sum(frozenset((p.top, p.bottom)) in met for p in answer.pairings)
        graph = nx.Graph()
        for a, b in combinations(entrants, 2):
            graph.add_edge(a, b, weight=100 - 50 * (frozenset((a, b)) in met))
        best = nx.max_weight_matching(graph, maxcardinality=True)
        assert rematches == sum(frozenset(p) in met for p in best)
        checked += rematches > 0
        history.append(SwissRound(answer.round, tuple(Result(p.top, p.bottom, rng.choice((p.top, p.bottom)))
                                                      for p in answer.pairings), answer.bye))
    assert checked  # some rounds needed rematches


# --- small random positions against brute force ------------------------------------------------------


def brute_least(players, score, valid):
    """The least (squares, floaters) of a perfect matching of ``players`` on ``valid`` pairs, by
    trying every pairing (None when there is none)."""

    @cache
    def best(rest: tuple):
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        options = []
        for q in others:
            if valid(first, q):
                tail = best(tuple(o for o in others if o != q))
                if tail is not None:
                    squares, floats = measure([(first, q)], score)
                    options.append((tail[0] + squares, tail[1] + floats))
        return min(options) if options else None

    return best(tuple(players))


@st.composite
def positions(draw):
    n = draw(st.integers(2, 10))
    entrants = [f"p{i}" for i in range(n)]
    history = []
    for number in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(entrants))
        games = [(order[i], order[i + 1]) for i in range(0, n - 1, 2)]
        wins = draw(st.lists(st.booleans(), min_size=len(games), max_size=len(games)))
        results = tuple(Result(a, b, a if w else b) for (a, b), w in zip(games, wins, strict=True))
        history.append(SwissRound(number, results, order[-1] if n % 2 else None))
    pick = st.sampled_from(entrants)
    forbidden = draw(st.lists(st.tuples(pick, pick).filter(lambda t: t[0] != t[1]), max_size=3))
    return entrants, history, forbidden


@settings(max_examples=400, deadline=None)
@given(positions(), st.booleans())
def test_small_positions_get_the_brute_force_optimum(position, matching_only):
    """Any small position (random history, rematches, forbidden pairs, odd counts): the fair
    pairing is valid, gives the bye to the same player as the top-down one, and has the least
    (squared differences, floaters) of all valid pairings of the others (brute force); with
    ``matching_only``, the quick way turned off (every round through the weighted matching)."""
    entrants, history, forbidden = position
    with mock.patch.object(swiss_fair, "_plain_floats", lambda *args: None) if matching_only else nullcontext():
        fair = pair_round(entrants, history, options=SwissOptions(lengths=5, forbidden=forbidden))
    old = pair_round(entrants, history, options=SwissOptions(lengths=5, forbidden=forbidden, method="top_down"))
    assert fair.ok == old.ok and (not fair.ok or fair.bye == old.bye)
    if not fair.ok:
        assert fair.code == old.code
        return
    table = swiss_records(entrants, history)
    score = {e: table[e].score for e in entrants}
    shut = {frozenset(p) for p in forbidden} | {frozenset((r.top, r.bottom)) for h in history for r in h.results}

    def valid(a, b):
        return frozenset((a, b)) not in shut

    pairs = [(p.top, p.bottom) for p in fair.pairings]
    assert all(valid(a, b) for a, b in pairs)
    assert sorted([e for p in pairs for e in p] + ([fair.bye] if fair.bye else [])) == sorted(entrants)
    assert measure(pairs, score) == brute_least([e for e in entrants if e != fair.bye], score, valid)
    # and never worse than the top-down pairing of the same position
    assert measure(pairs, score) <= measure([(p.top, p.bottom) for p in old.pairings], score)


def test_a_pair_across_two_score_groups_is_taken_when_it_makes_fewer_floaters():
    """Ten players after four rounds (scores 4 | 3 3 | 2 2 2 | 1 1 1 1, several pairs already
    played): the 4 meeting a 2 costs 16 in squared half-point differences, as much as four pairs
    across one gap each, and leaves one floater pair instead of four. That pair joins groups two
    apart, outside the neighbouring groups the matching is first solved on: the blossom's duals
    must bring it in."""
    entrants = [f"p{i}" for i in range(10)]
    rounds = [
        [("p0", "p1", "p1"), ("p5", "p3", "p3"), ("p4", "p6", "p4"), ("p7", "p2", "p2"), ("p9", "p8", "p8")],
        [("p9", "p3", "p9"), ("p8", "p4", "p4"), ("p5", "p1", "p5"), ("p6", "p7", "p7"), ("p2", "p0", "p2")],
        [("p0", "p1", "p0"), ("p4", "p3", "p3"), ("p2", "p5", "p2"), ("p6", "p7", "p7"), ("p9", "p8", "p8")],
        [("p0", "p8", "p8"), ("p9", "p4", "p9"), ("p3", "p5", "p3"), ("p7", "p6", "p6"), ("p2", "p1", "p2")],
    ]
    history = [SwissRound(number, tuple(Result(a, b, w) for a, b, w in games), None)
               for number, games in enumerate(rounds, start=1)]
    table = swiss_records(entrants, history)
    score = {e: table[e].score for e in entrants}
    played = {frozenset((r.top, r.bottom)) for h in history for r in h.results}
    least = brute_least(entrants, score, lambda a, b: frozenset((a, b)) not in played)
    assert least == (16, 1)
    for quick in (True, False):
        with nullcontext() if quick else mock.patch.object(swiss_fair, "_plain_floats", lambda *args: None):
            fair = pair_round(entrants, history, options=SwissOptions(lengths=5))
        pairs = [(p.top, p.bottom) for p in fair.pairings]
        assert measure(pairs, score) == least
        assert not any(frozenset(pair) in played for pair in pairs)

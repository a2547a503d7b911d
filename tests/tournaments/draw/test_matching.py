"""The blossom matching under the Swiss pairing, checked against brute force on small graphs
(odd cycles included, where a plain bipartite search would fail)."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw.matching import Matcher


@st.composite
def graphs(draw):
    """``n`` vertices, a set of blocked pairs, and some vertices in two groups (clubs)."""
    n = draw(st.integers(1, 11))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    blocked_pairs = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    blocked = [set() for _ in range(n)]
    for u, v in blocked_pairs:
        blocked[u].add(v)
        blocked[v].add(u)
    group = draw(st.lists(st.sampled_from([None, None, "x", "y"]), min_size=n, max_size=n))
    return n, blocked, group


def edges(n, blocked, group):
    return {
        (u, v) for u in range(n) for v in range(u + 1, n)
        if v not in blocked[u] and (group[u] is None or group[u] != group[v])
    }


def best(n, allowed, among=None) -> int:
    """The size of a maximum matching of the graph restricted to ``among``, by brute force."""

    @cache
    def size(rest: frozenset) -> int:
        if len(rest) < 2:
            return 0
        first = min(rest)
        others = rest - {first}
        options = [size(others)]
        options += [1 + size(others - {v}) for v in others if (first, v) in allowed]
        return max(options)

    return size(frozenset(range(n) if among is None else among))


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_it_finds_a_matching_as_large_as_brute_force_does(graph):
    n, blocked, group = graph
    allowed = edges(n, blocked, group)
    matcher = Matcher(n, blocked, group)
    size = matcher.maximise()
    assert size == best(n, allowed)
    for u, v in enumerate(matcher.mate):
        if v != -1:
            assert matcher.mate[v] == u and (min(u, v), max(u, v)) in allowed


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_it_fixes_a_pair_exactly_when_the_rest_can_still_be_perfectly_matched(graph, data):
    n, blocked, group = graph
    allowed = edges(n, blocked, group)
    matcher = Matcher(n, blocked, group)
    if n % 2 or matcher.maximise() < n // 2:
        return
    p, q = data.draw(st.sampled_from([(u, v) for u in range(n) for v in range(u + 1, n)] or [(0, 0)]))
    expected = (p, q) in allowed and best(n, allowed, set(range(n)) - {p, q}) == n // 2 - 1
    before = list(matcher.mate)
    assert matcher.fix(p, q) == expected
    if expected:
        assert p not in matcher.alive and q not in matcher.alive
        assert all(matcher.mate[v] != -1 for v in matcher.alive)
    else:
        assert matcher.alive == list(range(n)) and matcher.mate == before


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_it_takes_a_vertex_out_exactly_when_the_rest_can_be_perfectly_matched(graph, data):
    n, blocked, group = graph
    allowed = edges(n, blocked, group)
    matcher = Matcher(n, blocked, group)
    if n % 2 == 0 or matcher.maximise() < n // 2:
        return
    v = data.draw(st.integers(0, n - 1))
    expected = best(n, allowed, set(range(n)) - {v}) == n // 2
    assert matcher.remove(v) == expected
    assert (v in matcher.alive) != expected

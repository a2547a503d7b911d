"""Round robin: the circle method, a fixed schedule per round, groups by the seed snake, byes
with an odd count."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.draw import DrawError, round_robin, seed_randomly, snake_groups


def players(n: int) -> list[int]:
    return list(range(1, n + 1))


@pytest.mark.parametrize("n", range(2, 13))
def test_every_pair_meets_exactly_once_and_nobody_plays_twice_in_a_round(n):
    (group,) = round_robin(players(n), lengths=5).groups
    assert len(group.rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset((p.top, p.bottom)) for p in group.pairings)
    assert set(met) == {frozenset(pair) for pair in combinations(players(n), 2)}
    assert set(met.values()) == {1}
    for played in group.rounds:
        seats = [e for p in played.pairings for e in (p.top, p.bottom)] + [played.bye] * (played.bye is not None)
        assert sorted(seats) == players(n)


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_with_an_odd_count_everyone_sits_out_exactly_one_round(n):
    (group,) = round_robin(players(n), lengths=5).groups
    assert sorted(r.bye for r in group.rounds) == players(n)


@pytest.mark.parametrize("n", [4, 6, 8, 12])
def test_with_an_even_count_nobody_sits_out(n):
    (group,) = round_robin(players(n), lengths=5).groups
    assert all(r.bye is None for r in group.rounds)


def test_the_schedule_of_four_is_fixed_round_by_round():
    (group,) = round_robin(["a", "b", "c", "d"], lengths=[5, 5, 7]).groups
    assert [[(p.id, p.top, p.bottom, p.length) for p in r.pairings] for r in group.rounds] == [
        [("A-1-1", "a", "d", 5), ("A-1-2", "b", "c", 5)],
        [("A-2-1", "a", "c", 5), ("A-2-2", "d", "b", 5)],
        [("A-3-1", "a", "b", 7), ("A-3-2", "c", "d", 7)],
    ]


@pytest.mark.parametrize(
    ("n", "groups", "expected"),
    [
        (8, 2, ((1, 4, 5, 8), (2, 3, 6, 7))),
        (10, 3, ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))),
        (12, 4, ((1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12))),
        (5, 1, ((1, 2, 3, 4, 5),)),
    ],
)
def test_groups_are_dealt_by_the_seed_snake(n, groups, expected):
    assert snake_groups(players(n), groups) == expected


def test_each_group_plays_its_own_round_robin_under_its_own_letter():
    draw = round_robin(players(10), lengths=3, groups=3)
    assert [g.name for g in draw.groups] == ["A", "B", "C"]
    assert {p.flight for p in draw.groups[2].pairings} == {"C"}
    assert draw.group_of(9).name == "C"
    assert all(p.top in g.entrants and p.bottom in g.entrants for g in draw.groups for p in g.pairings)
    assert len(draw.pairings) == 3 + 3 + 6


@pytest.mark.parametrize(("n", "groups"), [(5, 3), (4, 0), (3, 2)])
def test_it_refuses_groups_of_fewer_than_two(n, groups):
    with pytest.raises(DrawError) as error:
        round_robin(players(n), lengths=5, groups=groups)
    assert error.value.code == "bad_groups"


def test_a_random_order_drawn_again_from_its_seed_gives_the_same_groups_and_schedule():
    names = [f"club member {i}" for i in range(14)]
    assert round_robin(seed_randomly(names, 99), lengths=5, groups=2) == round_robin(
        seed_randomly(sorted(names, reverse=True), 99), lengths=5, groups=2
    )


def test_it_needs_two_entrants():
    with pytest.raises(DrawError) as error:
        round_robin(["alone"], lengths=5)
    assert error.value.code == "too_few_entrants"

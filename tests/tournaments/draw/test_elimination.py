"""Single elimination: byes to the top seeds, standard seeding positions, advancement from
confirmed results only, lengths per round, corrections, placings."""

from __future__ import annotations

import random

import pytest

from tournaments.draw import (
    BYE,
    DrawError,
    Seeded,
    advance,
    bracket_size,
    next_pairings,
    seed_positions,
    seed_randomly,
    single_elimination,
)
from tournaments.draw.bracket import BYE_STATUS, PLAYED, READY, WAITING


def players(n: int) -> list[int]:
    """Entrants 1..n, so an entrant's id is his seed."""
    return list(range(1, n + 1))


def play_out(bracket, choose=min, results=None):
    """Play every match to the end, ``choose(top, bottom)`` naming each winner; the results."""
    results = dict(results or {})
    while pairings := next_pairings(bracket, results):
        for p in pairings:
            results[p.id] = choose(p.top, p.bottom)
    return results


def coin(seed: int):
    rng = random.Random(seed)
    return lambda top, bottom: rng.choice((top, bottom))


@pytest.mark.parametrize(("size", "expected"), [
    (2, (1, 2)),
    (4, (1, 4, 2, 3)),
    (8, (1, 8, 4, 5, 2, 7, 3, 6)),
    (16, (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)),
])
def test_it_uses_the_standard_seeding_positions(size, expected):
    assert seed_positions(size) == expected


@pytest.mark.parametrize("n", range(2, 65))
def test_every_bracket_from_2_to_64_has_the_right_size_and_byes_to_the_top_seeds(n):
    bracket = single_elimination(players(n), lengths=5)
    size = bracket_size(n)
    assert bracket.size == size and size // 2 < n <= size
    first = bracket.round_matches("main", 1)
    assert len(first) == size // 2
    slots = [s for m in first for s in (m.top, m.bottom)]
    assert sorted(s.entrant for s in slots if isinstance(s, Seeded)) == players(n)
    assert sum(s is BYE for s in slots) == size - n
    with_bye = sorted(m.top.seed for m in first if m.bottom is BYE)
    assert with_bye == list(range(1, size - n + 1))  # the byes go to the best seeds
    assert not any(m.top is BYE for m in first)
    assert len(bracket.matches) == size - 1


@pytest.mark.parametrize("n", range(2, 65))
def test_the_top_two_seeds_can_only_meet_in_the_final(n):
    bracket = single_elimination(players(n), lengths=5)
    rounds = bracket.flights[0].rounds
    for trial in range(3):  # whatever the results, 1 and 2 never meet before the last round
        results = play_out(bracket, coin(trial))
        state = advance(bracket, results)
        meeting = [s.match.round for s in state.matches if {s.top, s.bottom} == {1, 2}]
        assert all(r == rounds for r in meeting)
    favourites = advance(bracket, play_out(bracket, min))
    final = favourites.get(f"main-{rounds}-1")
    assert (final.top, final.bottom) == (1, 2)


@pytest.mark.parametrize("n", [8, 16, 32])
def test_when_favourites_win_every_round_pairs_seeds_adding_up_to_the_round_size_plus_one(n):
    bracket = single_elimination(players(n), lengths=5)
    state = advance(bracket, play_out(bracket))
    for s in state.matches:
        in_round = n >> (s.match.round - 1)
        assert s.top + s.bottom == in_round + 1


def test_round_one_of_a_12_player_bracket_gives_the_top_four_seeds_a_bye():
    state = advance(single_elimination(players(12), lengths=5), {})
    byes = [(s.match.id, s.winner) for s in state.matches if s.status == BYE_STATUS]
    assert byes == [("main-1-1", 1), ("main-1-3", 4), ("main-1-5", 2), ("main-1-7", 3)]
    assert [(p.id, p.top, p.bottom) for p in state.ready()] == [
        ("main-1-2", 8, 9), ("main-1-4", 5, 12), ("main-1-6", 7, 10), ("main-1-8", 6, 11),
    ]


def test_it_gives_each_round_its_length_from_the_schedule():
    bracket = single_elimination(players(16), lengths=[5, 5, 7, 9])
    assert {m.round: m.length for m in bracket.matches} == {1: 5, 2: 5, 3: 7, 4: 9}
    results = play_out(bracket)
    del results["main-4-1"]
    (final,) = next_pairings(bracket, results)
    assert (final.id, final.top, final.bottom, final.length) == ("main-4-1", 1, 2, 9)


def test_a_match_is_paired_only_once_both_results_that_feed_it_are_confirmed():
    bracket = single_elimination(players(8), lengths=[5, 7, 9])
    assert [p.id for p in next_pairings(bracket, {})] == ["main-1-1", "main-1-2", "main-1-3", "main-1-4"]
    state = advance(bracket, {"main-1-1": 1})
    assert state.get("main-2-1").status == WAITING
    assert (state.get("main-2-1").top, state.get("main-2-1").bottom) == (1, None)
    state = advance(bracket, {"main-1-1": 1, "main-1-2": 5})
    second = state.get("main-2-1")
    assert (second.status, second.top, second.bottom) == (READY, 1, 5)
    assert second.pairing.length == 7
    assert [p.id for p in state.ready()] == ["main-1-3", "main-1-4", "main-2-1"]


def test_the_bracket_finishes_with_a_champion():
    bracket = single_elimination(players(8), lengths=5)
    results = play_out(bracket)
    state = advance(bracket, results)
    assert state.finished and state.champion() == 1
    assert state.get("main-3-1").status == PLAYED
    assert not state.ready()


@pytest.mark.parametrize(
    ("results", "code"),
    [
        ({"main-9-9": 1}, "unknown_match"),
        ({"main-1-2": 1}, "not_in_match"),  # seed 1 does not play 4 v 5
        ({"main-2-1": 1}, "match_not_ready"),  # its players are not known yet
        ({"main-1-1": 1}, "match_not_ready"),  # 1 v bye: nothing to play (6 entrants)
    ],
)
def test_it_refuses_results_that_do_not_fit_the_bracket(results, code):
    with pytest.raises(DrawError) as error:
        advance(single_elimination(players(6), lengths=5), results)
    assert error.value.code == code
    assert error.value.details["match"] in results


def test_a_correction_changes_what_depends_on_it_and_a_stale_later_result_is_refused():
    bracket = single_elimination(players(8), lengths=5)
    assert bracket.dependents("main-1-2") == ("main-2-1", "main-3-1")
    results = {"main-1-1": 1, "main-1-2": 4, "main-2-1": 4}
    corrected = dict(results, **{"main-1-2": 5})
    with pytest.raises(DrawError) as error:
        advance(bracket, corrected)
    assert error.value.code == "not_in_match"  # main-2-1 still names 4, who is out now
    del corrected["main-2-1"]  # what the service resets: the dependents
    assert advance(bracket, corrected).get("main-2-1").pairing.bottom == 5


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (8, [("1", 1), ("2", 2), ("3-4", 3), ("3-4", 4), ("5-8", 5), ("5-8", 6), ("5-8", 7), ("5-8", 8)]),
        (5, [("1", 1), ("2", 2), ("3-4", 3), ("3-4", 4), ("5", 5)]),  # only one first-round match: 4 v 5
        (2, [("1", 1), ("2", 2)]),
    ],
)
def test_placings_share_places_between_losers_of_the_same_round(n, expected):
    bracket = single_elimination(players(n), lengths=5)
    placings = advance(bracket, play_out(bracket)).placings()
    assert [(p.label, p.entrant) for p in placings] == expected


def test_a_place_decided_early_is_already_its_final_number():
    bracket = single_elimination(players(8), lengths=5)
    state = advance(bracket, {"main-1-1": 1, "main-1-2": 4})
    assert [(p.label, p.entrant) for p in state.placings()] == [("5-8", 5), ("5-8", 8)]
    assert state.champion() is None


def test_the_same_entrants_and_seed_give_the_same_bracket():
    names = [f"player {i}" for i in range(1, 30)]
    first = single_elimination(seed_randomly(names, 424242), lengths=[5, 7])
    again = single_elimination(seed_randomly(reversed(names), 424242), lengths=[5, 7])
    assert first == again and first.random_seed == 424242
    assert first != single_elimination(seed_randomly(names, 424243), lengths=[5, 7])


@pytest.mark.parametrize("n", [0, 1])
def test_it_needs_two_entrants(n):
    with pytest.raises(DrawError) as error:
        single_elimination(players(n), lengths=5)
    assert error.value.code == "too_few_entrants"


@pytest.mark.parametrize("size", [0, 1, 3, 12])
def test_seeding_positions_exist_only_for_powers_of_two(size):
    with pytest.raises(DrawError) as error:
        seed_positions(size)
    assert error.value.code == "bad_size"

"""Consolation and last-chance flights fed by a drop map: first-round losers only or
progressive, each flight with its own lengths, and final placings across the flights."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.draw import (
    BYE,
    DrawError,
    Drop,
    LoserOf,
    WinnerOf,
    add_consolation,
    advance,
    drop_order,
    next_pairings,
    single_elimination,
)
from tournaments.draw.bracket import BYE_STATUS


def players(n: int) -> list[int]:
    return list(range(1, n + 1))


def coin(seed: int):
    rng = random.Random(seed)
    return lambda top, bottom: rng.choice((top, bottom))


def play_out(bracket, choose=min):
    results = {}
    while pairings := next_pairings(bracket, results):
        for p in pairings:
            results[p.id] = choose(p.top, p.bottom)
    return results


def event(n: int, rounds: int = 1, last_chance: bool = False):
    """Main flight of ``n`` (lengths 5, 7, 9 for the final), consolation of the losers of its
    first ``rounds`` rounds (3 points), optional last chance of consolation round-1 losers (1)."""
    bracket = add_consolation(single_elimination(players(n), lengths=[5, 7, 9]), rounds=rounds, lengths=3)
    if last_chance:
        bracket = add_consolation(bracket, name="last_chance", source="consolation", lengths=1)
    return bracket


def test_first_round_losers_only_meet_in_drop_order_then_play_a_knockout():
    bracket = event(16)
    consolation = bracket.flight("consolation")
    assert (consolation.rounds, consolation.source, consolation.fed_rounds) == (3, "main", (1,))
    assert [(m.id, m.top, m.bottom) for m in bracket.round_matches("consolation", 1)][:2] == [
        ("consolation-1-1", LoserOf("main-1-1"), LoserOf("main-1-2")),
        ("consolation-1-2", LoserOf("main-1-3"), LoserOf("main-1-4")),
    ]
    assert [len(bracket.round_matches("consolation", r)) for r in (1, 2, 3)] == [4, 2, 1]
    assert {m.length for m in bracket.matches if m.flight == "consolation"} == {3}


def test_the_drop_map_of_a_progressive_8_player_consolation_is_published_as_a_value():
    assert event(8, rounds=2).drop_map("consolation") == (
        Drop("main-1-1", "consolation-1-1", "top"),
        Drop("main-1-2", "consolation-1-1", "bottom"),
        Drop("main-1-3", "consolation-1-2", "top"),
        Drop("main-1-4", "consolation-1-2", "bottom"),
        Drop("main-2-1", "consolation-2-2", "bottom"),  # reversed: away from the quarter it came from
        Drop("main-2-2", "consolation-2-1", "bottom"),
    )


@pytest.mark.parametrize(
    ("n", "rounds", "entry_rounds"),
    [
        (16, 1, {1: 1}),
        (16, 2, {1: 1, 2: 2}),
        (16, 3, {1: 1, 2: 2, 3: 4}),
        (32, 4, {1: 1, 2: 2, 3: 4, 4: 6}),
        (64, 5, {1: 1, 2: 2, 3: 4, 4: 6, 5: 8}),
    ],
)
def test_losers_of_main_round_r_enter_the_consolation_at_the_documented_round(n, rounds, entry_rounds):
    bracket = event(n, rounds)
    entered = {}
    for drop in bracket.drop_map("consolation"):
        entered.setdefault(bracket.match(drop.source).round, set()).add(bracket.match(drop.target).round)
    assert {r: targets.pop() for r, targets in entered.items() if len(targets) == 1} == entry_rounds


@pytest.mark.parametrize(("n", "rounds"), [(8, 1), (8, 2), (16, 3), (24, 2), (32, 4), (13, 2), (6, 1)])
def test_exactly_the_losers_of_the_first_k_main_rounds_play_on_in_the_consolation(n, rounds):
    bracket = event(n, rounds)
    for trial in range(5):
        state = advance(bracket, play_out(bracket, coin(trial)))
        dropped = {s.loser for s in state.matches if s.match.flight == "main" and s.match.round <= rounds} - {BYE}
        not_dropped = {s.loser for s in state.matches if s.match.flight == "main" and s.match.round > rounds}
        in_consolation = {e for s in state.matches if s.match.flight == "consolation" for e in (s.top, s.bottom)}
        assert dropped == in_consolation - {BYE}
        assert not not_dropped & in_consolation


@pytest.mark.parametrize("n", [8, 16, 32, 64])
def test_the_first_losers_to_meet_consolation_survivors_never_meet_someone_they_beat(n):
    bracket = event(n, rounds=3 if n > 8 else 2)
    for trial in range(20):
        state = advance(bracket, play_out(bracket, coin(trial)))
        met = {frozenset((s.top, s.bottom)) for s in state.matches if s.match.flight == "main"}
        entry = [s for s in state.matches if s.match.flight == "consolation" and s.match.round == 2]
        assert entry and not any(frozenset((s.top, s.bottom)) in met for s in entry)


@pytest.mark.parametrize(("count", "entry", "expected"), [
    (4, 1, (3, 2, 1, 0)),
    (4, 2, (1, 0, 3, 2)),
    (4, 3, (2, 3, 0, 1)),
    (4, 4, (3, 2, 1, 0)),
    (2, 2, (0, 1)),
    (1, 1, (0,)),
])
def test_newcomers_are_reversed_then_reversed_by_halves_then_swapped_by_halves(count, entry, expected):
    assert drop_order(count, entry) == expected


def test_a_main_match_against_a_bye_drops_nobody():
    bracket = event(6)  # 1 v bye and 2 v bye in round 1
    state = advance(bracket, {"main-1-2": 4, "main-1-4": 3})
    first = state.get("consolation-1-1")  # losers of main-1-1 (a bye) and main-1-2 (5)
    assert (first.status, first.top, first.bottom, first.winner) == (BYE_STATUS, BYE, 5, 5)


def test_consolation_losers_drop_to_a_last_chance_flight_with_its_own_lengths():
    bracket = event(16, rounds=2, last_chance=True)
    last = bracket.flight("last_chance")
    assert (last.source, last.fed_rounds, last.lengths) == ("consolation", (1,), (1, 1))
    assert bracket.round_matches("last_chance", 1)[0].top == LoserOf("consolation-1-1")
    assert bracket.placing_order == ("main", "consolation", "last_chance")
    assert bracket.dependents("main-1-1")[:3] == ("main-2-1", "main-3-1", "main-4-1")
    assert "last_chance-1-1" in bracket.dependents("main-1-1")


@pytest.mark.parametrize(
    ("n", "rounds"), [(n, 1) for n in (4, 5, 8, 11, 16, 23, 32)] + [(n, 2) for n in (5, 8, 11, 16, 23, 32)] + [(33, 3)]
)
def test_final_placings_across_flights_place_everyone_once_with_consistent_shared_places(n, rounds):
    bracket = add_consolation(single_elimination(players(n), lengths=5), rounds=rounds, lengths=3)
    if bracket.flight("consolation").rounds >= 2:
        bracket = add_consolation(bracket, name="last_chance", source="consolation", lengths=1)
    for trial in range(4):
        placings = advance(bracket, play_out(bracket, coin(trial))).placings()
        assert sorted(p.entrant for p in placings) == players(n)
        shares = Counter((p.place, p.last_place) for p in placings)
        assert all(last - first + 1 == count for (first, last), count in shares.items())
        covered = sorted(place for first, last in shares for place in range(first, last + 1))
        assert covered == players(n)  # places 1..n, each exactly once


def test_the_main_flight_places_first_then_the_consolation_then_the_last_chance():
    bracket = event(8, rounds=1, last_chance=True)
    placings = advance(bracket, play_out(bracket, min)).placings()
    assert [(p.label, p.entrant, p.flight) for p in placings] == [
        ("1", 1, "main"), ("2", 2, "main"), ("3-4", 3, "main"), ("3-4", 4, "main"),
        ("5", 5, "consolation"), ("6", 6, "consolation"),  # C1: 8 v 5 and 7 v 6; C2: 5 v 6
        ("7", 7, "last_chance"), ("8", 8, "last_chance"),  # the C1 losers: 8 v 7
    ]
    state = advance(bracket, play_out(bracket, min))
    assert (state.champion(), state.champion("consolation"), state.champion("last_chance")) == (1, 5, 7)


def test_the_consolation_final_is_fed_by_winners_only():
    bracket = event(16, rounds=2)
    final = bracket.round_matches("consolation", bracket.flight("consolation").rounds)
    assert len(final) == 1 and isinstance(final[0].top, WinnerOf) and isinstance(final[0].bottom, WinnerOf)


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda b: add_consolation(b, rounds=0, lengths=3), "bad_drop_map"),
        (lambda b: add_consolation(b, rounds=3, lengths=3), "bad_drop_map"),  # the final's loser does not drop
        (lambda b: add_consolation(b, source="nope", lengths=3), "unknown_flight"),
        (lambda b: add_consolation(add_consolation(b, lengths=3), lengths=3), "flight_exists"),
        (lambda b: add_consolation(b, lengths=[]), "bad_length"),
    ],
)
def test_it_refuses_a_drop_map_the_bracket_cannot_have(make, code):
    with pytest.raises(DrawError) as error:
        make(single_elimination(players(8), lengths=5))
    assert error.value.code == code


def test_a_four_player_event_has_no_room_for_a_last_chance_flight():
    bracket = add_consolation(single_elimination(players(4), lengths=5), lengths=3)
    with pytest.raises(DrawError) as error:
        add_consolation(bracket, name="last_chance", source="consolation", lengths=1)
    assert error.value.code == "bad_drop_map"

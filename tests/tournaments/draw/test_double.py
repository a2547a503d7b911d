"""Double elimination: out at the second loss, the winners' bracket feeding the losers', a grand
final with a decider only when the undefeated player loses it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.draw import BYE, DrawError, advance, double_elimination, next_pairings
from tournaments.draw.bracket import NOT_NEEDED, PLAYED, READY, WAITING


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


def test_an_8_player_draw_has_three_winners_rounds_four_losers_rounds_and_a_final_with_a_decider():
    bracket = double_elimination(players(8), lengths=[5, 7], losers_lengths=3, final_lengths=[9, 11])
    assert [(f.name, f.rounds) for f in bracket.flights] == [("winners", 3), ("losers", 4), ("final", 2)]
    assert [len(bracket.round_matches("losers", r)) for r in (1, 2, 3, 4)] == [2, 2, 1, 1]
    assert {m.length for m in bracket.matches if m.flight == "losers"} == {3}
    assert [(m.id, m.length, m.decider_of) for m in bracket.matches if m.flight == "final"] == [
        ("final-1-1", 9, None), ("final-2-1", 11, "final-1-1"),
    ]
    assert [m.length for m in bracket.matches if m.flight == "winners"] == [5, 5, 5, 5, 5, 5, 7]


@pytest.mark.parametrize("n", range(3, 41))
def test_everyone_but_the_champion_is_out_at_exactly_the_second_loss(n):
    bracket = double_elimination(players(n), lengths=5)
    for trial in range(3):
        state = advance(bracket, play_out(bracket, coin(trial)))
        assert state.finished
        losses = Counter(s.loser for s in state.matches if s.status == PLAYED)
        champion = state.champion()
        assert losses[champion] <= 1
        assert all(count == 2 for entrant, count in losses.items() if entrant != champion)
        assert set(losses) | {champion} == set(players(n))
        placings = state.placings()
        assert sorted(p.entrant for p in placings) == players(n)
        assert [p.place for p in placings][:2] == [1, 2]


def test_the_decider_is_not_needed_when_the_undefeated_player_wins_the_final():
    bracket = double_elimination(players(4), lengths=5)
    state = advance(bracket, play_out(bracket, min))
    assert state.get("final-1-1").winner == 1
    assert state.get("final-2-1").status == NOT_NEEDED
    assert [(p.label, p.entrant) for p in state.placings()] == [("1", 1), ("2", 2), ("3", 3), ("4", 4)]


def test_the_decider_is_played_when_the_losers_champion_wins_the_final():
    bracket = double_elimination(players(4), lengths=5)
    results = play_out(bracket, min)
    del results["final-1-1"]
    state = advance(bracket, results)
    assert state.get("final-2-1").status == WAITING
    results["final-1-1"] = 2
    state = advance(bracket, results)
    decider = state.get("final-2-1")
    assert (decider.status, decider.top, decider.bottom) == (READY, 1, 2)
    assert state.champion() is None
    assert [p.entrant for p in state.placings()] == [3, 4]  # 1 and 2 are placed by the decider
    state = advance(bracket, {**results, "final-2-1": 2})
    assert state.champion() == 2
    assert [(p.label, p.entrant) for p in state.placings()][:2] == [("1", 2), ("2", 1)]


def test_a_result_for_a_decider_that_is_not_needed_is_refused():
    bracket = double_elimination(players(4), lengths=5)
    results = play_out(bracket, min)
    with pytest.raises(DrawError) as error:
        advance(bracket, {**results, "final-2-1": 1})
    assert error.value.code == "match_not_ready"


def test_without_a_reset_the_final_is_one_match():
    bracket = double_elimination(players(6), lengths=5, reset=False)
    assert [m.id for m in bracket.matches if m.flight == "final"] == ["final-1-1"]
    state = advance(bracket, play_out(bracket, max))
    assert state.champion() == state.get("final-1-1").winner


def test_a_winners_bye_sends_nobody_to_the_losers_bracket():
    state = advance(double_elimination(players(3), lengths=5), {})
    assert state.get("losers-1-1").top is BYE  # seed 1 had a bye: no loser


def test_it_needs_three_entrants():
    with pytest.raises(DrawError) as error:
        double_elimination(players(2), lengths=5)
    assert error.value.code == "too_few_entrants"

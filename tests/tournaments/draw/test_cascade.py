"""Cascades: a corrected winner resets exactly the later matches the old winner (and the old
loser's drop) reached, in every flight, and nothing when the winner stays the same."""

from __future__ import annotations

import pytest

from tournaments.draw import DrawError, add_consolation, advance, double_elimination, single_elimination
from tournaments.draw.bracket import PLAYED, READY, WAITING
from tournaments.draw.cascade import cascade
from tournaments.draw.routes import Routes


def consolation16():
    bracket = single_elimination(list(range(1, 17)), lengths=5)
    return Routes(add_consolation(bracket, lengths=3, rounds=1))


def play(routes, results, *keys):
    """Play ``keys`` in order, the top player winning each."""
    results = dict(results)
    for key in keys:
        results[key] = advance(routes.bracket, results).get(key).top
    return results


def test_a_different_winner_two_rounds_deep_resets_the_main_and_consolation_matches_it_reached():
    routes = consolation16()
    # Round 1 of both flights as far as they go, then main round 2 and the first consolation match.
    results = play(routes, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1", "main-2-2", "consolation-1-1")
    state = advance(routes.bracket, results)
    old, new = state.get("main-1-1").winner, state.get("main-1-1").loser
    assert (old, new) == (1, 16)
    found = cascade(routes, results, "main-1-1", new)
    assert [r.id for r in found.resets] == ["main-2-1", "main-3-1", "consolation-1-1", "consolation-2-1"]
    r2, r3, c1, c2 = found.resets
    # main-2-1: 1 beat 8; now 16 plays 8 again, the result void.
    assert (r2.before.top, r2.before.bottom, r2.voided) == (1, 8, 1)
    assert (r2.after.top, r2.after.bottom, r2.after.status) == (16, 8, READY)
    assert (r2.leaving, r2.entering) == ((1,), (16,))
    # main-3-1 waited for 1 (v the winner of main-2-2, 4): now waits for the winner of main-2-1.
    assert (r3.before.top, r3.after.top, r3.after.bottom, r3.after.status) == (1, None, 4, WAITING)
    # consolation-1-1: 16 had dropped there and won; now 1 drops instead, the result void.
    assert (c1.before.top, c1.voided, c1.after.top, c1.after.status) == (16, 16, 1, READY)
    # consolation-2-1 was waiting for 16: now for whoever wins consolation-1-1 again.
    assert (c2.before.top, c2.after.top) == (16, None)
    assert "main-2-1" not in found.results and "consolation-1-1" not in found.results
    assert found.results["main-2-2"] == results["main-2-2"]  # untouched
    assert found.after.get("main-1-1").winner == 16


def test_the_same_winner_with_another_score_resets_nothing():
    routes = consolation16()
    results = play(routes, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1")
    found = cascade(routes, results, "main-1-1", 1)
    assert found.same_winner and found.resets == () and found.results == results


def test_a_correction_with_nothing_built_on_it_yet_resets_only_the_pairing_it_filled():
    routes = consolation16()
    results = play(routes, {}, "main-1-1", "main-1-2")
    found = cascade(routes, results, "main-1-1", 16)
    assert [(r.id, r.before.status, r.after.status) for r in found.resets] == [
        ("main-2-1", READY, READY), ("consolation-1-1", READY, READY)]
    assert found.resets[1].before.top == 16 and found.resets[1].after.top == 1


def test_in_double_elimination_it_follows_the_losers_bracket_and_the_final():
    routes = Routes(double_elimination([1, 2, 3, 4], lengths=5))
    results = {}
    for _ in range(10):  # play everything the top player can, in order
        ready = advance(routes.bracket, results).ready()
        if not ready:
            break
        results[ready[0].id] = ready[0].top
    state = advance(routes.bracket, results)
    first = routes.bracket.matches[0].id
    loser = state.get(first).loser
    found = cascade(routes, results, first, loser)
    flights = {r.before.match.flight for r in found.resets}
    assert {"winners", "losers"} <= flights
    assert all(r.id in routes.bracket.dependents(first) for r in found.resets)
    # Every result that still stands fits the bracket as corrected.
    assert advance(routes.bracket, found.results).get(first).winner == loser


def test_results_downstream_that_the_change_does_not_reach_stand():
    routes = consolation16()
    results = play(routes, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1", "main-2-2", "main-2-3")
    found = cascade(routes, results, "main-1-5", advance(routes.bracket, results).get("main-1-5").loser)
    assert "main-2-1" not in {r.id for r in found.resets}
    assert found.results["main-2-1"] == results["main-2-1"]
    assert found.after.get("main-2-1").status == PLAYED


@pytest.mark.parametrize(("key", "winner", "code"), [
    ("main-9-9", 1, "unknown_match"), ("main-2-1", 1, "match_not_ready"), ("main-1-1", 5, "not_in_match")])
def test_bad_input_is_a_draw_error_naming_the_match(key, winner, code):
    routes = consolation16()
    with pytest.raises(DrawError) as caught:
        cascade(routes, play(routes, {}, "main-1-1"), key, winner)
    assert caught.value.code == code

"""Cascades: a corrected winner resets exactly the later matches the old winner (and the old
loser's drop) reached, in every flight, whoever had won them, and nothing when the winner stays
the same; with withdrawn players, the walkovers follow."""

from __future__ import annotations

import pytest

from tournaments.draw import DrawError, add_consolation, advance, double_elimination, single_elimination
from tournaments.draw.bracket import BYE_STATUS, NOT_NEEDED, PLAYED, READY, WAITING, settle, stored_entries
from tournaments.draw.cascade import cascade


def consolation_of_16():
    bracket = single_elimination(list(range(1, 17)), lengths=5)
    return add_consolation(bracket, lengths=3, rounds=1)


def play(bracket, results, *keys, bottom=()):
    """Play ``keys`` in order, the top player winning each (the bottom one for those in ``bottom``)."""
    results = dict(results)
    for key in keys:
        state = advance(bracket, results).get(key)
        results[key] = state.bottom if key in bottom else state.top
    return results


def test_a_different_winner_two_rounds_deep_resets_the_main_and_consolation_matches_it_reached():
    bracket = consolation_of_16()
    # Round 1 of both flights as far as they go, then main round 2 and the first consolation match.
    results = play(bracket, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1", "main-2-2", "consolation-1-1")
    state = advance(bracket, results)
    old, new = state.get("main-1-1").winner, state.get("main-1-1").loser
    assert (old, new) == (1, 16)
    found = cascade(bracket, results, "main-1-1", new)
    assert [r.id for r in found.resets] == ["main-2-1", "main-3-1", "consolation-1-1"]
    assert found.removed == ("main-2-1", "main-3-1", "consolation-1-1")
    r2, r3, c1 = found.resets
    # main-2-1: 1 beat 8; now 16 plays 8 again, the result void.
    assert (r2.before.top, r2.before.bottom, r2.voided) == (1, 8, 1)
    assert (r2.after.top, r2.after.bottom, r2.after.status) == (16, 8, READY)
    assert (r2.leaving, r2.entering) == ((1,), (16,))
    # main-3-1 was to be played by 1 and 4 (who won main-2-2): 4 now waits for main-2-1's winner.
    assert (r3.before.top, r3.before.status, r3.after.top, r3.after.bottom, r3.after.status) == (1, READY, None, 4,
                                                                                                   WAITING)
    # consolation-1-1: 16 had dropped there and won; now 1 drops instead, the result void.
    assert (c1.before.top, c1.voided, c1.after.top, c1.after.status) == (16, 16, 1, READY)
    # consolation-2-1 only waited for 16 (nothing stored there): now for whoever wins consolation-1-1.
    assert found.after.get("consolation-2-1").status == WAITING
    assert "main-2-1" not in found.results and "consolation-1-1" not in found.results
    assert found.results["main-2-2"] == results["main-2-2"]  # untouched
    assert found.after.get("main-1-1").winner == 16
    assert set(found.to_make) == {"main-2-1", "consolation-1-1"}


def test_a_reset_match_the_player_who_stays_had_won_is_void_too_and_what_it_fed_is_reset():
    # Both quarter-finals feeding the first semi-final were won by their bottom players (8 beat
    # 1, 5 beat 4); the semi-final is to be played. Correcting main-1-1 so that 16 won puts 16
    # in 8's quarter-final: 8's win over 1 no longer stands, so the semi-final 8 v 5 is reset.
    bracket = consolation_of_16()
    results = play(bracket, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1", "main-2-2",
                   bottom=("main-2-1", "main-2-2"))
    assert advance(bracket, results).get("main-3-1").pairing is not None
    found = cascade(bracket, results, "main-1-1", 16)
    assert [r.id for r in found.resets] == ["main-2-1", "main-3-1", "consolation-1-1"]
    quarter, semi, _drop = found.resets
    assert (quarter.before.top, quarter.before.bottom, quarter.voided) == (1, 8, 8)
    assert (quarter.after.top, quarter.after.bottom, quarter.after.status) == (16, 8, READY)
    assert "main-2-1" not in found.results
    assert (semi.before.top, semi.before.bottom, semi.before.status) == (8, 5, READY)
    assert (semi.removed, semi.after.top, semi.after.bottom, semi.after.status) == (True, None, 5, WAITING)
    # Every result left fits the corrected bracket.
    assert advance(bracket, found.results).get("main-3-1").status == WAITING


def test_the_same_winner_with_another_score_resets_nothing():
    bracket = consolation_of_16()
    results = play(bracket, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1")
    found = cascade(bracket, results, "main-1-1", 1)
    assert found.same_winner and found.resets == () and found.results == results


def test_a_correction_with_nothing_built_on_it_yet_resets_only_the_pairing_it_filled():
    bracket = consolation_of_16()
    results = play(bracket, {}, "main-1-1", "main-1-2")
    found = cascade(bracket, results, "main-1-1", 16)
    assert [(r.id, r.before.status, r.after.status) for r in found.resets] == [
        ("main-2-1", READY, READY), ("consolation-1-1", READY, READY)]
    assert found.resets[1].before.top == 16 and found.resets[1].after.top == 1


def test_in_double_elimination_it_follows_the_losers_bracket_and_the_final():
    bracket = double_elimination([1, 2, 3, 4], lengths=5)
    results = {}
    for _ in range(10):  # play everything the top player can, in order
        ready = advance(bracket, results).ready()
        if not ready:
            break
        results[ready[0].id] = ready[0].top
    state = advance(bracket, results)
    first = bracket.matches[0].id
    loser = state.get(first).loser
    found = cascade(bracket, results, first, loser)
    flights = {r.before.match.flight for r in found.resets}
    assert {"winners", "losers"} <= flights
    assert all(r.id in bracket.dependents(first) for r in found.resets)
    # Every result that still stands fits the bracket as corrected.
    assert advance(bracket, found.results).get(first).winner == loser


def test_a_grand_final_corrected_so_that_the_losers_bracket_player_won_gets_its_decider_played():
    bracket = double_elimination([1, 2, 3, 4], lengths=5)
    results = {}
    while ready := advance(bracket, results).ready():
        results[ready[0].id] = ready[0].top
    final = next(m for m in bracket.matches if m.flight == "final" and m.decider_of is None)
    decider = next(m for m in bracket.matches if m.decider_of == final.id)
    state = advance(bracket, results)
    assert state.get(decider.id).status == NOT_NEEDED
    found = cascade(bracket, results, final.id, state.get(final.id).bottom)
    (reset,) = found.resets
    assert (reset.id, reset.removed, reset.before.status, reset.after.status) == (decider.id, False, NOT_NEEDED, READY)
    assert found.to_make == (decider.id,)
    # And back: the decider, played, is removed.
    results = {**found.results, decider.id: found.after.get(decider.id).top}
    back = cascade(bracket, results, final.id, state.get(final.id).top)
    (reset,) = back.resets
    assert (reset.id, reset.removed, reset.voided, reset.after.status) == (decider.id, True, state.get(final.id).top,
                                                                           NOT_NEEDED)


def test_a_withdrawn_player_the_correction_puts_in_a_match_gives_his_opponent_a_walkover():
    # 16 lost main-1-1 and withdrew; 1's quarter-final v 8 is made. Correcting main-1-1 so that 16
    # won: 16's quarter-final has no match of its own, 8 goes through by walkover and the
    # semi-final (8 v the winner of main-2-2, 4) is to be played, where nothing was stored yet.
    bracket = consolation_of_16()
    results = play(bracket, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-2")
    before = advance(bracket, results)
    matched = {s.match.id for s in before.matches if s.status in (READY, PLAYED)} - {"consolation-1-1"}
    stored = {s.match.id: stored_entries(s) for s in before.matches}
    found = cascade(bracket, results, "main-1-1", 16, matched=matched, stored=stored, withdrawn={16})
    assert [(r.id, r.removed, r.after.status) for r in found.resets] == [
        ("main-2-1", True, PLAYED), ("main-3-1", False, READY), ("consolation-1-1", False, READY)]
    assert found.walkovers == {"main-2-1"} and found.after.get("main-2-1").winner == 8
    assert (found.after.get("main-3-1").top, found.after.get("main-3-1").bottom) == (8, 4)
    assert set(found.to_make) == {"main-3-1", "consolation-1-1"}
    # The state the cascade ends in is the state the stored bracket then settles to.
    settled, walkovers = settle(bracket, found.results, withdrawn={16}, matched=found.matched)
    assert settled == found.after and walkovers == found.walkovers


def test_results_downstream_that_the_change_does_not_reach_stand():
    bracket = consolation_of_16()
    results = play(bracket, {}, *(f"main-1-{i}" for i in range(1, 9)), "main-2-1", "main-2-2", "main-2-3")
    found = cascade(bracket, results, "main-1-5", advance(bracket, results).get("main-1-5").loser)
    assert "main-2-1" not in {r.id for r in found.resets}
    assert found.results["main-2-1"] == results["main-2-1"]
    assert found.after.get("main-2-1").status == PLAYED


def test_a_bye_row_whose_player_changes_is_rewritten_not_removed():
    # 12 players: consolation-1-3 and -1-4 face the losers of main-1-5..8, of which only some are
    # real; a bye in the consolation sends the drop straight on.
    bracket = add_consolation(single_elimination(list(range(1, 13)), lengths=5), lengths=3, rounds=1)
    results = play(bracket, {}, *(m.id for m in bracket.round_matches("main", 1)
                                  if advance(bracket, {}).get(m.id).status == READY))
    state = advance(bracket, results)
    byes = [s for s in state.matches if s.match.flight == "consolation" and s.status == BYE_STATUS
            and stored_entries(s) != (None, None)]
    assert byes
    drop = byes[0]
    source = next(key for key in results if state.get(key).loser in (drop.top, drop.bottom))
    found = cascade(bracket, results, source, state.get(source).loser)
    (rewritten,) = [r for r in found.resets if r.id == drop.match.id]
    assert not rewritten.removed and rewritten.after.status == BYE_STATUS
    assert rewritten.leaving == (state.get(source).loser,) and rewritten.entering == (state.get(source).winner,)


@pytest.mark.parametrize(("key", "winner", "code"), [
    ("main-9-9", 1, "unknown_match"), ("main-2-1", 1, "match_not_ready"), ("main-1-1", 5, "not_in_match")])
def test_bad_input_is_a_draw_error_naming_the_match(key, winner, code):
    bracket = consolation_of_16()
    with pytest.raises(DrawError) as caught:
        cascade(bracket, play(bracket, {}, "main-1-1"), key, winner)
    assert caught.value.code == code

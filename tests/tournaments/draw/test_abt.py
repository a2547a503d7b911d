"""The ABT-style modified Swiss (tournaments/draw/abt.py), table-driven.

Each case cites the rule as the module states it ("ABT modified Swiss, in our own words": we
could not read the American Backgammon Tour's regulations here, so no section numbers).
"""

from __future__ import annotations

import pytest

from tournaments.draw import DrawError, Result, SwissRound, advance, swiss_standings
from tournaments.draw.abt import contention, playoff


def table_of(scores: dict[str, int]):
    """A Swiss table whose players have ``scores`` wins (built from byes: the order of the dict
    is the seed order, and the table is by wins, then seed)."""
    history = []
    number = 0
    for entrant, wins in scores.items():
        for _ in range(wins):
            number += 1
            history.append(SwissRound(number, (), bye=entrant))
    return swiss_standings(list(scores), history, tiebreaks=("wins",))


SIX = {"a": 4, "b": 3, "c": 3, "d": 2, "e": 1, "f": 0}


@pytest.mark.parametrize(
    ("rule", "scores", "remaining", "paid", "win", "cash", "cash_only", "playoffs"),
    [
        ("ABT: with rounds to play, whoever can reach the leader's wins can still win; "
         "whoever fewer than `paid` players are already above at best can still cash",
         SIX, 2, 3, "abcd", "abcde", "e", False),
        ("ABT: one round left: b and c can reach a (4) and still win; d reaches 3, below a only, "
         "so d cashes only with 3 paid places", SIX, 1, 3, "abc", "abcd", "d", False),
        ("ABT: one round left, 2 paid: d at best 3 is below a alone: can still cash (a tie with "
         "b or c is split by the tie-breaks); e at best 2 is below a, b and c: out", SIX, 1, 2, "abc", "abcd", "d",
         False),
        ("ABT: no round left: the table is final; a tie at the top is still a chance to win "
         "(the playoff or tie-breaks decide), and the move to playoffs is forced",
         {"a": 3, "b": 3, "c": 2, "d": 1}, 0, 2, "ab", "ab", "", True),
        ("ABT transition: the players who can still cash (a, b, c) are no more than the 3 paid "
         "places: playoffs now", {"a": 5, "b": 5, "c": 4, "d": 1, "e": 0}, 2, 3, "abc", "abc", "", True),
        ("ABT: more players can cash than places are paid: the Swiss goes on",
         {"a": 2, "b": 2, "c": 1, "d": 1, "e": 0}, 2, 2, "abcde", "abcde", "", False),
        ("ABT: a runaway leader: nobody else can win, the others may still cash",
         {"a": 6, "b": 3, "c": 3, "d": 0}, 2, 3, "a", "abc", "bc", True),
    ],
)
def test_contention(rule, scores, remaining, paid, win, cash, cash_only, playoffs):
    state = contention(table_of(scores), remaining=remaining, paid=paid)
    assert "".join(state.can_win) == win, rule
    assert "".join(state.can_cash) == cash, rule
    assert "".join(state.cash_only) == cash_only, rule
    assert "".join(state.out_of_the_money) == "".join(e for e in scores if e not in cash), rule
    assert state.to_playoffs is playoffs, rule


def test_the_three_player_playoff_seats_the_first_seed_in_the_final():
    """ABT three-player playoff (our own words): seed 1 waits in the final; seeds 2 and 3 play
    for the other seat; the loser of that match is third."""
    state = contention(table_of({"a": 5, "b": 5, "c": 4, "d": 1, "e": 0}), remaining=2, paid=3)
    bracket = playoff(state, lengths=[7, 11])
    first = advance(bracket, {}).ready()
    assert [(p.top, p.bottom, p.length) for p in first] == [("b", "c", 7)]
    semi = first[0].id
    final = advance(bracket, {semi: "c"}).ready()
    assert [(p.top, p.bottom, p.length) for p in final] == [("a", "c", 11)]
    done = advance(bracket, {semi: "c", final[0].id: "c"})
    assert [(p.place, p.entrant) for p in done.placings()] == [(1, "c"), (2, "a"), (3, "b")]


@pytest.mark.parametrize(
    ("scores", "remaining", "paid", "code"),
    [({"a": 2, "b": 2, "c": 1}, 1, 1, "not_time_for_playoffs"), ({"a": 1}, -1, 1, "bad_contention"),
     ({"a": 1}, 1, 0, "bad_contention")],
)
def test_wrong_questions_are_refused(scores, remaining, paid, code):
    with pytest.raises(DrawError) as error:
        playoff(contention(table_of(scores), remaining=remaining, paid=paid), lengths=7)
    assert error.value.code == code


def test_a_single_player_left_in_the_money_needs_no_playoff():
    state = contention(table_of({"a": 6, "b": 1, "c": 0}), remaining=1, paid=1)
    assert state.to_playoffs and state.can_cash == ("a",) and playoff(state, lengths=7) is None


def test_contention_reads_a_real_swiss_table():
    history = [SwissRound(1, (Result("a", "c", "a"), Result("b", "d", "b"))),
               SwissRound(2, (Result("a", "b", "a"), Result("c", "d", "c")))]
    state = contention(swiss_standings("abcd", history), remaining=1, paid=2)
    # a 2, b 1, c 1, d 0: with one round left d reaches 1, below a only: can still cash, not win
    assert (state.can_win, state.can_cash, state.cash_only) == (("a", "b", "c"), ("a", "b", "c", "d"), ("d",))

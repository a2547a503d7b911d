"""The USBGF's playoff for a three-way tie on the ABT, its "contingent bye" (announced for every
ABT tournament in June 2018; the ABT Policy and Formula document), as tournaments/draw/abt.py
words it: one player has a contingent bye into the final, the other two play, the winner meets
him; if he loses the final the bye is taken back (he is third, the first match's loser second)."""

from __future__ import annotations

import pytest

from tournaments.draw.abt import contingent_bye_first, contingent_bye_places, playoff_bracket


@pytest.mark.parametrize(
    ("rule", "byes", "expected"),
    [
        ("USBGF contingent bye: nobody had a bye, so the best placed of the three waits", {}, "abc"),
        ("USBGF contingent bye: among the fewest byes (a had one), the best placed waits", {"a": 1}, "bac"),
        ("USBGF contingent bye: b and a had byes, c had none: c waits, a and b play", {"a": 1, "b": 1}, "cab"),
        ("USBGF contingent bye: all had one bye: the best placed waits", {"a": 1, "b": 1, "c": 1}, "abc"),
    ],
)
def test_the_contingent_bye_goes_to_the_best_placed_of_the_fewest_byes(rule, byes, expected):
    assert "".join(contingent_bye_first("abc", byes)) == expected, rule


def test_the_contingent_bye_is_only_for_three_players():
    """Four or two players play an ordinary bracket in the order of the table."""
    assert contingent_bye_first("abcd", {"a": 1}) == tuple("abcd")
    assert contingent_bye_first("ab", {"a": 1}) == ("a", "b")


@pytest.mark.parametrize(
    ("rule", "first_match", "final_winner", "places"),
    [
        ("USBGF contingent bye: A wins the final: A first, B (who beat C) second, C third", ("b", "c"), "a", "abc"),
        ("USBGF contingent bye: A loses the final: B first, C (beaten by B first) second, A third", ("b", "c"), "b",
         "bca"),
        ("USBGF contingent bye: C beats B then A: C first, B second, A third", ("c", "b"), "c", "cba"),
        ("USBGF contingent bye: nobody is placed before the final", ("b", "c"), None, ""),
        ("USBGF contingent bye: nobody is placed before the first match", None, None, ""),
    ],
)
def test_the_contingent_bye_places(rule, first_match, final_winner, places):
    found = contingent_bye_places("abc", first_match, final_winner)
    assert "".join(e for _place, e in found) == places, rule
    assert [place for place, _e in found] == list(range(1, len(places) + 1))


def test_the_three_player_bracket_seats_the_contingent_bye_in_the_final():
    """The bracket is the ordinary one of three seeds: the bye's player first, the other two play."""
    bracket = playoff_bracket(contingent_bye_first("abc", {"a": 1}), lengths=[7, 9], flight="playoffs")
    first = [m for m in bracket.matches if m.round == 1]
    assert [m.id for m in bracket.matches] == ["playoffs-1-1", "playoffs-1-2", "playoffs-2-1"]
    assert first[0].top.entrant == "b" and first[1].length == 7
    assert {first[1].top.entrant, first[1].bottom.entrant} == {"a", "c"}

"""The names of a bracket's rounds as values (tournaments/draw/names.py): pure, no Django."""

import pytest

from tournaments.draw.double import double_elimination
from tournaments.draw.errors import DrawError
from tournaments.draw.names import RoundName, flight_round_names, round_name


def test_every_round_of_a_16_player_double_elimination_is_named():
    bracket = double_elimination(list(range(16)), lengths=(5,))
    named = {f.name: flight_round_names(f.name, bracket.size) for f in bracket.flights}
    assert named["winners"] == (RoundName("winners_round", 1), RoundName("winners_quarter_final"),
                                RoundName("winners_semi_final"), RoundName("winners_final"))
    assert named["losers"] == (*(RoundName("losers_round", n) for n in (1, 2, 3, 4, 5)), RoundName("losers_final"))
    assert named["final"] == (RoundName("grand_final"), RoundName("reset"))
    # One name for every round the draw makes, no more, no fewer.
    assert {f.name: f.rounds for f in bracket.flights} == {name: len(names) for name, names in named.items()}


@pytest.mark.parametrize("entrants", [3, 5, 8, 9, 17, 32])
def test_the_names_fit_every_double_elimination_the_draw_makes(entrants):
    bracket = double_elimination(list(range(entrants)), lengths=(5,))
    for flight in bracket.flights:
        assert len(flight_round_names(flight.name, bracket.size)) == flight.rounds


@pytest.mark.parametrize("size, names", [
    (2, ["F"]),
    (4, ["SF", "F"]),
    (8, ["QF", "SF", "F"]),
    (16, ["R16", "QF", "SF", "F"]),
    (32, ["R1", "R16", "QF", "SF", "F"]),
    (128, ["R1", "R2", "R3", "R16", "QF", "SF", "F"]),
])
def test_single_elimination_is_named_from_the_final_backwards(size, names):
    short = {"final": "F", "semi_final": "SF", "quarter_final": "QF"}
    shown = [short.get(n.kind) or (f"R{n.number}") for n in flight_round_names("main", size)]
    assert shown == names
    assert round_name("main", 1, 16) == RoundName("round_of", 16)


def test_a_fed_flight_is_named_from_its_own_last_round():
    assert flight_round_names("consolation", 16, rounds=3) == (
        RoundName("quarter_final"), RoundName("semi_final"), RoundName("final"))
    with pytest.raises(DrawError) as caught:
        round_name("consolation", 1, 16)
    assert caught.value.code == "bad_round"


@pytest.mark.parametrize("flight, number, size", [
    ("losers", 7, 16), ("winners", 5, 16), ("final", 3, 16), ("main", 0, 8), ("main", True, 8), ("nowhere", 1, 8),
])
def test_a_round_the_flight_does_not_have_is_refused(flight, number, size):
    with pytest.raises(DrawError) as caught:
        round_name(flight, number, size)
    assert caught.value.code == "bad_round"


@pytest.mark.parametrize("size", [0, 1, 3, 12, "16", None])
def test_a_bracket_size_that_is_not_a_power_of_two_is_refused(size):
    with pytest.raises(DrawError) as caught:
        round_name("main", 1, size)
    assert caught.value.code == "bad_size"

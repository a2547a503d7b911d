"""Flights directors use (issue 17, point 4), table-driven, each test citing its rule:

- "shifted progressive consolation": TourneyGeek's notation, as we read it (we could not read his
  pages here): a fed flight's rounds but the final, a letter for each main round whose losers join
  (A = round 1), ``|`` for a round nobody joins. A 64-player main fed by rounds 1-4 is
  ``A.B.C.D.|.|.`` shifted, ``A.B.|.C.|.D.|.`` today;
- "paid places": a flight's pool shared by percentages of its places (positive, summing to 100,
  non-increasing), ties splitting the percentages of the places they share.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

import pytest

from tournaments.draw import DrawError, add_consolation, advance, next_pairings, single_elimination
from tournaments.draw.consolation import notation
from tournaments.draw.payouts import cashed, check_percentages, payouts, split


def event(n: int, rounds: int, shifted: bool):
    return add_consolation(single_elimination(list(range(1, n + 1)), lengths=5), lengths=3, rounds=rounds,
                           shifted=shifted)


def play_out(bracket, seed: int = 0):
    rng = random.Random(seed)
    results = {}
    while pairings := next_pairings(bracket, results):
        for p in pairings:
            results[p.id] = rng.choice((p.top, p.bottom))
    return results


@pytest.mark.parametrize(
    ("n", "rounds", "today", "shifted"),
    [
        (64, 4, "A.B.|.C.|.D.|.", "A.B.C.D.|.|."),  # the issue's own example: one round shorter
        (64, 5, "A.B.|.C.|.D.|.E.", "A.B.C.D.|.|.E."),
        (128, 4, "A.B.|.C.|.D.|.|.", "A.B.C.D.|.|.|."),
        (128, 6, "A.B.|.C.|.D.|.E.|.F.", "A.B.C.D.|.|.E.|.F."),
        (32, 4, "A.B.|.C.|.D.", "A.B.C.D.|."),
        (16, 3, "A.B.|.C.", "A.B.|.C."),  # too small to shift: the same flight as today
        (64, 1, "A.|.|.|.", "A.|.|.|."),  # first-round losers only: nothing to shift
    ],
)
def test_tourneygeek_shifted_progressive_consolation_notation_and_length(n, rounds, today, shifted):
    """TourneyGeek's shifted progressive consolation (our reading of A.B.C.D.|.|.): newcomers
    outnumbered by the survivors enter in a mixed round instead of after a reduce round, so the
    flight is as long or one to two rounds shorter than today's."""
    before, after = event(n, rounds, False), event(n, rounds, True)
    assert notation(before, "consolation") == today
    assert notation(after, "consolation") == shifted
    assert after.flight("consolation").shifted and not before.flight("consolation").shifted
    saved = before.flight("consolation").rounds - after.flight("consolation").rounds
    assert saved in ((0,) if today == shifted else (1, 2))


@pytest.mark.parametrize(("n", "rounds"), [(64, 4), (64, 5), (128, 6), (32, 4)])
def test_shifted_consolation_plays_every_fed_loser_once_and_places_everyone(n, rounds):
    """Shifted progressive consolation: exactly the losers of main rounds 1..k play on, each in
    one match per round until he loses; the placings give everyone one place, shared places
    consistent (RULES.md §8 placings)."""
    bracket = event(n, rounds, True)
    results = play_out(bracket, seed=n + rounds)
    state = advance(bracket, results)
    assert state.finished
    fed = {state.by_id[m.id].loser for m in bracket.matches if m.flight == "main" and m.round <= rounds}
    played = {p for s in state.matches if s.match.flight == "consolation" for p in (s.top, s.bottom)}
    assert played == fed
    places = state.placings()
    assert sorted(p.entrant for p in places) == list(range(1, n + 1))
    shared = Counter((p.place, p.last_place) for p in places)
    assert all(count == last - first + 1 for (first, last), count in shared.items())


def test_shifted_consolation_mixed_round_pairs_survivor_with_newcomer_then_survivors():
    """Shifted progressive consolation (A.B.C.D.|.|., 64 players): consolation round 3 has the 8
    main round-3 losers against survivors 1-8, and survivors 9-16 paired among themselves."""
    bracket = event(64, 4, True)
    third = bracket.round_matches("consolation", 3)
    assert len(third) == 12
    assert all(m.bottom.match.startswith("main-3-") for m in third[:8])
    assert all(m.top.match.startswith("consolation-2-") for m in third)
    assert all(m.bottom.match.startswith("consolation-2-") for m in third[8:])


@pytest.mark.parametrize(
    ("percentages", "expected"),
    [
        ([50, 30, 20], (Decimal(50), Decimal(30), Decimal(20))),
        ([100], (Decimal(100),)),
        (["40.5", "30.25", 29.25], (Decimal("40.5"), Decimal("30.25"), Decimal("29.25"))),
        ([25, 25, 25, 25], (Decimal(25),) * 4),
    ],
)
def test_paid_places_percentages_sum_to_100_and_never_increase(percentages, expected):
    """Paid places: percentages of the prize pool, best place first, summing to 100, non-increasing."""
    assert check_percentages(percentages) == expected


@pytest.mark.parametrize(
    ("percentages", "field", "reason"),
    [
        ([50, 30], "percentages", "sum"),
        ([60, 30, 20], "percentages", "sum"),
        ([30, 50, 20], "percentages[1]", "increasing"),
        ([100, 0], "percentages[1]", "not_positive"),
        ([110, -10], "percentages[1]", "not_positive"),
        ([99.999, 0.001], "percentages[0]", "not_positive"),
        (["half", 50], "percentages[0]", "not_number"),
        ([True], "percentages[0]", "not_number"),
        ([], "percentages", None),
        ("50,50", "percentages", None),
    ],
)
def test_paid_places_refuse_percentages_that_do_not_make_a_payout(percentages, field, reason):
    """Paid places: refused with the field (and the place) that is wrong."""
    with pytest.raises(DrawError) as raised:
        check_percentages(percentages)
    assert raised.value.code == "bad_payouts"
    assert raised.value.details["field"] == field
    assert raised.value.details.get("reason") == reason


@pytest.mark.parametrize(
    ("pool", "percentages", "first", "last", "players", "amounts"),
    [
        (100000, [50, 30, 10, 10], 1, 1, 1, [50000]),
        (100000, [50, 30, 10, 10], 3, 4, 2, [10000, 10000]),
        (100000, [50, 30, 12, 8], 3, 4, 2, [10000, 10000]),  # ties split the places they share
        (100000, [50, 30, 20], 3, 4, 2, [10000, 10000]),  # a tie across the last paid place
        (100000, [50, 30, 20], 5, 8, 4, [0, 0, 0, 0]),  # beyond the paid places
        (1000, [50, 30, 20], 3, 4, 3, [67, 67, 66]),  # leftover units one each, best seed first
        (1001, [100], 1, 1, 1, [1001]),
    ],
)
def test_paid_places_amounts_per_placing_ties_split(pool, percentages, first, last, players, amounts):
    """Paid places: a placing's amount is its places' percentages of the pool, shared by a tie,
    rounded down to a unit, the leftover units to the best seeds of the tie."""
    assert split(pool, check_percentages(percentages), first, last, players) == amounts


def test_paid_places_per_flight_count_from_each_flights_winner_and_add_up_to_the_pool():
    """Paid places per flight: the consolation pays its own places (its winner is its place 1)
    from its own pool; once every paid place is decided the amounts add up to each pool; the
    players paid more than nothing have cashed."""
    bracket = event(16, 2, True)
    state = advance(bracket, play_out(bracket, seed=3))
    paid = payouts(state, {"main": (100000, [50, 25, 12.5, 12.5]), "consolation": (20000, [70, 30])})
    main = [p for p in paid if p.flight == "main"]
    consolation = [p for p in paid if p.flight == "consolation"]
    assert sum(p.amount for p in main) == 100000
    assert sum(p.amount for p in consolation) == 20000
    assert [p.label for p in main if p.amount] == ["1", "2", "3-4", "3-4"]
    assert [(p.label, p.amount) for p in consolation[:2]] == [("1", 14000), ("2", 6000)]
    assert consolation[0].entrant == state.champion("consolation")
    assert cashed(paid) == frozenset(p.entrant for p in paid if p.amount)
    assert len(cashed(paid)) == 6


def test_paid_places_refused_per_flight_names_the_flight():
    """Paid places per flight: a wrong flight's percentages are refused naming the flight."""
    bracket = event(8, 1, False)
    with pytest.raises(DrawError) as raised:
        payouts(advance(bracket, {}), {"consolation": (100, [40, 50, 10])})
    assert raised.value.details["field"] == "consolation.percentages[1]"

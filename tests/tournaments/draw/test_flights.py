"""Flights directors use, table-driven, each test citing its rule:

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

from tournaments.draw import BYE, DrawError, add_consolation, advance, next_pairings, single_elimination
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
        (64, 4, "A.B.|.C.|.D.|.", "A.B.C.D.|.|."),  # the example above: one round shorter
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


# --- the playoff for 2nd, the open last chance, re-entry (tournaments.draw.flights) -------------

from tournaments.draw.flights import add_open_last_chance, add_playoff, reentry  # noqa: E402


@pytest.mark.parametrize(("n", "rounds"), [(8, 1), (16, 2), (32, 3), (64, 4)])
def test_playoff_for_2nd_between_main_final_loser_and_consolation_winner(n, rounds):
    """Playoff for 2nd: the main final's loser meets the consolation's winner; the playoff's
    winner is 2nd, its loser 3rd, the main's semi-final losers next (4-5); everyone placed once."""
    bracket = add_playoff(event(n, rounds, True), lengths=7)
    (match,) = bracket.round_matches("playoff", 1)
    main_final = bracket.round_matches("main", bracket.flight("main").rounds)[0]
    consolation_final = bracket.round_matches("consolation", bracket.flight("consolation").rounds)[0]
    assert (match.top.match, match.bottom.match, match.length) == (main_final.id, consolation_final.id, 7)
    state = advance(bracket, play_out(bracket, seed=n))
    places = {p.entrant: p for p in state.placings()}
    playoff = state.by_id["playoff-1-1"]
    assert playoff.top == state.by_id[main_final.id].loser
    assert playoff.bottom == state.by_id[consolation_final.id].winner
    assert places[state.by_id[main_final.id].winner].label == "1"
    assert (places[playoff.winner].label, places[playoff.loser].label) == ("2", "3")
    semi_losers = [state.by_id[m.id].loser for m in bracket.round_matches("main", bracket.flight("main").rounds - 1)]
    assert {places[p].label for p in semi_losers} == {"4-5"}
    assert sorted(places) == list(range(1, n + 1))


def test_playoff_for_2nd_needs_a_consolation_to_challenge():
    """Playoff for 2nd: the challenger is the consolation's winner; no consolation, no playoff."""
    with pytest.raises(DrawError) as raised:
        add_playoff(single_elimination(list(range(1, 9)), lengths=5), lengths=7)
    assert raised.value.code == "unknown_flight"


@pytest.mark.parametrize(
    ("n", "rounds", "paid", "drops"),
    [
        # main pays 4 (1, 2, 3-4): its quarter-final losers have not cashed; the consolation pays
        # its winner only: all its losers drop too
        (16, 1, {"main": 4, "consolation": 1}, {"main-2": 4, "consolation-1": 4, "consolation-2": 2, "consolation-3": 1}),
        # main pays 8: only the consolation's unpaid places drop
        (16, 1, {"main": 8, "consolation": 2}, {"consolation-1": 4, "consolation-2": 2}),
        # nothing paid in the consolation, main pays 2: semi-final losers drop as well
        (8, 1, {"main": 2}, {"main-2": 2, "consolation-1": 2, "consolation-2": 1}),
    ],
)
def test_last_chance_open_to_everyone_who_has_not_cashed(n, rounds, paid, drops):
    """Last chance open to everyone who has not cashed (cashed: finishing in a paid place of the
    payout settings): every match whose loser would finish unpaid, and drops nowhere else, feeds
    the last chance; playing it out places everyone once and no cashed player plays it."""
    bracket = add_open_last_chance(event(n, rounds, False), lengths=1, paid=paid)
    fed = Counter("-".join(d.source.split("-")[:2]) for d in bracket.drop_map("last_chance"))
    assert dict(fed) == drops
    state = advance(bracket, play_out(bracket, seed=n))
    assert state.finished
    places = state.placings()
    assert sorted(p.entrant for p in places) == list(range(1, n + 1))
    in_last_chance = {p for s in state.matches if s.match.flight == "last_chance" for p in (s.top, s.bottom)}
    paid_players = {p.entrant for p in places if p.flight != "last_chance"}
    assert not (in_last_chance & paid_players)
    assert all(p.flight != "last_chance" or p.place > sum(paid.values()) for p in places)


def test_last_chance_open_pairs_early_drops_first_and_gives_byes_to_the_latest():
    """Last chance open: drops in the order they become known, early ones meeting each other, the
    byes to the latest drops (the consolation final's loser waits longest)."""
    bracket = add_open_last_chance(event(16, 1, False), lengths=1, paid={"main": 4, "consolation": 1})
    first = bracket.round_matches("last_chance", 1)
    assert (first[0].top.match, first[0].bottom.match) == ("main-2-1", "main-2-2")
    assert (first[-1].top.match, first[-1].bottom) == ("consolation-3-1", BYE)


def _first_round(n: int, losers_of: dict[str, int]):
    bracket = single_elimination(list(range(1, n + 1)), lengths=5)
    state = advance(bracket, {})
    results = {}
    for s in state.matches:
        if s.status == "ready" and s.match.id in losers_of:
            results[s.match.id] = s.bottom if losers_of[s.match.id] == s.top else s.top
    return bracket, results


@pytest.mark.parametrize(
    ("n", "played", "entrant", "reentered", "reason", "match"),
    [
        (13, {"main-1-2": 9}, 9, (), None, "main-1-7"),  # seed 14's line: against seed 3's bye
        (13, {"main-1-2": 8}, 8, (), None, "main-1-7"),  # the higher seed lost: the same slot
        (13, {"main-1-2": 9}, 8, (), "not_a_first_round_loser", None),  # the winner
        (13, {"main-1-2": 9}, 1, (), "not_a_first_round_loser", None),  # had a bye
        (13, {"main-1-2": 9}, 9, (9,), "already_reentered", None),
        (16, {"main-1-1": 16}, 16, (), "bracket_full", None),
    ],
)
def test_reentry_buy_back_into_the_main_while_its_first_round_is_open(n, played, entrant, reentered, reason, match):
    """Re-entry (buy-back): a main round-1 loser may re-enter once, as the next seed in the first
    unused bye, while the first round is open; otherwise refused with the reason."""
    bracket, results = _first_round(n, played)
    if reason is None:
        allowed = reentry(bracket, results, entrant, new_entrant="again", reentered=reentered)
        assert (allowed.seed, allowed.match, allowed.new_entrant) == (n + 1, match, "again")
        # the seed it takes stands where the draw would put a late entrant
        again = single_elimination([*range(1, n + 1), "again"], lengths=5)
        assert "again" in (again.match(match).top.entrant, getattr(again.match(match).bottom, "entrant", None))
    else:
        with pytest.raises(DrawError) as raised:
            reentry(bracket, results, entrant, new_entrant="again", reentered=reentered)
        assert (raised.value.code, raised.value.details["reason"]) == ("reentry_refused", reason)


def test_reentry_refused_once_the_first_round_is_over_or_the_bye_played_on():
    """Re-entry (buy-back): refused when no round-1 match is left to play (first_round_closed),
    and when the player who had the bye has already played his round-2 match (slot_played_on)."""
    bracket = single_elimination(list(range(1, 7)), lengths=5)
    state = advance(bracket, {})
    results = {s.match.id: s.top for s in state.matches if s.status == "ready"}
    loser = next(s.bottom for s in state.matches if s.status == "ready")
    with pytest.raises(DrawError) as raised:
        reentry(bracket, results, loser, new_entrant="again")
    assert raised.value.details["reason"] == "first_round_closed"
    bracket = single_elimination(list(range(1, 14)), lengths=5)  # seed 14 would face seed 3's bye (main-1-7)
    results = {"main-1-3": 4, "main-1-8": 6}  # 4 beat 13; main-1-2 (8 v 9) is still to play
    results["main-2-4"] = 3  # seed 3, who had the bye, has played on
    loser = 13
    with pytest.raises(DrawError) as raised:
        reentry(bracket, results, loser, new_entrant="again")
    assert raised.value.details["reason"] == "slot_played_on"


def test_paid_places_with_the_playoff_for_2nd_pay_its_places_from_the_main_pool():
    """Paid places with the playoff for 2nd: the playoff decides the main's places 2 and 3 (paid
    from the main's pool); the consolation's winner keeps his consolation place 1 too."""
    bracket = add_playoff(event(16, 2, True), lengths=7)
    state = advance(bracket, play_out(bracket, seed=5))
    paid = payouts(state, {"main": (1000, [50, 30, 20]), "consolation": (100, [100])})
    playoff = state.by_id["playoff-1-1"]
    main = {p.entrant: (p.label, p.amount) for p in paid if p.flight == "main" and p.amount}
    assert main == {state.champion("main"): ("1", 500), playoff.winner: ("2", 300), playoff.loser: ("3", 200)}
    consolation = [(p.label, p.entrant, p.amount) for p in paid if p.flight == "consolation" and p.amount]
    assert consolation == [("1", playoff.bottom, 100)]


@pytest.mark.parametrize("n", [9, 12, 15, 16])
def test_last_chance_open_has_the_same_shape_for_every_field_of_a_size(n):
    """Last chance open: who drops is decided by the bracket's shape (the routes of a size serve
    every number of entrants), never by how many byes the draw has."""
    full = add_open_last_chance(event(16, 1, False), lengths=1, paid={"main": 4})
    bracket = add_open_last_chance(event(n, 1, False), lengths=1, paid={"main": 4})
    assert [(m.id, m.top, m.bottom) for m in bracket.matches if m.flight == "last_chance"] == [
        (m.id, m.top, m.bottom) for m in full.matches if m.flight == "last_chance"]

"""Swiss and elimination Swiss: equal records meet, no rematches, the bye to the lowest-ranked
player without one, forbidden pairings, "no pairing" as an answer, reproducibility, scale.

Builders after lila's SwissScoringTest: ``beat('a', 'b')`` is a game a won against b;
``played(1, beat('a', 'b'), bye='c')`` a round as played; ``pair(...)`` pairs the next round
(5-point matches) and ``pairs(...)`` gives its pairs as (top, bottom) tuples.
"""

from __future__ import annotations

import random
import time
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    DrawError,
    NoPairing,
    Result,
    SwissOptions,
    SwissPairing,
    SwissRound,
    pair_round,
    seed_randomly,
    swiss_records,
    swiss_standings,
)
from tournaments.draw.swiss import NO_PAIRING


def beat(winner, loser) -> Result:
    return Result(winner, loser, winner)


def played(number: int, *results: Result, bye=None) -> SwissRound:
    return SwissRound(number, results, bye)


def pair(entrants, history=(), *, withdrawn=(), **options):
    options.setdefault("lengths", 5)
    return pair_round(list(entrants), history, options=SwissOptions(**options), withdrawn=withdrawn)


def pairs(entrants, history=(), **options) -> list[tuple]:
    answer = pair(entrants, history, **options)
    assert answer.ok, answer
    return [(p.top, p.bottom) for p in answer.pairings]


def as_round(answer: SwissPairing, winners) -> SwissRound:
    """The round ``answer`` paired, played with ``winners(top, bottom)`` naming each winner."""
    results = tuple(Result(p.top, p.bottom, winners(p.top, p.bottom)) for p in answer.pairings)
    return SwissRound(answer.round, results, answer.bye)


def simulate(entrants, rounds: int, seed: int, **options) -> list[SwissRound]:
    rng = random.Random(seed)
    history: list[SwissRound] = []
    for _ in range(rounds):
        answer = pair(entrants, history, **options)
        assert answer.ok, answer
        history.append(as_round(answer, lambda a, b: rng.choice((a, b))))
    return history


# --- round one and equal records ----------------------------------------------------------------


def test_round_one_pairs_the_top_half_against_the_bottom_half_by_seed():
    assert pairs("abcdefgh") == [("a", "e"), ("b", "f"), ("c", "g"), ("d", "h")]


def test_round_one_with_an_odd_count_gives_the_bye_to_the_last_seed():
    answer = pair("abcde")
    assert answer.bye == "e"
    assert [(p.top, p.bottom) for p in answer.pairings] == [("a", "c"), ("b", "d")]


def test_the_pairings_carry_ids_round_and_length_from_the_schedule():
    answer = pair("abcd", [played(1, beat("a", "c"), beat("b", "d"))], lengths=[5, 7])
    assert [(p.id, p.flight, p.round, p.length) for p in answer.pairings] == [
        ("swiss-2-1", "swiss", 2, 7), ("swiss-2-2", "swiss", 2, 7),
    ]


def test_round_two_pairs_winners_with_winners_and_losers_with_losers():
    history = [played(1, beat("a", "e"), beat("f", "b"), beat("c", "g"), beat("h", "d"))]
    # winners a, c, f, h (seed order) fold 1-3, 2-4; losers b, d, e, g the same
    assert pairs("abcdefgh", history) == [("a", "f"), ("c", "h"), ("b", "e"), ("d", "g")]


def test_the_odd_one_out_of_a_score_group_floats_down_to_the_top_of_the_next():
    history = [played(1, beat("a", "b"), beat("c", "d"), beat("e", "f"), bye="g")]
    # a, c, e, g on one win: a-e, c-g; b, d, f on none: f, the lowest, has the bye, b-d
    answer = pair("abcdefg", history)
    assert answer.bye == "f"
    assert [(p.top, p.bottom) for p in answer.pairings] == [("a", "e"), ("c", "g"), ("b", "d")]
    history = [played(1, beat("a", "b"), beat("c", "d"), beat("e", "f"), beat("g", "h"), bye="i"),
               played(2, beat("a", "e"), beat("c", "g"), beat("i", "b"), beat("d", "f"), bye="h")]
    # a, c, i on 2 wins: a-c, and i floats to d, the top of d, e, g, h on 1 win; e-g; h floats to
    # b, the top of b, f on none; f, the lowest without a bye, has it
    answer = pair("abcdefghi", history)
    assert answer.bye == "f"
    assert [(p.top, p.bottom) for p in answer.pairings] == [("a", "c"), ("i", "d"), ("e", "g"), ("h", "b")]


def test_it_avoids_a_rematch_by_pairing_further_from_the_fold():
    history = [played(1, beat("a", "c"), beat("b", "d")), played(2, beat("a", "b"), beat("c", "d"))]
    assert pairs("abcd", history) == [("a", "d"), ("b", "c")]


# --- the bye ------------------------------------------------------------------------------------


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    history = [played(1, beat("a", "b"), beat("c", "d"), bye="e")]
    answer = pair("abcde", history)
    assert answer.bye == "d"  # lowest on 0 wins; e had one


def test_no_second_bye_before_everyone_had_one_even_for_the_highest_ranked():
    history = [played(1, beat("b", "a"), bye="c"), played(2, beat("b", "c"), bye="a")]
    assert pair("abc", history).bye == "b"  # b is top, but the only one without a bye


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([3, 5, 7, 9, 11]), seed=st.integers(0, 10_000))
def test_nobody_gets_a_second_bye_before_every_player_has_had_one(n, seed):
    entrants = [f"p{i}" for i in range(n)]
    rng = random.Random(seed)
    history: list[SwissRound] = []
    byes = dict.fromkeys(entrants, 0)
    for _ in range(n):
        answer = pair(entrants, history)
        if not answer.ok:
            break
        assert byes[answer.bye] == min(byes.values())
        byes[answer.bye] += 1
        history.append(as_round(answer, lambda a, b: rng.choice((a, b))))


# --- forbidden pairings -------------------------------------------------------------------------


def test_players_of_the_same_club_are_not_paired():
    clubs = {"a": "Ostend", "e": "Ostend"}
    assert pairs("abcdefgh", clubs=clubs) == [("a", "f"), ("b", "e"), ("c", "g"), ("d", "h")]


def test_the_pairs_the_organiser_declares_are_not_paired():
    assert pairs("abcd", forbidden=[("c", "a")]) == [("a", "d"), ("b", "c")]


def test_a_player_without_a_club_may_meet_anyone():
    assert pairs("abcd", clubs={"a": None, "c": None}) == [("a", "c"), ("b", "d")]


# --- no valid pairing is an answer ---------------------------------------------------------------


def test_when_everyone_has_played_everyone_it_says_a_rematch_would_be_needed():
    history = [
        played(1, beat("a", "c"), beat("b", "d")),
        played(2, beat("a", "b"), beat("c", "d")),
        played(3, beat("a", "d"), beat("b", "c")),
    ]
    answer = pair("abcd", history)
    assert isinstance(answer, NoPairing) and not answer.ok
    assert (answer.round, answer.code) == (4, "rematches")
    assert set(answer.unpaired) == {"a", "b", "c", "d"} and answer.message


def test_when_the_clubs_make_it_impossible_it_blames_the_forbidden_pairings():
    answer = pair("abcd", clubs={"a": 1, "b": 1, "c": 1})
    assert answer.code == "forbidden" and len(answer.unpaired) == 2


def test_when_only_a_player_who_had_the_bye_could_take_it_it_says_so():
    history = [played(1, beat("b", "c"), bye="a"), played(2, bye="c")]
    # b alone has had no bye, and without b, a v c is forbidden (same club); with c out, a v b could play
    answer = pair("abc", history, clubs={"a": "x", "c": "x"})
    assert answer.code == "no_bye"


@pytest.mark.parametrize(("entrants", "withdrawn"), [("a", ()), ("ab", ("b",)), ("", ())])
def test_with_fewer_than_two_players_there_is_nobody_to_pair(entrants, withdrawn):
    answer = pair(entrants, withdrawn=withdrawn)
    assert answer.code == "too_few_players"


# --- elimination Swiss, withdrawals, late entries -------------------------------------------------


def test_elimination_swiss_stops_pairing_a_player_at_his_kth_loss():
    history = [played(1, beat("a", "b"), beat("c", "d")), played(2, beat("a", "c"), beat("d", "b"))]
    assert pairs("abcd", history, max_losses=2) == [("a", "d")]  # b is out at his second loss
    assert pair("abcd", history, max_losses=1).code == "finished"


def test_allowing_rematches_never_lifts_a_pair_the_organiser_forbids():
    history = [played(1, beat("a", "b"), beat("c", "d")), played(2, beat("a", "c"), beat("b", "d")),
               played(3, beat("a", "d"), beat("b", "c"))]
    answer = pair("abcd", history, allow_rematches=True, forbidden=[("a", "b"), ("a", "c")])
    assert [(p.top, p.bottom) for p in answer.pairings] == [("a", "d"), ("b", "c")]
    assert pair("abcd", history, allow_rematches=True, forbidden=[("a", "b"), ("a", "c"), ("a", "d")]).code == "forbidden"


def test_a_rematch_the_organiser_allows_is_paired_only_when_nothing_else_fits():
    history = [
        played(1, beat("a", "b"), beat("c", "d")),
        played(2, beat("a", "c"), beat("d", "b")),  # b is out at his second loss
        played(3, beat("d", "a"), bye="c"),
    ]
    assert pair("abcd", history, max_losses=2).code == "rematches"  # a, c and d have all met
    answer = pair("abcd", history, max_losses=2, allow_rematches=True)
    assert answer.bye == "d" and [(p.top, p.bottom) for p in answer.pairings] == [("a", "c")]
    history = simulate("abcdefgh", 3, seed=2)
    assert pair("abcdefgh", history, allow_rematches=True) == pair("abcdefgh", history)


def test_elimination_swiss_ends_with_the_last_player_left():
    history = simulate("abcdefgh", 3, seed=1, max_losses=1)
    answer = pair("abcdefgh", history, max_losses=1)
    assert answer.code == "finished" and len(answer.unpaired) == 1


def test_elimination_swiss_runs_to_a_winner_with_byes_counting_as_wins():
    entrants = [f"p{i}" for i in range(13)]
    rng = random.Random(5)
    history: list[SwissRound] = []
    while (answer := pair(entrants, history, max_losses=3, allow_rematches=True)).ok:
        history.append(as_round(answer, lambda a, b: rng.choice((a, b))))
        assert len(history) < 40
    assert answer.code == "finished"
    records = swiss_records(entrants, history)
    assert [e for e, r in records.items() if r.losses < 3] == list(answer.unpaired)


def test_a_withdrawn_player_is_not_paired_but_his_games_still_count():
    history = [played(1, beat("a", "c"), beat("b", "d"))]
    answer = pair("abcd", history, withdrawn={"d"})
    assert (answer.bye, [(p.top, p.bottom) for p in answer.pairings]) == ("c", [("a", "b")])
    assert swiss_standings("abcd", history)[-1].entrant == "d"


def test_a_late_entrant_joins_on_no_wins_as_the_last_seed():
    history = [played(1, beat("a", "c"), beat("b", "d"))]
    answer = pair("abcde", history)
    assert answer.bye == "e"


# --- reproducible, deterministic ------------------------------------------------------------------


def test_the_same_entrants_and_random_seed_give_the_same_swiss_draw():
    names = [f"player {i}" for i in range(21)]
    first = simulate(seed_randomly(names, 31337), 4, seed=8)
    again = simulate(seed_randomly(list(reversed(names)), 31337), 4, seed=8)
    assert first == again


def test_the_order_of_the_forbidden_pairs_and_clubs_does_not_change_the_pairing():
    history = simulate("abcdefghij", 2, seed=3)
    one = pair("abcdefghij", history, forbidden=[("a", "b"), ("c", "d")], clubs={"e": 1, "f": 1})
    two = pair("abcdefghij", history, forbidden=[("d", "c"), ("b", "a")], clubs={"f": 1, "e": 1})
    assert one == two


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "options", "code"),
    [
        ([played(1, Result("a", "b", None), beat("c", "d"))], {}, "round_not_complete"),
        ([played(1, beat("a", "z"))], {}, "unknown_entrant"),
        ([played(1, beat("a", "b"), beat("a", "c"))], {}, "bad_history"),
        ([played(1, beat("a", "b"), bye="a")], {}, "bad_history"),
        ([], {"forbidden": [("a", "z")]}, "unknown_entrant"),
        ([], {"clubs": {"z": 1}}, "unknown_entrant"),
        ([], {"withdrawn": ["z"]}, "unknown_entrant"),
        ([], {"lengths": 0}, "bad_length"),
        ([], {"max_losses": 0}, "bad_max_losses"),
    ],
)
def test_it_refuses_wrong_input_with_an_error_not_a_no_pairing(history, options, code):
    with pytest.raises(DrawError) as error:
        pair("abcd", history, **options)
    assert error.value.code == code


# --- properties against brute force ---------------------------------------------------------------


def brute_force_exists(active, blocked, byes) -> bool:
    """Whether a valid pairing exists: every pair allowed, the bye to one of the fewest byes."""

    def perfect(rest) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            frozenset((first, q)) not in blocked and perfect([o for o in others if o != q]) for q in others
        )

    if len(active) % 2 == 0:
        return perfect(active)
    fewest = min(byes[e] for e in active)
    return any(perfect([e for e in active if e != b]) for b in active if byes[b] == fewest)


@st.composite
def situations(draw):
    n = draw(st.integers(2, 8))
    entrants = [f"p{i}" for i in range(n)]
    history = []
    for number in range(1, draw(st.integers(0, 4)) + 1):
        order = draw(st.permutations(entrants))
        games = [(order[i], order[i + 1]) for i in range(0, n - 1, 2)]
        wins = draw(st.lists(st.booleans(), min_size=len(games), max_size=len(games)))
        results = tuple(Result(a, b, a if w else b) for (a, b), w in zip(games, wins, strict=True))
        history.append(SwissRound(number, results, order[-1] if n % 2 else None))
    pick = st.sampled_from(entrants)
    forbidden = draw(st.lists(st.tuples(pick, pick).filter(lambda t: t[0] != t[1]), max_size=3))
    clubs = draw(st.dictionaries(pick, st.sampled_from(["x", "y"]), max_size=3))
    return entrants, history, forbidden, clubs


@settings(max_examples=300, deadline=None)
@given(situations())
def test_it_pairs_without_rematches_whenever_brute_force_finds_a_valid_pairing(situation):
    entrants, history, forbidden, clubs = situation
    blocked = {frozenset(p) for p in forbidden}
    blocked |= {frozenset((r.top, r.bottom)) for h in history for r in h.results}
    blocked |= {frozenset((a, b)) for a, b in combinations(entrants, 2) if clubs.get(a) and clubs.get(a) == clubs.get(b)}
    byes = {e: sum(h.bye == e for h in history) for e in entrants}
    answer = pair(entrants, history, forbidden=forbidden, clubs=clubs)
    assert answer.ok == brute_force_exists(entrants, blocked, byes), answer
    if answer.ok:
        seated = [e for p in answer.pairings for e in (p.top, p.bottom)] + ([answer.bye] if answer.bye else [])
        assert sorted(seated) == sorted(entrants)
        assert not any(frozenset((p.top, p.bottom)) in blocked for p in answer.pairings)
        if answer.bye is not None:
            assert byes[answer.bye] == min(byes.values())
    else:
        assert answer.code in ("rematches", "forbidden", "no_bye") and answer.code in NO_PAIRING


# --- scale ---------------------------------------------------------------------------------------


def test_it_pairs_a_round_of_1000_players_after_6_rounds_well_under_two_seconds():
    entrants = list(range(1, 1001))
    clubs = {e: e % 97 for e in entrants}  # about ten players a club, never paired together
    history = simulate(entrants, 6, seed=6, clubs=clubs)
    start = time.perf_counter()
    answer = pair(entrants, history, clubs=clubs)
    elapsed = time.perf_counter() - start
    assert answer.ok and len(answer.pairings) == 500
    met = {frozenset((r.top, r.bottom)) for h in history for r in h.results}
    assert not any(frozenset((p.top, p.bottom)) in met for p in answer.pairings)
    assert elapsed < 2

"""The FIDE options, table-driven, each case citing the rule it implements.

The rules are FIDE's (the FIDE Handbook: the tie-break regulations, C.02 and its successor C.07,
and the Berger tables for round robins, C.05 Annex 1). We could not read the handbook here, so
each rule is described in our own words (tournaments/draw/standings.py, roundrobin.py) and no
section numbers are given; the Berger tables below are the published ones for 5-6 and 7-8 players.
"""

from __future__ import annotations

import pytest

from tournaments.draw import DrawError, Result, SwissRound, round_robin, standings, swiss_standings
from tournaments.draw.roundrobin import berger_schedule
from tournaments.draw.standings import SWISS_FIDE
from tournaments.draw.swiss_history import unplayed_rounds


def beat(winner, loser) -> Result:
    return Result(winner, loser, winner)


# --- FIDE's Buchholz: unplayed rounds and the virtual opponent ---------------------------------------

#: a, b, c take turns at the bye: everyone on 2 points, plain Buchholz 4 each.
ROTATING_BYES = [
    SwissRound(1, (beat("a", "b"),), bye="c"),
    SwissRound(2, (beat("c", "a"),), bye="b"),
    SwissRound(3, (beat("b", "c"),), bye="a"),
]
#: d withdraws after round 1 (round 2 unplayed, 0 points); b has the round-2 bye.
WITHDRAWAL = [
    SwissRound(1, (beat("a", "b"), beat("c", "d"))),
    SwissRound(2, (beat("a", "c"),), bye="b"),
]


@pytest.mark.parametrize(
    ("rule", "entrants", "history", "expected"),
    [
        (
            "FIDE virtual opponent: own bye in round 3 of 3 = score before (1) + points not got (0) "
            "+ half a point per later round (0); opponents' byes count as draws (1.5 each)",
            "abc", ROTATING_BYES, {"a": 4.0, "b": 3.5, "c": 4.0},
        ),
        (
            "FIDE virtual opponent: a bye in round 1 of 3 is worth 0 + 0 + 2 x 0.5 = 1, in round 2 "
            "0 + 0 + 0.5 = 0.5",
            "abc", ROTATING_BYES[:2], {"a": 1 + 1.5, "b": 1.5 + 0.0, "c": 1.5 + 0.5},
        ),
        (
            "FIDE unplayed games: a withdrawn opponent's missed round counts as a draw (d: 0.5, not "
            "0); the bye's virtual opponent had b's 0 and b got the point; d's own missed round "
            "gives him a virtual opponent on 0 + 1",
            "abcd", WITHDRAWAL, {"a": 0.5 + 1, "b": 2 + 0, "c": 0.5 + 2, "d": 1 + 1},
        ),
        (
            "no unplayed round: FIDE's Buchholz is the plain Buchholz",
            "abcd", [SwissRound(1, (beat("a", "b"), beat("c", "d"))), SwissRound(2, (beat("a", "c"), beat("b", "d")))],
            {"a": 2.0, "b": 2.0, "c": 2.0, "d": 2.0},
        ),
    ],
)
def test_fide_buchholz(rule, entrants, history, expected):
    results = [r for h in history for r in h.results]
    byes = [h.bye for h in history if h.bye]
    lines = standings(entrants, results, byes, tiebreaks=("fide_buchholz",),
                      unplayed=unplayed_rounds(entrants, history))
    ranked = [line.entrant for line in lines]
    assert ranked == sorted(entrants, key=lambda e: (-expected[e], entrants.index(e))), rule
    assert [line.place for line in lines] == [
        1 + sum(expected[o] > expected[e] for o in entrants) for e in ranked
    ], rule


@pytest.mark.parametrize(
    ("rule", "tiebreaks", "expected"),
    [
        ("plain Buchholz: b and c level (2 each), seed order", ("wins", "buchholz"), ["a", "b", "c", "d"]),
        ("FIDE: c's win over the withdrawn d counts d as 0.5; b's bye is worth nothing more",
         ("wins", "fide_buchholz"), ["a", "c", "b", "d"]),
    ],
)
def test_fide_buchholz_changes_the_table_after_a_withdrawal(rule, tiebreaks, expected):
    assert [line.entrant for line in swiss_standings("abcd", WITHDRAWAL, tiebreaks=tiebreaks)] == expected, rule


def test_fide_buchholz_without_the_rounds_of_the_byes_is_refused():
    with pytest.raises(DrawError) as error:
        standings("abc", [beat("a", "b")], ["c"], tiebreaks=("fide_buchholz",))
    assert error.value.code == "bad_tiebreak"


def test_the_fide_swiss_order_ranks_rotating_byes_by_fide_buchholz_then_direct_encounter():
    """SWISS_FIDE: wins, FIDE Buchholz (a 4, c 4, b 3.5), median, then the strict direct
    encounter: a and c met (c won)."""
    lines = swiss_standings("abc", ROTATING_BYES, tiebreaks=SWISS_FIDE)
    assert [(line.place, line.entrant) for line in lines] == [(1, "c"), (2, "a"), (3, "b")]


# --- the strict direct encounter -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "results", "head_to_head", "direct_encounter"),
    [
        (
            "b beat a, c met nobody: head-to-head puts b first; the strict direct encounter "
            "leaves all three tied (c never met them)",
            [beat("b", "a")], [(1, "b"), (2, "a"), (2, "c")], [(1, "a"), (1, "b"), (1, "c")],
        ),
        (
            "FIDE strict direct encounter: a beat b and c, but b and c never met: not all tied "
            "players have met, so it leaves the three tied (head-to-head splits them)",
            [beat("a", "b"), beat("a", "c")], [(1, "a"), (2, "b"), (2, "c")], [(1, "a"), (1, "b"), (1, "c")],
        ),
        (
            "all three met, a cycle: one point each, still tied under both",
            [beat("a", "b"), beat("b", "c"), beat("c", "a")], [(1, "a"), (1, "b"), (1, "c")],
            [(1, "a"), (1, "b"), (1, "c")],
        ),
        (
            "all three met: c won both, a beat b: c, a, b (applied again to the two left level)",
            [beat("c", "a"), beat("c", "b"), beat("a", "b")], [(1, "c"), (2, "a"), (3, "b")],
            [(1, "c"), (2, "a"), (3, "b")],
        ),
    ],
)
def test_direct_encounter_is_strict(rule, results, head_to_head, direct_encounter):
    def table(name):
        return [(line.place, line.entrant) for line in standings("abc", results, tiebreaks=(name,))]

    assert table("head_to_head") == head_to_head, rule
    assert table("direct_encounter") == direct_encounter, rule


# --- FIDE's Berger tables -------------------------------------------------------------------------

BERGER_6 = [  # the published table for 5 or 6 players
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
BERGER_8 = [  # the published table for 7 or 8 players
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


@pytest.mark.parametrize(
    ("rule", "players", "table"),
    [
        ("FIDE Berger table, 6 players", 6, BERGER_6),
        ("FIDE Berger table, 8 players", 8, BERGER_8),
        ("FIDE Berger table, 5 players: the 6-player table, whoever meets 6 has the bye", 5,
         [[p for p in r if 6 not in p] for r in BERGER_6]),
        ("FIDE Berger table, 7 players: the 8-player table, whoever meets 8 has the bye", 7,
         [[p for p in r if 8 not in p] for r in BERGER_8]),
    ],
)
def test_berger_tables(rule, players, table):
    schedule = berger_schedule(tuple(range(1, players + 1)))
    assert [list(pairs) for pairs, _ in schedule] == table, rule
    if players % 2:
        assert [bye for _, bye in schedule] == [
            next(a if b == players + 1 else b for a, b in r if players + 1 in (a, b))
            for r in (BERGER_6 if players == 5 else BERGER_8)
        ], rule


def test_a_round_robin_drawn_in_berger_order_names_its_matches_as_before():
    draw = round_robin(list("abcdef"), lengths=5, order="berger")
    first = draw.groups[0].rounds[1]
    assert [(p.id, p.top, p.bottom) for p in first.pairings] == [
        ("A-2-1", "f", "d"), ("A-2-2", "e", "c"), ("A-2-3", "a", "b"),
    ]
    circle = round_robin(list("abcdef"), lengths=5)
    assert {frozenset((p.top, p.bottom)) for p in draw.pairings} == {
        frozenset((p.top, p.bottom)) for p in circle.pairings
    }


def test_an_unknown_round_robin_order_is_refused():
    with pytest.raises(DrawError) as error:
        round_robin("abcd", lengths=5, order="scheveningen")
    assert error.value.code == "bad_order"

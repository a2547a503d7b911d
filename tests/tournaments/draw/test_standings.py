"""Standings and tie-breaks: Swiss (wins, Buchholz, median-Buchholz, head-to-head), round robin
(wins, head-to-head, points difference), team tables (team-match wins, board points,
head-to-head)."""

from __future__ import annotations

import pytest

from tournaments.draw import DRAW, ROUND_ROBIN, SWISS, TEAM, DrawError, Result, records, standings, team_match


def beat(winner, loser, points=(0, 0)) -> Result:
    """``winner`` beat ``loser`` (as top and bottom), scoring ``points`` (winner's, loser's)."""
    return Result(winner, loser, winner, *points)


def table(entrants, results, byes=(), tiebreaks=SWISS):
    return [(s.place, s.entrant) for s in standings(entrants, results, byes, tiebreaks=tiebreaks)]


def test_a_bye_counts_as_a_win_but_adds_nothing_to_buchholz():
    line = {s.entrant: s for s in standings("abc", [beat("a", "b")], ["c"])}
    assert line["c"].record.wins == 1 and line["c"].record.byes == 1 and line["c"].buchholz == 0
    assert line["b"].buchholz == 1  # lost to a, who has one win
    assert line["c"].record.played == 0


def test_swiss_ties_on_wins_are_split_by_buchholz():
    # a, b and c all 1-1: a lost to d (2 wins), b lost to a (1 win), c lost to b (1 win)
    results = [beat("d", "a"), beat("a", "b"), beat("b", "c"), beat("c", "e"), beat("d", "e")]
    assert table("abcde", results) == [(1, "d"), (2, "a"), (3, "b"), (4, "c"), (5, "e")]


def test_median_buchholz_drops_the_best_and_the_worst_opponent():
    results = [beat("a", "x"), beat("a", "y"), beat("a", "z"), beat("b", "y"), beat("b", "x"), beat("b", "w")]
    results += [beat("x", "q"), beat("x", "r"), beat("z", "q"), beat("z", "r"), beat("w", "q"), beat("w", "s")]
    line = {s.entrant: s for s in standings("abwxyzqrs", results)}
    # a: opponents x(2), y(0), z(2) -> Buchholz 4, median 2; b: y(0), x(2), w(2) -> the same
    assert (line["a"].buchholz, line["a"].median_buchholz) == (4, 2)
    assert (line["b"].buchholz, line["b"].median_buchholz) == (4, 2)


def test_median_buchholz_decides_when_wins_and_buchholz_are_level():
    # a beat p(3 wins), q(1), r(1): Buchholz 5, median 1; b beat s(2), t(2), u(1): Buchholz 5, median 2
    fillers = [f"f{i}" for i in range(1, 11)]
    results = [beat("a", "p"), beat("a", "q"), beat("a", "r"), beat("b", "s"), beat("b", "t"), beat("b", "u")]
    winners = ["p", "p", "p", "q", "r", "s", "s", "t", "t", "u"]
    results += [beat(w, f) for w, f in zip(winners, fillers, strict=True)]
    lines = standings(["a", "b", "p", "q", "r", "s", "t", "u", *fillers], results)
    assert [(s.entrant, s.score, s.buchholz, s.median_buchholz) for s in lines[:3]] == [
        ("b", 3, 5, 2), ("a", 3, 5, 1), ("p", 3, 3, 0),
    ]


def test_players_level_on_wins_and_both_buchholz_are_split_by_their_game():
    # x and y: 2 wins, Buchholz 3, median 1, y beat x; a and b: 1 win, Buchholz 3, median 3, a beat b
    results = [beat("x", "a"), beat("y", "x"), beat("a", "b"), beat("b", "y"), beat("x", "z"), beat("y", "z")]
    assert table("abxyz", results) == [(1, "y"), (2, "x"), (3, "a"), (4, "b"), (5, "z")]


def test_entrants_level_on_every_tie_break_share_their_place_and_stay_in_seed_order():
    assert table(["z", "y", "x", "w"], [beat("y", "z"), beat("x", "w")]) == [(1, "y"), (1, "x"), (3, "z"), (3, "w")]


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        # wins first
        ([beat("a", "b"), beat("a", "c"), beat("b", "c")], [(1, "a"), (2, "b"), (3, "c"), (3, "d")]),
        # a and b on 2 wins: a beat b
        ([beat("a", "b"), beat("a", "c"), beat("b", "c"), beat("b", "d"), beat("c", "d"), beat("d", "a")],
         [(1, "a"), (2, "b"), (3, "c"), (4, "d")]),
        # a, b, c each 2 wins in a cycle (head-to-head cannot split them): points difference does,
        # a +5 -2 +4 = +7, c +2 -1 +1 = +2, b -5 +1 +3 = -1
        ([beat("a", "b", (5, 0)), beat("b", "c", (5, 4)), beat("c", "a", (5, 3)),
          beat("a", "d", (5, 1)), beat("b", "d", (5, 2)), beat("c", "d", (5, 4))],
         [(1, "a"), (2, "c"), (3, "b"), (4, "d")]),
    ],
)
def test_round_robin_ties_go_to_head_to_head_then_points_difference(results, expected):
    assert table("abcd", results, tiebreaks=ROUND_ROBIN) == expected


def test_head_to_head_uses_the_mini_table_of_the_tied_and_applies_it_again_to_those_still_level():
    # a, b, c, d all on 2 wins; among them a and b have 2 wins, c and d 1; then a beat b, c beat d
    results = [beat("a", "b"), beat("a", "c"), beat("b", "c"), beat("d", "a"), beat("b", "d"), beat("c", "d")]
    results += [beat("c", "e"), beat("d", "e")]
    assert table("abcde", results, tiebreaks=("wins", "head_to_head")) == [
        (1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e"),
    ]


#: A round-robin group of six: Bob beats everyone, Alice everyone but Bob, Zed nobody; Xavier, Frank
#: and Erin win two each and went round in a circle among them (Xavier beat Frank 3-2, Frank beat
#: Erin 3-2, Erin beat Xavier 3-2). Points difference: Xavier -3 (he beat Zed 3-0), Frank and Erin
#: -4 each (they beat Zed 3-1): Xavier is third, and Frank and Erin are split by their own game.
CIRCLE = [
    beat("bob", "alice", (3, 0)), beat("bob", "xavier", (3, 0)), beat("bob", "frank", (3, 0)),
    beat("bob", "erin", (3, 0)), beat("bob", "zed", (3, 0)),
    beat("alice", "xavier", (3, 0)), beat("alice", "frank", (3, 0)), beat("alice", "erin", (3, 0)),
    beat("alice", "zed", (3, 0)),
    beat("xavier", "frank", (3, 2)), beat("frank", "erin", (3, 2)), beat("erin", "xavier", (3, 2)),
    beat("xavier", "zed", (3, 0)), beat("frank", "zed", (3, 1)), beat("erin", "zed", (3, 1)),
]
SIX = ["alice", "bob", "xavier", "erin", "frank", "zed"]  # seed order: Erin before Frank


@pytest.mark.parametrize(
    ("entrants", "results", "tiebreaks", "expected"),
    [
        # three level on wins in a circle: head-to-head cannot split them, points difference puts
        # Xavier ahead, and Frank and Erin, still level, are split by their game (Frank won 3-2)
        (SIX, CIRCLE, ROUND_ROBIN, [
            (1, "bob", "wins"), (2, "alice", "wins"), (3, "xavier", "points_difference"),
            (4, "frank", "head_to_head"), (5, "erin", "wins"), (6, "zed", None)]),
        # two level on wins who met: their game decides (a and b on 2 wins, c and d on 1)
        ("abcd", [beat("a", "b"), beat("a", "c"), beat("b", "c"), beat("b", "d"), beat("d", "a"), beat("c", "d")],
         ROUND_ROBIN, [(1, "a", "head_to_head"), (2, "b", "wins"), (3, "c", "head_to_head"), (4, "d", None)]),
        # a circle of three, everyone on one win, on the same points: level on everything
        ("abc", [beat("a", "b", (3, 1)), beat("b", "c", (3, 1)), beat("c", "a", (3, 1))],
         ROUND_ROBIN, [(1, "a", None), (1, "b", None), (1, "c", None)]),
        # four level on wins: the mini-table puts a and b (2 wins among the four) ahead of c and d
        # (1 each), then a beat b and c beat d
        ("abcde", [beat("a", "b"), beat("a", "c"), beat("b", "c"), beat("d", "a"), beat("b", "d"), beat("c", "d"),
                   beat("c", "e"), beat("d", "e")],
         ("wins", "head_to_head"), [
             (1, "a", "head_to_head"), (2, "b", "head_to_head"), (3, "c", "head_to_head"), (4, "d", "wins"),
             (5, "e", None)]),
        # FIDE's strict direct encounter: a, b and c on one win, c has met neither, so it does not
        # decide; points difference puts c (+3) ahead of a and b (+1 each), who met: b won
        ("abcde", [beat("b", "a", (3, 2)), beat("a", "d", (3, 1)), beat("c", "e", (3, 0))],
         ("wins", "direct_encounter", "points_difference"), [
             (1, "c", "points_difference"), (2, "b", "direct_encounter"), (3, "a", "wins"),
             (4, "d", "points_difference"), (5, "e", None)]),
    ],
)
def test_the_tie_breaks_apply_in_order_and_those_still_level_are_split_by_their_games(entrants, results, tiebreaks,
                                                                                      expected):
    lines = standings(entrants, results, tiebreaks=tiebreaks)
    assert [(s.place, s.entrant, s.separated_by) for s in lines] == expected


def test_entrants_sharing_a_place_say_no_tie_break_separated_them():
    lines = standings(["z", "y", "x", "w"], [beat("y", "z"), beat("x", "w")])
    assert [(s.place, s.shared, s.separated_by) for s in lines] == [
        (1, True, None), (1, True, "wins"), (3, True, None), (3, True, None)]


def test_a_three_board_team_match_is_won_by_the_majority_and_counts_board_points():
    assert team_match("T1", "T2", ["T1", "T2", "T1"]) == Result("T1", "T2", "T1", 2, 1)
    assert team_match("T1", "T2", ["T2", "T2", None]).winner == "T2"  # clinched with a board still going
    assert team_match("T1", "T2", ["T1", None, None]).winner is None
    assert team_match("T1", "T2", ["T1", "T2", "T1", "T2"]).winner is DRAW


def test_team_tables_rank_team_match_wins_then_board_points_then_head_to_head():
    matches = [
        team_match("A", "B", ["A", "A", "A"]),
        team_match("C", "D", ["C", "C", "D"]),
        team_match("A", "C", ["C", "C", "A"]),
        team_match("B", "D", ["B", "B", "D"]),
        team_match("B", "C", ["B", "C", "B"]),
        team_match("D", "A", ["D", "A", "D"]),
    ]
    # wins: B 2, C 2, A 1, D 1; board points: C 2 + 2 + 1 = 5, B 0 + 2 + 2 = 4, A 3 + 1 + 1 = 5, D 4
    assert table("ABCD", matches, tiebreaks=TEAM) == [(1, "C"), (2, "B"), (3, "A"), (4, "D")]


def test_team_tables_fall_back_to_head_to_head_when_board_points_are_level():
    matches = [team_match("A", "B", ["B", "A", "B"]), team_match("A", "C", ["A", "A", "C"]),
               team_match("B", "C", ["C", "C", "B"])]
    # one win and three board points each, and a cycle: level on everything
    assert table("ABC", matches, tiebreaks=TEAM) == [(1, "A"), (1, "B"), (1, "C")]
    assert table("AB", [team_match("A", "B", ["B", "A", "B"])], tiebreaks=("head_to_head",)) == [(1, "B"), (2, "A")]


def test_a_drawn_team_match_is_half_a_win_each():
    line = {s.entrant: s for s in standings("AB", [team_match("A", "B", ["A", "B"])], tiebreaks=TEAM)}
    assert line["A"].score == line["B"].score == 0.5 and line["A"].record.draws == 1


def test_undecided_results_do_not_count():
    rows = records("ab", [Result("a", "b", None)])
    assert rows["a"].played == 0 and rows["a"].opponents == ()


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: standings("ab", [beat("a", "z")]), "unknown_entrant"),
        (lambda: standings("ab", [], ["z"]), "unknown_entrant"),
        (lambda: standings("ab", [], tiebreaks=("sonneborn",)), "bad_tiebreak"),
        (lambda: team_match("A", "B", ["A", "Z", "B"]), "not_in_match"),
        (lambda: team_match("A", "B", []), "bad_result"),
    ],
)
def test_it_refuses_tables_of_strangers_and_unknown_tie_breaks(call, code):
    with pytest.raises(DrawError) as error:
        call()
    assert error.value.code == code

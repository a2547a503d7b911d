"""engine.scores: which final scores can end a match, checked against a brute-force walk of every
sequence of game results (written here, sharing no code with the engine's decision)."""

from __future__ import annotations

from collections import deque
from functools import cache

import pytest

from engine import MatchError, MatchRules, capped_score, claim_agrees_with_full, final_score, final_score_problem
from engine.scores import REASONS, cube_points

MAX_SCORE = 9999  # the service's bound on a claimed score (matches.models.MAX_SCORE)


@cache
def finals(length: int, crawford: bool, cube_cap: int | None = None, start: tuple[int, int] = (0, 0),
           bound: int = 200) -> frozenset[tuple[int, int]]:
    """Every full final score up to ``bound`` points a side, by breadth-first search over the
    states (score 0, score 1, Crawford game played) reachable from ``start``: each game is won by
    either side, for 1, 2 or 3 points when it is the Crawford game, else for the cube (every face
    1, 2, 4... the cap allows) times 1, 2 or 3."""
    faces, face = [], 1
    while face <= bound and (cube_cap is None or face <= cube_cap):
        faces.append(face)
        face *= 2
    cube_results = sorted({face * level for face in faces for level in (1, 2, 3)})
    found: set[tuple[int, int]] = set()
    first = (start[0], start[1], False)
    seen, queue = {first}, deque([first])
    while queue:
        score0, score1, played = queue.popleft()
        # The Crawford game: the first game where exactly one side is one point short.
        crawford_game = (crawford and length > 1 and not played
                         and ((score0 == length - 1) + (score1 == length - 1)) == 1)
        results = (1, 2, 3) if crawford_game else cube_results
        for winner in (0, 1):
            for points in results:
                after = [score0, score1]
                after[winner] += points
                if after[winner] > bound:
                    continue
                if after[winner] >= length:
                    found.add((after[0], after[1]))
                    continue
                state = (after[0], after[1], played or crawford_game)
                if state not in seen:
                    seen.add(state)
                    queue.append(state)
    return frozenset(found)


def accepted(length: int, found: frozenset) -> set[tuple[int, int]]:
    """The claims a match accepts: every reachable full score and its capped form."""
    return set(found) | {capped_score(length, score) for score in found}


def decided(rules: MatchRules, score: tuple[int, int], start=(0, 0)) -> bool:
    return final_score_problem(rules, score, start=start) is None


# --- every score of lengths 1 to 25 ----------------------------------------------------------


@pytest.mark.parametrize("crawford", [True, False], ids=["crawford", "no-crawford"])
@pytest.mark.parametrize("length", range(1, 26))
def test_every_score_up_to_four_lengths_is_decided_as_the_walk_of_every_game_finds(length, crawford):
    bound = 4 * length + 16
    found = finals(length, crawford, bound=bound)
    ok = accepted(length, found)
    rules = MatchRules(length, crawford=crawford)
    wrong = [(s0, s1) for s0 in range(bound + 1) for s1 in range(bound + 1)
             if decided(rules, (s0, s1)) != ((s0, s1) in ok)]
    assert wrong == []
    # The walk finds full scores past the length (gammons, cubes) and every capped one.
    assert any(max(score) > length for score in found)
    assert {(length, loser) for loser in range(length)} <= ok


@pytest.mark.slow
@pytest.mark.parametrize("crawford", [True, False], ids=["crawford", "no-crawford"])
# A spread of lengths, not all 25: the walk to the service's bound costs seconds a length, and
# every length is checked against the walk up to four lengths above (the test before this one).
@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 7, 9, 11, 15, 17, 21, 25])
def test_every_winning_score_up_to_the_service_bound_is_decided_as_the_walk_finds(length, crawford):
    found = finals(length, crawford, bound=MAX_SCORE)
    ok = accepted(length, found)
    rules = MatchRules(length, crawford=crawford)
    wrong = []
    for loser in range(length):
        for points in range(length, MAX_SCORE + 1):
            for score in ((points, loser), (loser, points)):
                if decided(rules, score) != (score in ok):
                    wrong.append(score)
    assert wrong == []


@pytest.mark.parametrize("cube_cap", [1, 2, 4, 64])
@pytest.mark.parametrize("length", [1, 2, 3, 5, 7, 11])
@pytest.mark.parametrize("crawford", [True, False], ids=["crawford", "no-crawford"])
def test_a_cube_cap_limits_the_last_game_as_the_walk_finds(length, crawford, cube_cap):
    bound = 3 * length + 3 * cube_cap + 8
    ok = accepted(length, finals(length, crawford, cube_cap, bound=bound))
    rules = MatchRules(length, crawford=crawford, cube_cap=cube_cap)
    wrong = [(s0, s1) for s0 in range(bound + 1) for s1 in range(bound + 1)
             if decided(rules, (s0, s1)) != ((s0, s1) in ok)]
    assert wrong == []


@pytest.mark.parametrize("start", [(0, 1), (1, 0), (2, 2), (0, 4), (4, 0), (4, 3), (3, 4), (4, 4)])
@pytest.mark.parametrize("crawford", [True, False], ids=["crawford", "no-crawford"])
@pytest.mark.parametrize("length", [5, 6])
def test_penalty_points_start_the_walk_and_bound_the_loser(length, crawford, start):
    bound = 4 * length + 16
    ok = accepted(length, finals(length, crawford, start=start, bound=bound))
    rules = MatchRules(length, crawford=crawford)
    wrong = [(s0, s1) for s0 in range(bound + 1) for s1 in range(bound + 1)
             if decided(rules, (s0, s1), start) != ((s0, s1) in ok)]
    assert wrong == []


# --- the reasons ------------------------------------------------------------------------------


def test_eleven_nil_in_a_three_point_match_has_no_last_game():
    problem = final_score_problem(MatchRules(3), (11, 0))
    assert problem.code == "unreachable"
    assert problem.message.startswith("no last game can take a score below 3 to 11")
    assert final_score_problem(MatchRules(3), (1000, 0)).message.startswith(
        "no last game can take a score below 3 to 1000")
    assert final_score_problem(MatchRules(3), (0, 11)).code == "unreachable"


def test_four_nil_in_a_three_point_match_is_a_full_score_kept_and_capped():
    final = final_score(MatchRules(3), (4, 0))
    assert (final.score, final.full, final.winner, final.capped) == ((3, 0), (4, 0), 0, False)
    final = final_score(MatchRules(3), (2, 3))
    assert (final.score, final.full, final.winner, final.capped) == ((2, 3), None, 1, True)


def test_a_cube_only_the_crawford_game_could_have_needed_is_named():
    # 5-0 in a 2-point match: only from 1-0 (cube 4), and 1-0 is the Crawford game.
    problem = final_score_problem(MatchRules(2), (5, 0))
    assert problem.code == "crawford_game"
    assert "1-0" in problem.message and "Crawford game" in problem.message
    assert final_score_problem(MatchRules(2, crawford=False), (5, 0)) is None
    # Once the trailer won the Crawford game, the cube is back: 1-1 then cube 4.
    assert final_score_problem(MatchRules(2), (5, 1)) is None


@pytest.mark.parametrize("score, code", [
    ((2, 2), "no_winner"), ((3, 3), "two_winners"), ((99, 3), "two_winners"), ((3, -1), "bad_score"),
    ((3,), "bad_score"), ((3.0, 0), "bad_score"), ((True, 0), "bad_score"), ("3-0", "bad_score"),
])
def test_what_is_no_final_score_says_why(score, code):
    problem = final_score_problem(MatchRules(3), score)
    assert problem.code == code
    assert problem.message == REASONS[code] % problem.values


def test_the_loser_never_ends_below_his_penalty_points():
    problem = final_score_problem(MatchRules(5), (5, 1), start=(0, 2))
    assert (problem.code, problem.values["side"], problem.values["start"]) == ("below_start", 1, 2)
    assert final_score_problem(MatchRules(5), (5, 2), start=(0, 2)) is None


def test_a_winner_with_penalty_points_is_told_where_his_last_game_could_start():
    # From 3 or 4 (3 penalty points), 9 and 10 points short of 12: neither is a cube result.
    problem = final_score_problem(MatchRules(5), (13, 0), start=(3, 0))
    assert problem.code == "unreachable"
    assert "from 3 to 4" in problem.message
    assert final_score_problem(MatchRules(5), (13, 0)) is None  # 1 + 12 (cube 4, backgammon)


def test_a_capped_cube_is_named():
    problem = final_score_problem(MatchRules(5, cube_cap=2), (99, 0))
    assert problem.code == "unreachable" and "may not pass 2" in problem.message
    assert final_score_problem(MatchRules(5, cube_cap=2), (10, 1)) is None  # 4-1, post-Crawford, + 2 x 3
    assert final_score_problem(MatchRules(5, cube_cap=2), (11, 1)).code == "unreachable"


def test_a_bad_start_is_the_engines_bad_start():
    with pytest.raises(MatchError) as raised:
        final_score_problem(MatchRules(3), (3, 0), start=(3, 0))
    assert raised.value.code == "bad_start"


def test_final_score_raises_the_problem_on_the_score_field():
    with pytest.raises(MatchError) as raised:
        final_score(MatchRules(3), (11, 0))
    assert raised.value.code == "score_unreachable"
    assert raised.value.details == {"field": "score", "side": 0, "reason": "unreachable"}


def test_a_money_session_takes_any_totals_and_never_caps():
    rules = MatchRules(0)
    final = final_score(rules, (7, 3))
    assert (final.score, final.full, final.winner) == ((7, 3), None, None)
    assert final_score_problem(rules, (1000, 0)) is None
    assert final_score_problem(rules, (-1, 0)).code == "bad_score"
    assert capped_score(0, (7, 3)) == (7, 3)


# --- the capping rule -------------------------------------------------------------------------


def test_a_claim_agrees_with_a_full_score_as_it_is_or_capped():
    assert claim_agrees_with_full(3, (3, 0), (4, 0))
    assert claim_agrees_with_full(3, (4, 0), (4, 0))
    assert claim_agrees_with_full(3, [1, 3], (1, 6))
    assert not claim_agrees_with_full(3, (5, 0), (4, 0))
    assert not claim_agrees_with_full(3, (3, 1), (4, 0))
    assert claim_agrees_with_full(0, (7, 3), (7, 3)) and not claim_agrees_with_full(0, (5, 3), (7, 3))


@pytest.mark.parametrize("length", range(1, 26))
def test_every_reachable_full_score_caps_to_an_accepted_capped_score(length):
    found = finals(length, True, bound=4 * length + 16)
    for score in found:
        final = final_score(MatchRules(length), score)
        assert final.score == capped_score(length, score)
        assert final_score(MatchRules(length), final.score).score == final.score
        assert claim_agrees_with_full(length, final.score, score)


def test_cube_points_are_a_face_times_one_two_or_three():
    assert [p for p in range(1, 26) if cube_points(p)] == [1, 2, 3, 4, 6, 8, 12, 16, 24]
    assert [p for p in range(1, 26) if cube_points(p, 2)] == [1, 2, 3, 4, 6]
    assert not cube_points(0)

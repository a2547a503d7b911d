"""Penalty points (RULES.md §9; §5, the Crawford game): every ruling on a match
replays it with the penalty points given between its games, each kept between the same two games,
so the penalty stays in the score and the Crawford game follows from it."""

from __future__ import annotations

import pytest

from engine.errors import MatchError
from engine.match import MatchRules, Penalty, PenaltyAt, replay_match
from engine.rulings import crawford_double_voided, game_voided, penalties_placed, play_condoned, play_corrected, play_stood
from tests.engine.test_game import log
from tests.engine.test_match import resigned
from tests.engine.test_rulings import CRAWFORD_AS_PLAYED, ILLEGAL_OPENING, ILLEGAL_THEN_RELIED_ON

FIVE = MatchRules(5)
FIVE_RESPONSIBLE = MatchRules(5, responsible_moves=True)

# 2-0 after game 1; then side 1 is penalised 2 points (late after the break): 4-0, so game 2 is
# the Crawford game (RULES.md §9 + §5).
LATE_AT_2_0 = PenaltyAt((2, 0), 1, 2)


def games(*texts: str) -> list[list]:
    return [log(text) for text in texts]


CASES = [
    # label, the ruling, scores before each game, Crawford flags, final score, winner
    ("RULES 9: an illegal play corrected, the penalty kept",
     lambda p: play_corrected(FIVE, games(resigned(0, 2), ILLEGAL_OPENING), 2, 2, "8/5 6/5", penalties=p),
     [(0, 0), (4, 0)], [False, True], (4, 1), None),
    ("RULES 9: an illegal play condoned (responsible moves), the penalty kept",
     lambda p: play_condoned(FIVE_RESPONSIBLE, games(resigned(0, 2), ILLEGAL_THEN_RELIED_ON), 2, 2, penalties=p),
     [(0, 0), (4, 0)], [False, True], (5, 0), 0),
    ("RULES 9: an illegal play that stood (legal moves), the penalty kept",
     lambda p: play_stood(FIVE, games(resigned(0, 2), ILLEGAL_THEN_RELIED_ON), 2, 2, penalties=p),
     [(0, 0), (4, 0)], [False, True], (5, 0), 0),
    # 0-1, 2-1, penalty 2 against side 1 -> 4-1, Crawford game 4-2. Game 1 voided: 2-0, the
    # penalty still before the same game -> 4-0, which is the Crawford game.
    ("RULES 9: a game voided, the penalty kept before the game it came before",
     lambda p: game_voided(FIVE, games(resigned(1, 1), resigned(0, 2), resigned(1, 1)), 1,
                           penalties=[PenaltyAt((2, 1), 1, 2)] if p else ()),
     [(0, 0), (4, 0)], [False, True], (4, 1), None),
    ("RULES 9: the game after the penalty voided, the penalty kept after the game before it",
     lambda p: game_voided(FIVE, games(resigned(1, 1), resigned(0, 2), resigned(1, 1)), 3,
                           penalties=[PenaltyAt((2, 1), 1, 2)] if p else ()),
     [(0, 0), (0, 1)], [False, False], (4, 1), None),
    # RULES 5 + 9: the double of the Crawford game voided; without the penalty game 2 is no
    # Crawford game at all.
    ("RULES 5 and 9: a Crawford-game double voided where the penalty made the Crawford game",
     lambda p: crawford_double_voided(FIVE, games(resigned(0, 2)), 2, log(CRAWFORD_AS_PLAYED), penalties=p),
     [(0, 0), (4, 0)], [False, True], (4, 1), None),
]


@pytest.mark.parametrize(("label", "ruling", "scores", "crawford", "final", "winner"), CASES,
                         ids=[case[0] for case in CASES])
def test_rules_9_every_ruling_replays_the_match_with_its_mid_match_penalties(label, ruling, scores, crawford, final,
                                                                           winner):
    match = ruling([LATE_AT_2_0]).replay
    assert [g.score for g in match.games] == scores, label
    assert [g.crawford for g in match.games] == crawford, label
    assert (match.final_score, match.winner) == (final, winner), label
    assert len(match.penalties) == 1


@pytest.mark.parametrize("label", [case[0] for case in CASES[:3]] + [CASES[5][0]])
def test_rules_9_without_the_penalty_the_same_rulings_give_another_score(label):
    # The contrast: the penalty is what moves the score and the Crawford game above.
    ruling = dict((case[0], case[1]) for case in CASES)[label]
    try:
        match = ruling(()).replay
    except MatchError as error:
        assert error.code == "not_crawford_game"
        return
    assert match.games[1].score == (2, 0) and not match.games[1].crawford


def test_rules_9_a_penalty_recorded_at_a_score_is_placed_before_the_game_it_came_before():
    recorded = games(resigned(1, 1), resigned(0, 2), resigned(1, 1))
    placed = penalties_placed(FIVE, recorded, [PenaltyAt((2, 1), 1, 2)])
    assert placed == (Penalty(3, 1, 2, "late"),)
    # A fixed penalty is kept as it is; one at a score the replayable games do not reach stays
    # at its score (the illegal game 2 stops the placing).
    broken = games(resigned(0, 2), "0:31 8/7 | 1:64 13/7 13/9 | 0:resign=1 | 1:accept")
    kept = penalties_placed(FIVE, broken, [Penalty(1, 0, 1), PenaltyAt((2, 1), 1, 1), PenaltyAt((3, 2), 0, 1)])
    assert kept == (Penalty(1, 0, 1), Penalty(2, 1, 1), PenaltyAt((3, 2), 0, 1))


def test_a_partial_replay_leaves_out_the_penalties_of_later_games():
    replay = replay_match(FIVE, games(resigned(0, 2)), penalties=[PenaltyAt((3, 3), 0, 1), Penalty(4, 1, 1)],
                          partial=True)
    assert (replay.final_score, replay.penalties, replay.unplaced) == ((2, 0), (), (PenaltyAt((3, 3), 0, 1),))
    with pytest.raises(MatchError) as caught:
        replay_match(FIVE, games(resigned(0, 2)), penalties=[PenaltyAt((3, 3), 0, 1)])
    assert caught.value.code == "penalty_not_reached"

"""A director's rulings, the engine's part (RULES.md §9): penalty points, awards, the remedy for an
illegal play, and the game logs a ruling corrects, condones, voids or rescores.

Game logs use the compact form of ``tests/engine/test_game.py`` (:func:`log`) and the short games
of ``tests/engine/test_match.py``; the realistic ones come from the real match files in
shared/data/mat and from the engine's random match generator.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.actions import Double, Move, Roll, Take
from engine.errors import EngineError, GameLogError, MatchError
from engine.formats.mat import read_mat
from engine.formats.mat_check import check_mat
from engine.game import TO_ROLL, Game
from engine.match import MatchRules, replay_match
from engine.moves import legal_plays
from engine.randomgame import random_match_games
from engine.rulings import (
    CORRECT,
    STANDS,
    crawford_double_voided,
    game_voided,
    illegal_play_remedy,
    late_arrival_points,
    match_ended_by_award,
    penalty_loses_match,
    play_condoned,
    play_corrected,
)
from tests.engine.test_game import log
from tests.engine.test_match import dropped, resigned

MAT_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "mat"

FIVE = MatchRules(5)
FIVE_RESPONSIBLE = MatchRules(5, responsible_moves=True)

# Side 0 opens 3-1 with 8/7: one die left unplayed although both can be (dice_not_all_used).
# Action 2 is the illegal play; side 1 replies (hitting nothing), side 0 resigns a single game.
ILLEGAL_OPENING = "0:31 8/7 | 1:64 13/7 13/9 | 0:resign=1 | 1:accept"
# The same opening, but side 0's next play (action 6) uses the checker the illegal play put on 7.
ILLEGAL_THEN_RELIED_ON = "0:31 8/7 | 1:64 13/7 13/9 | 0:21 7/5 6/5 | 1:resign=1 | 0:accept"


def games(*texts: str) -> list[list]:
    return [log(text) for text in texts]


def refused(call, *args, error=GameLogError, **kwargs) -> EngineError:
    """The error ``call(*args, **kwargs)`` raises, checked to be an ``error``."""
    with pytest.raises(error) as caught:
        call(*args, **kwargs)
    return caught.value


def real_match(name: str) -> tuple[MatchRules, list[list]]:
    check = check_mat(read_mat((MAT_DIR / name).read_bytes()))
    return MatchRules(check.length), [list(game.replay.actions) for game in check.games]


# --- penalty points and awards ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "per_point", "points"),
    [(0, 5, 0), (4, 5, 0), (5, 5, 1), (9, 5, 1), (10, 5, 2), (14, 5, 2), (31, 5, 6), (10, 10, 1), (3, 1, 3)],
)
def test_late_arrival_costs_one_point_per_full_period(minutes, per_point, points):
    assert late_arrival_points(minutes, per_point) == points


def test_late_arrival_costs_one_point_per_five_minutes_by_default():
    assert [late_arrival_points(m) for m in (4, 5, 12, 15)] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("args", "field"),
    [((-1, 5), "minutes_late"), ((10, 0), "minutes_per_point"), ((10, -5), "minutes_per_point"),
     ((2.5, 5), "minutes_late"), ((True, 5), "minutes_late")],
)
def test_late_arrival_refuses_figures_that_make_no_sense(args, field):
    error = refused(late_arrival_points, *args, error=EngineError)
    assert (error.code, error.details["field"]) == ("bad_penalty", field)


@pytest.mark.parametrize(
    ("length", "penalty", "loses"),
    [(5, 2, False), (5, 3, True), (7, 3, False), (7, 4, True), (4, 2, False), (4, 3, True),
     (1, 0, False), (1, 1, True), (11, 5, False), (11, 6, True), (5, 0, False)],
)
def test_more_than_half_the_match_length_in_penalty_points_loses_the_match(length, penalty, loses):
    assert penalty_loses_match(length, penalty) is loses


@pytest.mark.parametrize(("length", "penalty", "field"), [(0, 1, "length"), (-3, 1, "length"), (5, -1, "penalty_points")])
def test_penalty_points_need_a_match_and_a_count(length, penalty, field):
    error = refused(penalty_loses_match, length, penalty, error=EngineError)
    assert (error.code, error.details["field"]) == ("bad_penalty", field)


def test_ten_minutes_late_starts_a_7_point_match_two_points_down_and_22_minutes_lose_it():
    points = late_arrival_points(10)
    assert not penalty_loses_match(7, points)
    match = replay_match(MatchRules(7), games(resigned(0, 1)), start=(0, points))
    assert (match.games[0].score, match.final_score) == ((0, 2), (1, 2))
    assert penalty_loses_match(7, late_arrival_points(22))


@pytest.mark.parametrize(
    ("length", "winner", "score", "final"),
    [(5, 0, None, (5, 0)), (5, 1, None, (0, 5)), (7, 1, (4, 2), (4, 7)), (7, 0, (4, 2), (7, 2)),
     (7, 0, (0, 6), (7, 6)), (3, 1, [2, 0], (2, 3))],
)
def test_an_awarded_match_gives_the_winner_the_length_and_the_loser_keeps_his_score(length, winner, score, final):
    assert match_ended_by_award(length, winner, score=score) == final


@pytest.mark.parametrize(
    ("length", "winner", "score", "field"),
    [(0, 0, None, "length"), (5, 2, None, "winner"), (5, True, None, "winner"), (5, 0, (1,), "score"),
     (5, 0, (1, -1), "score"), (5, 0, (0, 5), "score"), (5, 1, (6, 0), "score")],
)
def test_an_award_refuses_a_score_or_side_that_makes_no_sense(length, winner, score, field):
    error = refused(match_ended_by_award, length, winner, score=score, error=EngineError)
    assert (error.code, error.details["field"]) == ("bad_award", field)


# --- the starting score of a match (penalty points) ---------------------------------------------


def test_a_match_replays_from_its_starting_score():
    match = replay_match(FIVE, games(resigned(0, 1), resigned(1, 2)), start=(2, 0))
    assert [g.score for g in match.games] == [(2, 0), (3, 0)]
    assert match.final_score == (3, 2) and match.winner is None


def test_penalty_points_that_put_a_side_one_short_make_the_first_game_the_crawford_game():
    match = replay_match(FIVE, games(resigned(0, 1), dropped(0)), start=(0, 4))
    assert [g.crawford for g in match.games] == [True, False]
    error = refused(replay_match, FIVE, games(dropped(0)), start=(0, 4))
    assert (error.details["game"], error.details["rule"]) == (1, "crawford")


def test_a_match_from_0_0_replays_as_before_the_starting_score_existed():
    logs = random_match_games(random.Random(5), 5, double_chance=0.2)
    assert replay_match(FIVE, logs) == replay_match(FIVE, logs, start=(0, 0))


@pytest.mark.parametrize(
    ("rules", "start"),
    [(FIVE, (5, 0)), (FIVE, (0, 7)), (FIVE, (-1, 0)), (FIVE, (1, 2, 3)), (FIVE, (1.0, 0)),
     (MatchRules(0), (1, 0)), (MatchRules(1), (1, 0))],
)
def test_a_starting_score_at_or_beyond_the_length_or_in_a_money_session_is_refused(rules, start):
    error = refused(replay_match, rules, games(resigned(0, 1)), start=start, error=MatchError)
    assert error.code == "bad_start"


def test_a_money_session_starts_at_0_0():
    assert replay_match(MatchRules(0), games(resigned(0, 1)), start=(0, 0)).final_score == (1, 0)


# --- the remedy for an illegal play ------------------------------------------------------------


@pytest.mark.parametrize(
    ("responsible", "noticed_in_time", "demands", "remedy"),
    [
        # legal moves: corrected while the opponent has not rolled, whatever he wants; then it stands
        (False, True, True, CORRECT),
        (False, True, False, CORRECT),
        (False, False, True, STANDS),
        (False, False, False, STANDS),
        # responsible moves: the opponent chooses before he rolls; his roll condones it
        (True, True, True, CORRECT),
        (True, True, False, STANDS),
        (True, False, True, STANDS),
        (True, False, False, STANDS),
    ],
)
def test_the_remedy_for_an_illegal_play_follows_the_policy_and_the_moment(responsible, noticed_in_time, demands, remedy):
    assert illegal_play_remedy(responsible_moves=responsible, noticed_before_next_roll=noticed_in_time,
                               opponent_demands_replay=demands) == remedy


# --- a play corrected -------------------------------------------------------------------------


def test_a_corrected_play_replaces_the_illegal_one_and_the_match_replays():
    recorded = games(resigned(1, 2), ILLEGAL_OPENING)
    ruled, match = play_corrected(FIVE, recorded, 2, 2, "8/5 6/5")
    assert ruled[1][1] == Move(0, play="8/5 6/5")
    assert ruled[1][:1] == recorded[1][:1] and ruled[1][2:] == recorded[1][2:] and ruled[0] == recorded[0]
    assert match.games[1].replay.plays[1].notation == "8/5 6/5"
    assert (match.games[1].score, match.final_score) == ((0, 2), (0, 3))
    assert recorded[1][1] == Move(0, play="8/7")  # the caller's logs are left alone


def test_a_corrected_play_after_which_the_game_no_longer_replays_is_refused_at_the_first_failing_action():
    error = refused(play_corrected, FIVE, games(ILLEGAL_THEN_RELIED_ON), 1, 2, "8/5 6/5")
    details = error.details
    assert (details["game"], details["move"], details["side"], details["action_index"]) == (1, 2, 0, 6)
    assert details["rule"] == "no_checker"


@pytest.mark.parametrize(("play", "rule"), [("8/3", "wrong_steps"), ("8/5", "dice_not_all_used"), ("13/x", "bad_notation")])
def test_a_correction_that_is_itself_illegal_is_refused_at_the_play(play, rule):
    error = refused(play_corrected, FIVE, games(ILLEGAL_OPENING), 1, 2, play)
    assert error.code == "correction_illegal"
    assert {k: error.details[k] for k in ("game", "move", "side", "action_index", "rule")} == {
        "game": 1, "move": 1, "side": 0, "action_index": 2, "rule": rule,
    }
    assert error.message.startswith("game 1, move 1, side 0: play 8/7: the correction must be a legal play of the 31")


def test_a_legal_play_needs_no_correction():
    error = refused(play_corrected, FIVE, games(resigned(1, 1)), 1, 2, "24/23 24/21")
    assert (error.code, error.details["action_index"], error.details["game"]) == ("nothing_to_correct", 2, 1)


@pytest.mark.parametrize(
    ("game_number", "index", "error", "code"),
    [(0, 2, MatchError, "no_such_game"), (2, 2, MatchError, "no_such_game"), (1, 0, GameLogError, "no_such_action"),
     (1, 7, GameLogError, "no_such_action"), (1, 1, GameLogError, "not_a_move"), (1, 3, GameLogError, "not_a_move")],
)
def test_a_correction_must_name_a_move_action_of_a_recorded_game(game_number, index, error, code):
    refusal = refused(play_corrected, FIVE, games(ILLEGAL_OPENING), game_number, index, "8/5 6/5", error=error)
    assert (refusal.code, refusal.details["game"]) == (code, game_number)
    if error is GameLogError:
        assert refusal.details["action_index"] == index


def test_a_correction_of_a_move_out_of_turn_is_refused_with_the_engines_reason():
    # side 1 plays although nobody rolled: the move at action 3 is out of place
    error = refused(play_corrected, FIVE, games("0:31 8/5 6/5 | 1:move 24/18 | 0:resign=1 | 1:accept"), 1, 3, "24/18")
    assert (error.details["rule"], error.details["action_index"], error.details["move"]) == ("unexpected_action", 3, 1)


def test_a_correction_refuses_a_match_whose_earlier_games_do_not_replay():
    error = refused(play_corrected, FIVE, games("0:52 13/11 6/1", ILLEGAL_OPENING), 2, 2, "8/5 6/5")
    assert (error.details["game"], error.details["action_index"], error.details["rule"]) == (1, 2, "blocked")


def test_a_correction_refuses_an_earlier_action_of_the_same_game_that_does_not_replay():
    # side 1 keeps its 24-point, so side 0's 6/1 at action 6 is blocked before the play to correct
    text = "0:31 8/5 6/5 | 1:64 13/7 13/9 | 0:52 13/11 6/1 | 1:31 8/7 | 0:resign=1 | 1:accept"
    error = refused(play_corrected, FIVE, games(text), 1, 8, "8/5 6/5")
    assert (error.details["action_index"], error.details["rule"]) == (6, "blocked")


def test_a_correction_refuses_a_game_played_after_the_match_was_won():
    error = refused(play_corrected, MatchRules(3), games(resigned(0, 3), ILLEGAL_OPENING), 2, 2, "8/5 6/5",
                    error=MatchError)
    assert (error.code, error.details["game"]) == ("match_over", 2)


def test_a_correction_counts_the_penalty_points_of_the_start():
    # at 0-4 by penalty points the first game is the Crawford game: its later double is refused
    text = "0:31 8/7 | 1:64 24/18 13/9 | 0:double | 1:drop"
    match = play_corrected(FIVE, games(text), 1, 2, "8/5 6/5").replay
    assert match.final_score == (1, 0)
    error = refused(play_corrected, FIVE, games(text), 1, 2, "8/5 6/5", start=(0, 4))
    assert (error.details["rule"], error.details["action_index"]) == ("crawford", 5)


def _spoilt(match_games: list[list], rng: random.Random) -> tuple[int, int, str]:
    """Make one real play of a random match illegal (nothing played although the roll can be):
    returns (game number, action index, the play as it was)."""
    rules = FIVE
    candidates = []
    for number, actions in enumerate(match_games, start=1):
        state = replay_match(rules, match_games[: number - 1]).final
        game = Game(state.next_game_rules(), number=number)
        for index, action in enumerate(actions, start=1):
            if isinstance(action, Move) and legal_plays(game.position, game.dice):
                candidates.append((number, index, action.play))
            game.apply(action)
    number, index, play = rng.choice(candidates)
    match_games[number - 1][index - 1] = Move(match_games[number - 1][index - 1].side, play="")
    return number, index, play


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_random_match_with_one_spoilt_play_is_refused_there_and_corrected_back_to_the_same_match(seed):
    rng = random.Random(seed)
    original = random_match_games(rng, 5, double_chance=0.2)
    spoilt = [list(game) for game in original]
    number, index, play = _spoilt(spoilt, rng)
    error = refused(replay_match, FIVE, spoilt)
    assert (error.details["game"], error.details["rule"]) == (number, "dice_not_all_used")
    ruled, match = play_corrected(FIVE, spoilt, number, index, play)
    assert ruled == original
    assert match == replay_match(FIVE, original)


def test_a_refusal_on_a_log_read_from_a_match_file_names_the_files_line():
    rules, recorded = real_match("galaxy_5pt_match10827373.mat")
    move = recorded[2][1]
    assert isinstance(move, Move) and move.line is not None
    error = refused(play_corrected, rules, recorded, 3, 2, "24/1")
    assert (error.code, error.details["line"], error.details["game"]) == ("nothing_to_correct", move.line, 3)


# --- a play condoned ----------------------------------------------------------------------------


def test_a_condoned_play_stands_under_responsible_moves_and_the_match_replays():
    recorded = games(resigned(1, 1), ILLEGAL_THEN_RELIED_ON)
    ruled, match = play_condoned(FIVE_RESPONSIBLE, recorded, 2, 2)
    assert ruled[1][1] == Move(0, play="8/7", condoned=True)
    assert ruled[1][2:] == recorded[1][2:]
    condoned = match.games[1].replay.condoned
    assert [(c.action_index, c.move, c.side, c.rule) for c in condoned] == [(2, 1, 0, "dice_not_all_used")]
    assert match.final_score == (1, 1)
    assert recorded[1][1].condoned is False


def test_condoning_is_refused_under_the_legal_moves_policy():
    error = refused(play_condoned, FIVE, games(ILLEGAL_OPENING), 1, 2)
    assert error.code == "condoning_not_allowed"
    assert {k: error.details[k] for k in ("game", "move", "side", "action_index")} == {
        "game": 1, "move": 1, "side": 0, "action_index": 2,
    }


def test_a_legal_play_has_nothing_to_condone():
    error = refused(play_condoned, FIVE_RESPONSIBLE, games(resigned(1, 1)), 1, 2)
    assert (error.code, error.details["action_index"]) == ("nothing_to_condone", 2)


def test_a_play_already_condoned_is_not_condoned_twice():
    error = refused(play_condoned, FIVE_RESPONSIBLE, games("0:31 !8/7 | 1:64 13/7 13/9 | 0:resign=1 | 1:accept"), 1, 2)
    assert (error.code, error.details["action_index"]) == ("already_condoned", 2)


def test_a_play_to_a_board_that_cannot_exist_cannot_be_condoned():
    error = refused(play_condoned, FIVE_RESPONSIBLE, games("0:52 13/11 6/1 | 1:resign=1 | 0:accept"), 1, 2)
    assert error.code == "cannot_condone"
    assert (error.details["rule"], error.details["action_index"], error.details["move"]) == ("blocked", 2, 1)
    assert "cannot stand even condoned" in error.message


@pytest.mark.parametrize(
    ("game_number", "index", "code"), [(3, 2, "no_such_game"), (1, 9, "no_such_action"), (1, 3, "not_a_move")]
)
def test_condoning_must_name_a_move_action_of_a_recorded_game(game_number, index, code):
    error = refused(play_condoned, FIVE_RESPONSIBLE, games(ILLEGAL_OPENING), game_number, index, error=EngineError)
    assert (error.code, error.details["game"]) == (code, game_number)


def test_a_condoned_play_after_which_the_game_no_longer_replays_is_refused_at_the_first_failing_action():
    # condoned, 8/7 leaves the 8-point with two checkers: side 0's later 8/4(2)... needs three of them
    text = "0:31 8/7 | 1:64 13/7 13/9 | 0:44 8/4(3) 6/2 | 1:resign=1 | 0:accept"
    error = refused(play_condoned, FIVE_RESPONSIBLE, games(text), 1, 2)
    assert (error.details["action_index"], error.details["move"], error.details["rule"]) == (6, 2, "no_checker")


# --- a game voided ------------------------------------------------------------------------------


def test_voiding_a_game_recomputes_the_later_scores_and_crawford_flags():
    # 5 points: 2-0, 4-0, Crawford game 4-1, post-Crawford 4-2, 5-2
    recorded = games(resigned(0, 2), resigned(0, 2), resigned(1, 1), dropped(1), resigned(0, 1))
    ruled, match = game_voided(FIVE, recorded, 1)
    assert ruled == recorded[1:]
    assert [g.score for g in match.games] == [(0, 0), (2, 0), (2, 1), (2, 2)]
    assert [g.crawford for g in match.games] == [False, False, False, False]
    assert match.final_score == (3, 2) and match.winner is None
    assert len(recorded) == 5


def test_voiding_the_deciding_game_leaves_the_match_unfinished_before_its_crawford_game():
    match = game_voided(MatchRules(3), games(resigned(0, 2), resigned(0, 1)), 2).replay
    assert match.final_score == (2, 0)
    assert match.winner is None and match.final.next_is_crawford


def test_voiding_the_crawford_game_makes_the_next_game_the_crawford_game_and_its_double_is_refused():
    recorded = games(resigned(0, 1), resigned(0, 3), resigned(1, 1), dropped(1), resigned(0, 1))
    error = refused(game_voided, FIVE, recorded, 3)
    details = error.details
    assert (details["game"], details["recorded_game"], details["action_index"], details["rule"]) == (3, 4, 3, "crawford")
    assert error.message.startswith("after voiding game 3: game 3, move 1, side 1: double")
    assert error.message.endswith("(game 4 as recorded)")


def test_voiding_names_an_earlier_failing_game_by_its_own_number():
    error = refused(game_voided, FIVE, games("0:52 13/11 6/1", resigned(0, 1), resigned(0, 1)), 3)
    assert (error.details["game"], error.details["action_index"]) == (1, 2)
    assert "recorded_game" not in error.details


def test_voiding_refuses_an_empty_game_log_with_no_action_to_name():
    error = refused(game_voided, FIVE, [log(resigned(0, 1)), [], log(resigned(0, 1))], 1)
    assert (error.details["game"], error.details["recorded_game"], error.details["rule"]) == (1, 2, "unfinished")
    assert "action_index" not in error.details


@pytest.mark.parametrize("number", [0, 3, -1, True])
def test_voiding_a_game_that_is_not_there_is_refused(number):
    error = refused(game_voided, FIVE, games(resigned(0, 1), resigned(0, 1)), number, error=MatchError)
    assert error.code == "no_such_game"


def test_voiding_a_game_of_a_real_match_rescores_it():
    # 0-1, side 0's 4 points make 4-1, the Crawford game 4-2, side 1's 4 points: 4-6
    rules, recorded = real_match("galaxy_5pt_match10827373.mat")
    before = replay_match(rules, recorded)
    assert [g.score for g in before.games] == [(0, 0), (0, 1), (4, 1), (4, 2)]
    assert [g.crawford for g in before.games] == [False, False, True, False]
    ruled, match = game_voided(rules, recorded, 2)
    assert ruled == [recorded[0], recorded[2], recorded[3]]
    # without side 0's 4 points nobody stands at 4 before side 1 wins from 0-2
    assert [g.score for g in match.games] == [(0, 0), (0, 1), (0, 2)]
    assert [g.crawford for g in match.games] == [False, False, False]
    assert (match.final_score, match.winner) == ((0, 6), 1)


def test_voiding_counts_the_penalty_points_of_the_start():
    match = game_voided(FIVE, games(resigned(0, 1), resigned(1, 1)), 1, start=(3, 2)).replay
    assert (match.games[0].score, match.final_score) == ((3, 2), (3, 3))


# --- a double in the Crawford game voided ----------------------------------------------------------

# 5 points: 2-0, 4-0; then the Crawford game as played: side 1 doubles, side 0 takes and resigns a
# single game later (2 points with the cube on 2, 1 point voided).
TO_FOUR = (resigned(0, 2), resigned(0, 2))
CRAWFORD_OPENING = "1:31 8/5 6/5 | 0:64 24/18 13/9"
CRAWFORD_AS_PLAYED = f"{CRAWFORD_OPENING} | 1:double | 0:take | 1:52 13/11 13/8 | 0:resign=1 | 1:accept"
CRAWFORD_VOIDED = f"{CRAWFORD_OPENING} | 1:52 13/11 13/8 | 0:resign=1 | 1:accept"


def test_a_crawford_double_is_voided_and_the_game_is_scored_at_cube_1():
    recorded = games(*TO_FOUR)
    as_played = log(CRAWFORD_AS_PLAYED)
    assert replay_match(FIVE, [*recorded, log(CRAWFORD_VOIDED)]).games[2].crawford
    ruled, match = crawford_double_voided(FIVE, recorded, 3, as_played)
    assert ruled == [*recorded, log(CRAWFORD_VOIDED)]
    crawford = match.games[2]
    assert crawford.crawford and (crawford.result.points, crawford.result.cube) == (1, 1)
    assert match.final_score == (4, 1) and match.winner is None
    assert len(recorded) == 2 and len(as_played) == 10


def test_a_crawford_double_is_voided_in_place_and_the_later_games_are_rescored():
    # as recorded, 4-2 after the Crawford game; corrected, 4-1, then side 1's gammon makes 4-3
    recorded = games(*TO_FOUR, "1:31 8/5 6/5 | 0:resign=1 | 1:accept", resigned(1, 2))
    ruled, match = crawford_double_voided(FIVE, recorded, 3, log(CRAWFORD_AS_PLAYED))
    assert ruled[2] == log(CRAWFORD_VOIDED) and ruled[3] == recorded[3]
    assert [g.score for g in match.games] == [(0, 0), (2, 0), (4, 0), (4, 1)]
    assert [g.crawford for g in match.games] == [False, False, True, False]
    assert match.final_score == (4, 3)


@pytest.mark.parametrize(
    "cube",
    [
        "1:double | 0:take | 0:double | 1:take",  # a redouble, void as well
        "1:double | 0:beaver",  # beavers belong to money play; void with the double
        "1:double | 0:beaver | 1:raccoon",
    ],
)
def test_every_double_of_the_crawford_game_is_voided_with_its_answer(cube):
    as_played = log(f"{CRAWFORD_OPENING} | {cube} | 1:52 13/11 13/8 | 0:resign=1 | 1:accept")
    ruled, match = crawford_double_voided(FIVE, games(*TO_FOUR), 3, as_played)
    assert ruled[2] == log(CRAWFORD_VOIDED)
    assert match.final_score == (4, 1)


@pytest.mark.parametrize(
    ("cube", "what", "at"),
    [("1:double | 0:drop", "the double", 6), ("1:double | 0:beaver | 1:drop", "its beaver", 7),
     ("1:double | 0:beaver | 1:raccoon | 0:drop", "its raccoon", 8)],
)
def test_a_dropped_crawford_double_cannot_be_voided_into_a_finished_game(cube, what, at):
    as_played = log(f"{CRAWFORD_OPENING} | {cube}")
    error = refused(crawford_double_voided, FIVE, games(*TO_FOUR), 3, as_played)
    assert error.code == "crawford_double_dropped"
    assert (error.details["game"], error.details["action_index"], error.details["side"]) == (3, 5, 1)
    assert f"{what} was dropped (action {at})" in error.message
    assert "must be replayed" in error.message


def test_a_crawford_double_without_an_answer_is_refused():
    as_played = log(f"{CRAWFORD_OPENING} | 1:double | 1:52 13/11 13/8 | 0:resign=1 | 1:accept")
    error = refused(crawford_double_voided, FIVE, games(*TO_FOUR), 3, as_played)
    assert (error.code, error.details["action_index"]) == ("double_unanswered", 5)


def test_a_crawford_game_without_a_double_has_nothing_to_void():
    error = refused(crawford_double_voided, FIVE, games(*TO_FOUR), 3, log(CRAWFORD_VOIDED))
    assert (error.code, error.details["game"]) == ("no_double", 3)


@pytest.mark.parametrize(
    ("rules", "number"),
    [(FIVE, 2), (FIVE, 1), (MatchRules(5, crawford=False), 3)],
)
def test_a_double_outside_the_crawford_game_stands(rules, number):
    error = refused(crawford_double_voided, rules, games(*TO_FOUR), number, log(CRAWFORD_AS_PLAYED), error=MatchError)
    assert (error.code, error.details["game"]) == ("not_crawford_game", number)


@pytest.mark.parametrize(("number", "code"), [(4, "no_such_game"), (0, "no_such_game")])
def test_a_crawford_game_is_put_in_place_of_a_recorded_game_or_right_after_the_last(number, code):
    error = refused(crawford_double_voided, FIVE, games(*TO_FOUR), number, log(CRAWFORD_AS_PLAYED), error=MatchError)
    assert (error.code, error.details["game"]) == (code, number)


def test_a_crawford_game_after_the_match_was_won_is_refused():
    error = refused(crawford_double_voided, FIVE, games(resigned(0, 3), resigned(0, 3)), 3, log(CRAWFORD_AS_PLAYED),
                    error=MatchError)
    assert (error.code, error.details["game"]) == ("match_over", 3)


def test_a_crawford_game_that_does_not_replay_without_its_double_is_refused_where_it_fails():
    as_played = log(f"{CRAWFORD_OPENING} | 1:double | 0:take | 1:52 13/11 13/1 | 0:resign=1 | 1:accept")
    error = refused(crawford_double_voided, FIVE, games(*TO_FOUR), 3, as_played)
    # the index is the play's in the game without its double and take (action 8 as played)
    assert (error.details["game"], error.details["action_index"], error.details["rule"]) == (3, 6, "wrong_steps")


def test_a_crawford_game_whose_log_stops_before_the_end_is_refused_at_its_last_action():
    as_played = log(f"{CRAWFORD_OPENING} | 1:double | 0:take | 1:52 13/11 13/8")
    error = refused(crawford_double_voided, FIVE, games(*TO_FOUR), 3, as_played)
    assert (error.details["game"], error.details["action_index"], error.details["rule"]) == (3, 6, "unfinished")


def test_penalty_points_make_the_first_game_the_crawford_game_whose_double_is_voided():
    match = crawford_double_voided(FIVE, [], 1, log(CRAWFORD_AS_PLAYED), start=(4, 0)).replay
    assert match.games[0].crawford and match.final_score == (4, 1)
    error = refused(crawford_double_voided, FIVE, [], 1, log(CRAWFORD_AS_PLAYED), error=MatchError)
    assert error.code == "not_crawford_game"


def _with_trailers_double(actions: list, rules: MatchRules) -> list:
    """``actions`` of a Crawford game with a double and its take put before the first roll after
    the opening (a double no side may make in the Crawford game)."""
    game = Game(rules.game_rules(crawford_game=True))
    for index, action in enumerate(actions):
        if game.phase == TO_ROLL and isinstance(action, Roll):
            return [*actions[:index], Double(action.side, value=2), Take(1 - action.side), *actions[index:]]
        game.apply(action)
    raise AssertionError("the game has no roll after the opening")


# The real matches that reach a Crawford game, and its number.
REAL_CRAWFORD_GAMES = [
    ("galaxy_17pt_match8170603.mat", 17), ("galaxy_17pt_match9102134.mat", 12), ("galaxy_3pt_match1161689.mat", 3),
    ("galaxy_3pt_match2561306.mat", 2), ("galaxy_3pt_match3485516.mat", 3), ("galaxy_5pt_match10827373.mat", 3),
    ("galaxy_5pt_match1484923.mat", 4), ("galaxy_5pt_match9012369.mat", 3), ("galaxy_7pt_match11696104.mat", 5),
    ("galaxy_7pt_match11995639.mat", 5), ("galaxy_7pt_match12778454.mat", 3), ("gnubg_3pt_test_match01.mat", 2),
    ("gnubg_7pt_charlot1_charlot2.mat", 4), ("studio_11pt_llabba_petruhl.mat", 5), ("studio_13pt_heretik_llabba.mat", 7),
    ("studio_13pt_llabba_diablodeldados.mat", 10), ("studio_3pt_solnze_lasse.mat", 2), ("studio_5pt_magic_lasse.mat", 7),
    ("studio_7pt_llabba_gorkipelin.mat", 4), ("studio_7pt_maciel_llabba.mat", 6), ("studio_9pt_llabba_bigeagle32.mat", 3),
]


@pytest.mark.parametrize(("name", "number"), REAL_CRAWFORD_GAMES)
def test_a_double_put_into_the_crawford_game_of_a_real_match_is_voided_back_to_the_match_as_played(name, number):
    rules, recorded = real_match(name)
    before = replay_match(rules, recorded)
    assert [g.number for g in before.games if g.crawford] == [number]
    as_played = _with_trailers_double(recorded[number - 1], rules)
    with pytest.raises(GameLogError) as caught:
        replay_match(rules, [*recorded[: number - 1], as_played, *recorded[number:]])
    assert (caught.value.details["game"], caught.value.details["rule"]) == (number, "crawford")
    ruled, match = crawford_double_voided(rules, recorded, number, as_played)
    assert ruled == recorded
    assert match == before

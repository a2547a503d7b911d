"""Penalty points between games, an illegal play that stands, a game
from a wrong set-up, a match played to the wrong length. Table-driven; each test names the rule
of /work/shared/RULES.md it implements (§9 for all four; §5 for the Crawford game and the end of
a match). The wrong-length rule is in no section of RULES.md: see wrong_length_choices."""

from __future__ import annotations

import pytest

from engine.actions import Move, Roll, Setup, action_from_dict, action_to_dict
from engine.board import Position, side_board
from engine.errors import EngineError, GameLogError, MatchError
from engine.game import GameRules, replay_game
from engine.ids import position_id
from engine.match import MatchRules, Penalty, PenaltyAt, replay_match
from engine.rulings import CONTINUE_TO_LENGTH, RESULT_STANDS, WON_AT_LENGTH, wrong_length_choices
from tests.engine.test_game import REPLY, log
from tests.engine.test_match import dropped, resigned

FIVE = MatchRules(length=5)


def games(*winners: int) -> list:
    """One single game won by each side in ``winners`` (1 point each)."""
    return [log(resigned(side, 1)) for side in winners]


# --- RULES.md §9: penalty points between games ----------------------------------------------------


@pytest.mark.parametrize(
    ("label", "length", "winners", "penalties", "score", "next_crawford", "winner"),
    [
        # RULES.md §9 + §5: 3-3, side 1 penalised 1 -> 4-3: the next game is the Crawford game.
        ("penalty to match point makes the Crawford game", 5, (0, 1, 0, 1, 0, 1), [Penalty(7, 1, 1)], (4, 3), True,
         None),
        # a penalty that takes the opponent to the length wins him the match (§5: a score at the length ends it).
        ("penalty to the length ends the match", 5, (0, 0, 0, 0), [Penalty(5, 1, 1)], (5, 0), False, 0),
        # 4-4 by a penalty: double match point, no Crawford game.
        ("penalty to double match point: no Crawford", 5, (0, 0, 0, 0, 1, 1, 1), [Penalty(8, 0, 1)], (4, 4), False,
         None),
        # §9: more than half the length in penalties in total loses the match (3 of 5, given twice).
        ("penalties over half the length lose the match", 5, (0,), [Penalty(1, 0, 1), Penalty(2, 0, 2)], (1, 3),
         False, 1),
        # exactly half (2 of a 4-point match) does not.
        ("exactly half the length does not lose", 4, (), [Penalty(1, 1, 2)], (2, 0), False, None),
        # after the Crawford game was played, a penalty to 4-x gives no second Crawford game.
        ("no second Crawford game", 5, (0, 0, 0, 0, 1, 1), [Penalty(7, 0, 1)], (4, 3), False, None),
    ],
)
def test_rules_9_penalty_points_between_games_move_the_score_and_the_crawford_game(
    label, length, winners, penalties, score, next_crawford, winner,
):
    replay = replay_match(MatchRules(length=length), games(*winners), penalties=penalties)
    assert replay.final_score == score, label
    assert replay.final.next_is_crawford is next_crawford, label
    assert replay.winner == winner, label
    assert replay.penalties[-1].score_after == score


def test_rules_5_and_9_the_game_after_a_penalty_to_match_point_is_replayed_as_the_crawford_game():
    # 3-3, penalty -> 4-3; game 7 holds a double: refused, as in any Crawford game.
    played = [*games(0, 1, 0, 1, 0, 1), log(dropped(1))]
    with pytest.raises(GameLogError) as caught:
        replay_match(FIVE, played, penalties=[Penalty(7, 1, 1)])
    assert caught.value.details["rule"] == "crawford"
    replay = replay_match(FIVE, [*games(0, 1, 0, 1, 0, 1), log(resigned(1, 1))], penalties=[Penalty(7, 1, 1)])
    assert replay.games[-1].crawford and replay.games[-1].score == (4, 3)
    assert replay.final_score == (4, 4)


@pytest.mark.parametrize(
    ("label", "rules", "played", "penalties", "code"),
    [
        ("money session", MatchRules(length=0), 0, [Penalty(1, 0, 1)], "penalty_money"),
        ("after the match", FIVE, 5, [Penalty(6, 1, 1)], "penalty_after_match"),
        ("before a game not played", FIVE, 1, [Penalty(3, 1, 1)], "penalty_no_such_game"),
        ("no points", FIVE, 0, [Penalty(1, 1, 0)], "bad_penalty"),
        ("no side", FIVE, 0, [Penalty(1, 2, 1)], "bad_penalty"),
        ("unknown reason", FIVE, 0, [Penalty(1, 0, 1, "rude")], "bad_penalty"),
        ("game 0", FIVE, 0, [Penalty(0, 0, 1)], "bad_penalty"),
    ],
)
def test_rules_9_penalty_points_refused_with_stable_codes(label, rules, played, penalties, code):
    with pytest.raises(MatchError) as caught:
        replay_match(rules, games(*([0] * played)), penalties=penalties)
    assert caught.value.code == code, label


def test_rules_9_a_game_after_a_match_lost_on_penalties_is_refused():
    with pytest.raises(MatchError) as caught:
        replay_match(FIVE, games(0, 0), penalties=[Penalty(2, 1, 3)])
    assert caught.value.code == "match_over"


# --- RULES.md §9: an illegal play that stands (legal-moves policy) -------------------------------


@pytest.mark.parametrize(
    ("label", "play", "rule", "position_after"),
    [
        ("one die left unplayed", "8/5", "dice_not_all_used", {24: 2, 13: 5, 8: 2, 6: 5, 5: 1}),
        ("a step that is no die", "13/9 8/7", "wrong_steps", {24: 2, 13: 4, 9: 1, 8: 2, 7: 1, 6: 5}),
    ],
)
def test_rules_9_illegal_play_noticed_too_late_stands_under_legal_moves(label, play, rule, position_after):
    actions = [Roll(0, dice=(3, 1)), Move(0, play=play, stood=True), *log(REPLY)]
    game = replay_game(actions, GameRules(match_length=5), finished=False)
    assert game.condoned == (), label
    assert [(s.rule, s.side, s.action_index, s.play) for s in game.stood] == [(rule, 0, 2, play)]
    assert game.frames[2].position.boards[0] == side_board(position_after)


@pytest.mark.parametrize(
    ("label", "rules", "play", "code"),
    [
        ("stood is legal-moves only", GameRules(responsible_moves=True), "8/5", "stood_needs_legal_moves"),
        ("the board must still exist", GameRules(), "7/4 6/5", "no_checker"),
        ("a legal play marked stood", GameRules(), "13/10 24/23", None),
    ],
)
def test_rules_9_a_stood_play_is_refused_where_it_cannot_stand(label, rules, play, code):
    actions = [Roll(0, dice=(3, 1)), Move(0, play=play, stood=True)]
    if code is None:  # a legal play marked stood is simply a legal play
        assert replay_game(actions, rules, finished=False).stood == (), label
        return
    with pytest.raises(GameLogError) as caught:
        replay_game(actions, rules, finished=False)
    assert caught.value.details["rule"] == code, label


@pytest.mark.parametrize(
    ("data", "ok"),
    [
        ({"type": "move", "side": 0, "play": "8/5", "stood": True}, True),
        ({"type": "move", "side": 0, "play": "8/5", "stood": "yes"}, False),
        ({"type": "move", "side": 0, "play": "8/5", "stood": True, "condoned": True}, False),
        ({"type": "setup", "position": "4HPwATDgc/ABMA"}, True),
        ({"type": "setup", "position": 7}, False),
        ({"type": "setup", "side": 0, "position": "4HPwATDgc/ABMA"}, False),
    ],
)
def test_rules_9_stood_and_setup_in_the_json_log(data, ok):
    if ok:
        assert action_to_dict(action_from_dict(data)) == data
    else:
        with pytest.raises(GameLogError):
            action_from_dict(data)


# --- RULES.md §9: a game from a wrong set-up that stands ------------------------------------------

# Side 0 set up with 4 on the 13-point and 4 on the 8-point (one checker moved from 13 to 8).
WRONG = Position((side_board({24: 2, 13: 4, 8: 4, 6: 5}), side_board({24: 2, 13: 5, 8: 3, 6: 5})), 0)


@pytest.mark.parametrize(
    ("label", "position", "code"),
    [
        ("a wrong set-up", position_id(WRONG), None),
        ("the standard start", position_id(Position.start(0)), "setup_is_standard"),
        ("no Position ID", "nonsense", "bad_setup"),
    ],
)
def test_rules_9_a_game_from_a_wrong_setup_is_recorded_from_its_real_start(label, position, code):
    actions = [Setup(None, position=position), Roll(0, dice=(3, 1)), Move(0, play="8/5 6/5")]
    if code:
        with pytest.raises(GameLogError) as caught:
            replay_game(actions, finished=False)
        assert caught.value.details["rule"] == code, label
        return
    game = replay_game(actions, finished=False)
    assert game.setup == position
    assert game.frames[0].position.boards == game.frames[1].position.boards == WRONG.boards
    assert game.final.position.boards[0] == side_board({24: 2, 13: 4, 8: 3, 6: 4, 5: 2})


def test_rules_9_a_setup_is_only_the_first_action():
    actions = [Roll(0, dice=(3, 1)), Move(0, play="8/5 6/5"), Setup(None, position=position_id(WRONG))]
    with pytest.raises(GameLogError) as caught:
        replay_game(actions, finished=False)
    assert caught.value.details["rule"] == "setup_not_first"


# --- a match played to the wrong length (no RULES.md section: see the function) -------------------


@pytest.mark.parametrize(
    ("label", "played_length", "score", "finished", "choices", "winner", "crawford"),
    [
        ("found after the end: the result stands", 3, (3, 1), True, (RESULT_STANDS,), None, None),
        ("a longer match finished: stands or won at 5", 7, (7, 2), True, (RESULT_STANDS, WON_AT_LENGTH), 0, None),
        ("found during a short one: go on to 5", 3, (2, 1), False, (CONTINUE_TO_LENGTH,), None, False),
        ("go on to 5 from 4-1: the Crawford game next", 7, (4, 1), False, (CONTINUE_TO_LENGTH,), None, True),
        ("a side already has 5 in a longer match", 7, (1, 5), False, (WON_AT_LENGTH,), 1, None),
    ],
)
def test_wrong_length_the_directors_choices(label, played_length, score, finished, choices, winner, crawford):
    """Not in RULES.md: the federations' usual rule in our own words (see wrong_length_choices)."""
    answer = wrong_length_choices(FIVE, played_length, score, finished=finished)
    assert answer.choices == choices, label
    assert answer.winner == winner
    if crawford is not None:
        assert answer.state.next_is_crawford is crawford


@pytest.mark.parametrize(
    ("rules", "played_length", "score"),
    [(FIVE, 5, (0, 0)), (FIVE, 0, (0, 0)), (MatchRules(length=0), 3, (0, 0)), (FIVE, 7, (5, 6)), (FIVE, 7, (-1, 0))],
)
def test_wrong_length_refusals(rules, played_length, score):
    with pytest.raises(EngineError) as caught:
        wrong_length_choices(rules, played_length, score, finished=False)
    assert caught.value.code == "bad_wrong_length"


# --- RULES.md §9: a director lets an illegal play stand (legal moves) -----------------------------


@pytest.mark.parametrize(
    ("label", "rules", "play", "index", "code"),
    [
        ("an illegal play noticed too late stands", FIVE, "8/5", 2, None),
        ("responsible moves: condoned, not stood", MatchRules(length=5, responsible_moves=True), "8/5", 2,
         "stood_not_allowed"),
        ("a legal play needs nothing", FIVE, "8/5 6/5", 2, "nothing_to_stand"),
        ("not a move", FIVE, "8/5", 1, "not_a_move"),
        ("a board that cannot exist", FIVE, "7/4 6/5", 2, "cannot_stand"),
    ],
)
def test_rules_9_play_stood_ruling(label, rules, play, index, code):
    from engine.rulings import play_stood

    actions = [Roll(0, dice=(3, 1)), Move(0, play=play), *log(REPLY), *log("0:resign=1 | 1:accept")]
    if code is None:
        games_after, replay = play_stood(rules, [actions], 1, index)
        assert games_after[0][index - 1].stood and not games_after[0][index - 1].condoned, label
        assert [s.play for s in replay.games[0].replay.stood] == [play]
        assert replay.games[0].replay.condoned == ()
        return
    with pytest.raises((GameLogError, MatchError)) as caught:
        play_stood(rules, [actions], 1, index)
    assert caught.value.code == code, label


@pytest.mark.parametrize(
    ("label", "winners", "at", "score", "crawford_games"),
    [
        # RULES.md §9 + §5: recorded at 3-3 with no game number: placed before game 7, the Crawford game.
        ("a penalty recorded at 3-3 precedes game 7", (0, 1, 0, 1, 0, 1, 1), [PenaltyAt((3, 3), 1, 1)], (4, 4), [7]),
        ("two at one score apply in order", (0,), [PenaltyAt((0, 0), 0, 1), PenaltyAt((0, 1), 0, 1)], (1, 2), []),
        ("at the score after the last game", (0, 0), [PenaltyAt((2, 0), 0, 2)], (2, 2), []),
    ],
)
def test_rules_9_penalties_recorded_at_a_score_are_placed_between_the_games(label, winners, at, score,
                                                                           crawford_games):
    replay = replay_match(FIVE, games(*winners), penalties=at)
    assert replay.final_score == score, label
    assert [g.number for g in replay.games if g.crawford] == crawford_games


def test_rules_9_a_penalty_at_a_score_the_games_never_reach_is_refused():
    with pytest.raises(MatchError) as caught:
        replay_match(FIVE, games(0, 0), penalties=[PenaltyAt((1, 1), 0, 1)])
    assert caught.value.code == "penalty_not_reached"

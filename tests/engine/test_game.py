"""One game replayed action by action: the doubling cube, how a game ends, and game logs.

RULES.md §2 (opening roll, automatic doubles), §4 (ending a game), §5 (doubling cube, Crawford,
Jacoby, beavers and raccoons) and §9 (illegal moves under the legal-moves and responsible-moves
policies). Logs are written in a compact form (see :func:`log`) so that the tables stay readable.
"""

from __future__ import annotations

import random

import pytest

from engine.actions import (
    Accept,
    Action,
    Beaver,
    Decline,
    Double,
    Drop,
    Move,
    OpeningTie,
    Raccoon,
    Resign,
    Roll,
    Take,
    action_from_dict,
    action_to_dict,
    actions_from_json,
)
from engine.board import Position, side_board
from engine.errors import CubeError, EngineError, GameLogError
from engine.game import Game, GameReplay, GameResult, GameRules, check_double, game_level, replay_game
from engine.ids import position_id
from engine.moves import legal_plays

START_ID = "4HPwATDgc/ABMA"
AFTER_31_ID = "sGfwATDgc/ABMA"  # side 0 opened 3-1 with 8/5 6/5; side 1 on roll
OPENING = "0:31 8/5 6/5"  # side 0 wins the opening roll and makes its 5-point
REPLY = "1:64 24/18 13/9"  # a legal reply of side 1 to OPENING

MONEY = GameRules()
BEAVERS = GameRules(beavers=True)
RACCOONS = GameRules(beavers=True, raccoons=True)
JACOBY = GameRules(jacoby=True)
CRAWFORD = GameRules(match_length=5, crawford_game=True)
MATCH = GameRules(match_length=5)


# --- builders --------------------------------------------------------------------------------


def log(text: str) -> list[Action]:
    """Actions from a compact log: items separated by ``|``, each ``SIDE:WHAT``.

    ``0:31 8/5 6/5`` is a roll and its play (``0:31`` alone: the roll only; ``0:31 !8/5``: the
    play is marked condoned); ``1:move 24/18`` a play without a roll; ``tie=3`` an opening tie;
    ``1:double``, ``1:double=4``, ``0:take``, ``0:drop``, ``0:beaver``, ``0:beaver=4``,
    ``1:raccoon``, ``1:raccoon=8``, ``1:resign=2``, ``0:accept``, ``0:decline``.
    """
    actions: list[Action] = []
    for item in (part.strip() for part in text.split("|")):
        if item.startswith("tie="):
            actions.append(OpeningTie(None, die=int(item[4:])))
            continue
        who, _, what = item.partition(":")
        side = int(who)
        word, _, rest = what.partition(" ")
        name, _, value = word.partition("=")
        number = int(value) if value else None
        if name.isdigit():
            actions.append(Roll(side, dice=(int(name[0]), int(name[1]))))
            if rest:
                condoned = rest.startswith("!")
                actions.append(Move(side, play=rest.lstrip("!"), condoned=condoned))
        elif name == "move":
            actions.append(Move(side, play=rest))
        elif name == "resign":
            actions.append(Resign(side, level=number))
        elif name in ("double", "beaver", "raccoon"):
            cls = {"double": Double, "beaver": Beaver, "raccoon": Raccoon}[name]
            actions.append(cls(side, value=number))
        else:
            cls = {"take": Take, "drop": Drop, "accept": Accept, "decline": Decline}[name]
            actions.append(cls(side))
    return actions


def replay(text: str, rules: GameRules | None = None, *, finished: bool = False) -> GameReplay:
    """Replay a compact log from the starting position (unfinished logs allowed by default)."""
    return replay_game(log(text), rules, finished=finished)


def refusal(text: str, rules: GameRules | None = None, **kwargs) -> GameLogError:
    """The GameLogError that replaying ``text`` raises."""
    with pytest.raises(GameLogError) as caught:
        replay(text, rules, **kwargs)
    return caught.value


def replay_from(position: Position, text: str, rules: GameRules | None = None) -> GameReplay:
    """Replay ``text`` from a hand-built (near-end) position instead of the starting one.

    ``replay_game`` always starts from the starting position, so this builds a :class:`Game`
    and replaces its board before the first action. Everything else is a new game's: cube
    centred at 1, move 1, opening phase. The log therefore still begins with an opening roll,
    whose roller becomes the side on roll in ``position``.
    """
    game = Game(rules)
    game.position = position
    for action in log(text):
        game.apply(action)
    return game.replay()


def refusal_from(position: Position, text: str, rules: GameRules | None = None) -> GameLogError:
    with pytest.raises(GameLogError) as caught:
        replay_from(position, text, rules)
    return caught.value


def board(side0: dict[int, int], side1: dict[int, int], *, bar1: int = 0) -> Position:
    """A validated position from each side's ``{point: checkers}`` (own numbering); the rest is off."""
    return Position.from_sides(side_board(side0), side_board(side1, bar=bar1))


# Side 0 bears off its last checker (or two); side 1 stands where the ending level needs it.
# Side 1's point p is side 0's point 25 - p, so side 1's 19..24 are side 0's home board.
LAST_CHECKER = {1: 1}
LAST_TWO = {2: 1, 1: 1}
ONE_OFF = {6: 14}          # side 1 has borne off one checker: single
NONE_OFF = {6: 15}         # nothing off, all in its own home board: gammon
IN_WINNERS_HOME = {6: 14, 20: 1}  # a checker on side 0's 5-point: backgammon
# Side 0's home board closed and side 1 on the bar: side 1 cannot enter with any roll.
CLOSED = board({8: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {12: 14}, bar1=1)


# --- the doubling cube ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cube", "owner", "phase", "to_act"),
    [
        # centred cube: side 1 doubles at the start of its first turn
        (f"{OPENING} | 1:double", 1, None, "doubled", 0),
        # centred cube: side 0 doubles at the start of its second turn
        (f"{OPENING} | {REPLY} | 0:double", 1, None, "doubled", 1),
        # the right claimed value is accepted
        (f"{OPENING} | 1:double=2", 1, None, "doubled", 0),
        # a take doubles the value and gives the cube to the taker; the doubler rolls on
        (f"{OPENING} | 1:double | 0:take", 2, 0, "to_roll", 1),
        # the owner redoubles on his own turn
        (f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double=4", 2, 0, "doubled", 1),
        (f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double=4 | 1:take", 4, 1, "to_roll", 0),
    ],
)
def test_it_lets_the_side_on_roll_double_a_centred_or_own_cube_before_rolling(text, cube, owner, phase, to_act):
    final = replay(text).final
    assert (final.cube, final.owner, final.phase, final.to_act) == (cube, owner, phase, to_act)


@pytest.mark.parametrize(
    ("text", "rules", "rule"),
    [
        # after rolling, the dice must be played
        (f"{OPENING} | 1:64 | 1:double", MONEY, "after_roll"),
        # on the opponent's turn, before he rolled
        (f"{OPENING} | 0:double", MONEY, "not_your_turn"),
        # only the owner may redouble
        (f"{OPENING} | 1:double | 0:take | 1:double", MONEY, "not_owner"),
        # a double before the opening roll
        ("0:double", MONEY, "unexpected_action"),
        # a double on top of a double
        (f"{OPENING} | 1:double | 0:double", MONEY, "unexpected_action"),
        # the cube cap
        (f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double", GameRules(cube_cap=2), "cube_cap"),
        (f"{OPENING} | 1:double", GameRules(cube_cap=1), "cube_cap"),
        # a wrong claimed value
        (f"{OPENING} | 1:double=4", MONEY, "wrong_cube_value"),
        (f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double=2", MONEY, "wrong_cube_value"),
        # no double at all in the Crawford game, centred cube or not, whoever doubles
        (f"{OPENING} | 1:double", CRAWFORD, "crawford"),
        (f"{OPENING} | {REPLY} | 0:double", CRAWFORD, "crawford"),
        # a take or a drop with no double offered
        (f"{OPENING} | 1:take", MONEY, "unexpected_action"),
        (f"{OPENING} | 1:drop", MONEY, "unexpected_action"),
        # only the doubled side answers
        (f"{OPENING} | 1:double | 1:take", MONEY, "out_of_turn"),
    ],
)
def test_it_refuses_a_cube_action_that_is_not_allowed_now(text, rules, rule):
    error = refusal(text, rules)
    assert error.details["rule"] == rule
    assert error.details["action"] == log(text)[-1].describe()


def test_it_says_crawford_when_it_refuses_a_double_in_the_crawford_game():
    error = refusal(f"{OPENING} | 1:double", CRAWFORD)
    assert error.details["rule"] == "crawford"
    assert "crawford" in error.message.lower()


def test_it_ends_a_dropped_double_at_the_value_before_the_double():
    result = replay(f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double=4 | 1:drop").result
    assert result == GameResult(winner=0, points=2, cube=2, ending="drop", level=1)
    assert replay(f"{OPENING} | 1:double | 0:drop").result == GameResult(1, 1, 1, "drop", 1)


@pytest.mark.parametrize(
    ("rules", "cube", "owner", "value"),
    [
        (GameRules(), 1, None, 2),  # centred
        (GameRules(), 2, 0, 4),  # own cube
        (GameRules(cube_cap=8), 4, 0, 8),  # up to the cap
        (GameRules(match_length=5), 1, None, 2),  # an ordinary match game
    ],
)
def test_it_gives_the_new_face_when_check_double_allows_the_double(rules, cube, owner, value):
    assert check_double(rules, cube, owner, 0, on_roll=0) == value


@pytest.mark.parametrize(
    ("rules", "cube", "owner", "side", "on_roll", "rolled", "code"),
    [
        (CRAWFORD, 1, None, 0, 0, False, "crawford"),
        (GameRules(), 1, None, 1, 0, False, "not_your_turn"),
        (GameRules(), 1, None, 0, None, False, "not_your_turn"),
        (GameRules(), 1, None, 0, 0, True, "after_roll"),
        (GameRules(), 2, 1, 0, 0, False, "not_owner"),
        (GameRules(cube_cap=4), 4, 0, 0, 0, False, "cube_cap"),
    ],
)
def test_it_names_the_rule_when_check_double_refuses(rules, cube, owner, side, on_roll, rolled, code):
    with pytest.raises(CubeError) as caught:
        check_double(rules, cube, owner, side, on_roll=on_roll, rolled=rolled)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("text", "rules", "cube", "owner", "phase", "to_act"),
    [
        # beaver: the taker redoubles at once and keeps the cube (x4)
        (f"{OPENING} | 1:double | 0:beaver", BEAVERS, 4, 0, "beavered", 1),
        (f"{OPENING} | 1:double | 0:beaver=4", BEAVERS, 4, 0, "beavered", 1),
        # the doubler plays on after a beaver
        (f"{OPENING} | 1:double | 0:beaver | {REPLY}", BEAVERS, 4, 0, "to_roll", 0),
        # raccoon: the doubler redoubles again (x2), the cube stays with the beaverer
        (f"{OPENING} | 1:double | 0:beaver | 1:raccoon", RACCOONS, 8, 0, "raccooned", 0),
        (f"{OPENING} | 1:double | 0:beaver | 1:raccoon=8 | {REPLY}", RACCOONS, 8, 0, "to_roll", 0),
        # a beaver on a redouble
        (f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double | 1:beaver=8", BEAVERS, 8, 1, "beavered", 0),
    ],
)
def test_it_plays_beavers_and_raccoons_in_money_play(text, rules, cube, owner, phase, to_act):
    final = replay(text, rules).final
    assert (final.cube, final.owner, final.phase, final.to_act) == (cube, owner, phase, to_act)


@pytest.mark.parametrize(
    ("text", "rules", "result"),
    [
        # the doubler drops the beaver: he loses the value before it (the taken double)
        (f"{OPENING} | 1:double | 0:beaver | 1:drop", BEAVERS, GameResult(0, 2, 2, "drop", 1)),
        # the beaverer drops the raccoon: he loses the beaver's value
        (f"{OPENING} | 1:double | 0:beaver | 1:raccoon | 0:drop", RACCOONS, GameResult(1, 4, 4, "drop", 1)),
        # a resignation after a beaver is worth the beavered cube
        (f"{OPENING} | 1:double | 0:beaver | 1:resign=1 | 0:accept", BEAVERS, GameResult(0, 4, 4, "resign", 1)),
    ],
)
def test_it_settles_a_dropped_beaver_or_raccoon_at_the_value_before_it(text, rules, result):
    assert replay(text, rules).result == result


@pytest.mark.parametrize(
    ("text", "rules", "rule"),
    [
        (f"{OPENING} | 1:double | 0:beaver", MONEY, "no_beavers"),
        (f"{OPENING} | 1:double | 0:beaver", MATCH, "no_beavers"),
        (f"{OPENING} | 1:double | 0:beaver | 1:raccoon", BEAVERS, "no_raccoons"),
        (f"{OPENING} | 1:double | 0:beaver=2", BEAVERS, "wrong_cube_value"),
        (f"{OPENING} | 1:double | 0:beaver | 1:raccoon=4", RACCOONS, "wrong_cube_value"),
        (f"{OPENING} | 1:double | 0:beaver", GameRules(beavers=True, cube_cap=2), "cube_cap"),
        # only the doubler may raccoon, only a beaver may be raccooned
        (f"{OPENING} | 1:double | 0:beaver | 0:raccoon", RACCOONS, "out_of_turn"),
        (f"{OPENING} | 1:double | 0:take | 1:raccoon", RACCOONS, "unexpected_action"),
        # the beaverer owns the cube: the doubler may not redouble after the beaver
        (f"{OPENING} | 1:double | 0:beaver | 1:double", BEAVERS, "not_owner"),
    ],
)
def test_it_refuses_a_beaver_or_raccoon_the_rules_do_not_allow(text, rules, rule):
    assert refusal(text, rules).details["rule"] == rule


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"match_length": 5, "beavers": True}, "money_only"),
        ({"match_length": 5, "beavers": True, "raccoons": True}, "money_only"),
        ({"match_length": 5, "jacoby": True}, "money_only"),
        ({"match_length": 5, "automatic_doubles": 1}, "money_only"),
        ({"raccoons": True}, "bad_rules"),  # raccoons only where beavers are
        ({"crawford_game": True}, "bad_rules"),  # no Crawford game in money play
        ({"match_length": 1, "crawford_game": True}, "bad_rules"),
        ({"cube_cap": 3}, "bad_rules"),
        ({"match_length": -1}, "bad_rules"),
        ({"automatic_doubles": -1}, "bad_rules"),
    ],
)
def test_it_refuses_game_rules_that_cannot_go_together(options, code):
    with pytest.raises(EngineError) as caught:
        GameRules(**options)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("ties", "rules", "cube"),
    [
        ("tie=3", GameRules(automatic_doubles=1), 2),
        ("tie=3 | tie=5", GameRules(automatic_doubles=2), 4),
        # the limit reached, further ties leave the cube alone
        ("tie=3 | tie=5 | tie=1", GameRules(automatic_doubles=2), 4),
        ("tie=3 | tie=5 | tie=1 | tie=6", GameRules(automatic_doubles=1), 2),
        # the cube cap stops them too
        ("tie=3 | tie=5 | tie=1", GameRules(automatic_doubles=3, cube_cap=2), 2),
        # without automatic doubles, or in a match, a tie is only rolled again
        ("tie=3 | tie=5", GameRules(), 1),
        ("tie=3 | tie=5", MATCH, 1),
    ],
)
def test_it_turns_the_centred_cube_on_opening_ties_up_to_the_limit(ties, rules, cube):
    final = replay(f"{ties} | {OPENING}", rules).final
    assert (final.cube, final.owner) == (cube, None)


def test_it_lets_either_side_double_an_automatically_doubled_cube():
    final = replay(f"tie=2 | tie=4 | {OPENING} | 1:double=8 | 0:take", GameRules(automatic_doubles=2)).final
    assert (final.cube, final.owner) == (8, 0)


def test_it_refuses_an_opening_tie_after_the_opening_roll():
    assert refusal(f"{OPENING} | tie=3", GameRules(automatic_doubles=2)).details["rule"] == "not_opening"


# --- how a game ends -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "bar", "level"),
    [
        (ONE_OFF, 0, 1),
        ({1: 1}, 0, 1),  # fourteen off, one left: still a single
        (NONE_OFF, 0, 2),
        ({7: 15}, 0, 2),
        ({19: 15}, 0, 3),  # the loser's 19..24 are the winner's home board: its 19 is the winner's 6
        (IN_WINNERS_HOME, 0, 3),
        ({6: 14, 24: 1}, 0, 3),
        ({6: 14}, 1, 3),  # on the bar
        ({6: 15}, 0, 2),
    ],
)
def test_it_scores_single_gammon_or_backgammon_from_the_final_position(loser, bar, level):
    position = Position.from_sides(side_board({}), side_board(loser, bar=bar))
    assert game_level(position, 0) == level
    assert game_level(position.swapped(), 1) == level


@pytest.mark.parametrize(
    ("loser", "bar", "rules", "result"),
    [
        (ONE_OFF, 0, MONEY, GameResult(0, 1, 1, "single", 1)),
        (NONE_OFF, 0, MONEY, GameResult(0, 2, 1, "gammon", 2)),
        (IN_WINNERS_HOME, 0, MONEY, GameResult(0, 3, 1, "backgammon", 3)),
        ({6: 14}, 1, MONEY, GameResult(0, 3, 1, "backgammon", 3)),
        # Jacoby, cube never turned: gammons and backgammons count as a single game
        (NONE_OFF, 0, JACOBY, GameResult(0, 1, 1, "gammon", 2)),
        (IN_WINNERS_HOME, 0, JACOBY, GameResult(0, 1, 1, "backgammon", 3)),
        # Jacoby does not touch match play (it cannot even be set there)
        (NONE_OFF, 0, MATCH, GameResult(0, 2, 1, "gammon", 2)),
    ],
)
def test_it_ends_the_game_when_the_last_checker_is_borne_off(loser, bar, rules, result):
    position = Position.from_sides(side_board(LAST_CHECKER), side_board(loser, bar=bar))
    game = replay_from(position, "0:21 1/off", rules)
    assert game.result == result
    assert game.final.phase == "over" and game.final.to_act is None


@pytest.mark.parametrize(
    ("loser", "cube_actions", "rules", "result"),
    [
        (ONE_OFF, "0:double | 1:take", MONEY, GameResult(0, 2, 2, "single", 1)),
        (NONE_OFF, "0:double | 1:take", MONEY, GameResult(0, 4, 2, "gammon", 2)),
        (IN_WINNERS_HOME, "0:double | 1:take", MONEY, GameResult(0, 6, 2, "backgammon", 3)),
        # Jacoby: once the cube was turned, a gammon counts double again
        (NONE_OFF, "0:double | 1:take", JACOBY, GameResult(0, 4, 2, "gammon", 2)),
        (IN_WINNERS_HOME, "0:double | 1:take", JACOBY, GameResult(0, 6, 2, "backgammon", 3)),
        # a beaver turns the cube as well
        (NONE_OFF, "0:double | 1:beaver", GameRules(jacoby=True, beavers=True), GameResult(0, 8, 4, "gammon", 2)),
        # a double offered and dropped ends the game at once, Jacoby or not
        (NONE_OFF, "0:double | 1:drop", JACOBY, GameResult(0, 1, 1, "drop", 1)),
    ],
)
def test_it_values_a_finished_game_at_cube_times_its_multiplier(loser, cube_actions, rules, result):
    # Side 1 opens with 2-1 inside its home board, side 0 doubles, then bears off both checkers.
    position = Position.from_sides(side_board(LAST_TWO), side_board(loser))
    text = f"1:21 6/4 6/5 | {cube_actions}"
    if result.ending != "drop":
        text += " | 0:21 2/off 1/off"
    assert replay_from(position, text, rules).result == result


@pytest.mark.parametrize(
    ("text", "rules", "result"),
    [
        (f"{OPENING} | 1:resign=1 | 0:accept", MONEY, GameResult(0, 1, 1, "resign", 1)),
        (f"{OPENING} | 1:resign=2 | 0:accept", MONEY, GameResult(0, 2, 1, "resign", 2)),
        (f"{OPENING} | 1:resign=3 | 0:accept", MONEY, GameResult(0, 3, 1, "resign", 3)),
        (f"{OPENING} | 1:double | 0:take | 1:resign=1 | 0:accept", MONEY, GameResult(0, 2, 2, "resign", 1)),
        (f"{OPENING} | 1:double | 0:take | 1:resign=2 | 0:accept", MONEY, GameResult(0, 4, 2, "resign", 2)),
        (f"{OPENING} | 1:double | 0:take | 1:resign=3 | 0:accept", MONEY, GameResult(0, 6, 2, "resign", 3)),
        # a resignation after rolling, before playing
        (f"{OPENING} | 1:64 | 1:resign=2 | 0:accept", MATCH, GameResult(0, 2, 1, "resign", 2)),
        # the winner of the opening roll resigns before playing it
        ("0:31 | 0:resign=1 | 1:accept", MATCH, GameResult(1, 1, 1, "resign", 1)),
        # Jacoby with the cube never turned: a resigned gammon is worth a single game
        (f"{OPENING} | 1:resign=2 | 0:accept", JACOBY, GameResult(0, 1, 1, "resign", 2)),
        (f"{OPENING} | 1:double | 0:take | 1:resign=2 | 0:accept", JACOBY, GameResult(0, 4, 2, "resign", 2)),
        # RULES.md §2: an automatic double turns the cube, so under Jacoby the gammon counts
        (f"tie=3 | {OPENING} | 1:resign=2 | 0:accept", GameRules(jacoby=True, automatic_doubles=1),
         GameResult(0, 4, 2, "resign", 2)),
    ],
)
def test_it_ends_the_game_when_a_resignation_is_accepted(text, rules, result):
    game = replay(text, rules, finished=True)
    assert game.result == result


@pytest.mark.parametrize(
    ("text", "phase", "to_act", "dice"),
    [
        (f"{OPENING} | 1:resign=1 | 0:decline", "to_roll", 1, None),
        (f"{OPENING} | 1:resign=3 | 0:decline | {REPLY}", "to_roll", 0, None),
        (f"{OPENING} | 1:64 | 1:resign=2 | 0:decline", "to_play", 1, (6, 4)),
        (f"{OPENING} | 1:64 | 1:resign=2 | 0:decline | 1:move 24/18 13/9", "to_roll", 0, None),
    ],
)
def test_it_plays_on_when_a_resignation_is_declined(text, phase, to_act, dice):
    game = replay(text)
    assert game.result is None
    assert (game.final.phase, game.final.to_act, game.final.dice) == (phase, to_act, dice)
    assert game.final.offered_level == 0


def test_it_shows_the_offered_level_while_a_resignation_waits_for_an_answer():
    frame = replay(f"{OPENING} | 1:resign=2").final
    assert (frame.phase, frame.to_act, frame.offered_level) == ("resigned", 0, 2)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (f"{OPENING} | 1:resign=1 | 1:accept", "out_of_turn"),
        (f"{OPENING} | 0:accept", "unexpected_action"),
        (f"{OPENING} | 1:decline", "unexpected_action"),
        (f"{OPENING} | 1:double | 1:resign=1", "unexpected_action"),
    ],
)
def test_it_refuses_a_resignation_answer_out_of_place(text, rule):
    assert refusal(text).details["rule"] == rule


# --- game logs ------------------------------------------------------------------------------


def test_it_replays_a_log_into_winner_points_cube_ending_and_frames():
    text = f"{OPENING} | 1:double | 0:take | {REPLY} | 0:double=4 | 1:drop"
    game = replay(text, finished=True)
    assert (game.result.winner, game.result.points, game.result.cube, game.result.ending) == (0, 2, 2, "drop")
    assert len(game.frames) == len(game.actions) + 1 == len(log(text)) + 1
    assert len(game.plays) == len(game.actions)
    assert [p is not None for p in game.plays] == [False, True, False, False, False, True, False, False]
    assert game.final.phase == "over"
    assert [f.cube for f in game.frames] == [1, 1, 1, 1, 2, 2, 2, 2, 2]


def test_it_keeps_the_position_before_every_action_as_a_frame():
    game = replay(f"{OPENING} | {REPLY}")
    ids = [position_id(frame.position) for frame in game.frames]
    assert ids[0] == ids[1] == START_ID
    assert ids[2] == AFTER_31_ID  # before side 1's roll
    assert game.frames[2].position.turn == 1
    assert game.frames[1].dice == (3, 1) and game.frames[1].to_act == 0
    assert game.final.position == game.plays[-1].position
    assert game.plays[1].notation == "8/5 6/5"


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        # side 0 opens: a turn line holds side 0 then side 1
        (f"{OPENING} | {REPLY} | 0:62 24/18 13/11", [1, 1, 1, 1, 2, 2, 2]),
        # side 1 opens: its play is on line 1 (empty left column), side 0 starts line 2
        ("1:31 8/5 6/5 | 0:64 24/18 13/9 | 1:62 24/18 13/11", [1, 1, 2, 2, 2, 2, 2]),
        # a double by side 0 and the take by side 1 share a line; side 0's roll starts the next
        (f"{OPENING} | {REPLY} | 0:double | 1:take | 0:62 24/18 13/11", [1, 1, 1, 1, 2, 2, 3, 3, 3]),
        # a double by side 1: the take by side 0 opens a new line
        (f"{OPENING} | 1:double | 0:take | {REPLY}", [1, 1, 1, 2, 2, 2, 2]),
    ],
)
def test_it_numbers_moves_like_a_mat_file(text, moves):
    assert [frame.move for frame in replay(text).frames] == moves


@pytest.mark.parametrize(
    ("text", "number", "move", "side", "action", "rule"),
    [
        # an illegal play: the rule is the IllegalPlay code
        ("0:52 13/11 6/1", 1, 1, 0, "play 13/11 6/1", "blocked"),
        (f"{OPENING} | 1:64 24/20 24/18", 2, 1, 1, "play 24/20 24/18", "blocked"),  # side 0's new 5-point
        (f"{OPENING} | {REPLY} | 0:31 8/5", 1, 2, 0, "play 8/5", "dice_not_all_used"),
        (f"{OPENING} | {REPLY} | 0:31 24/21 24/23 6/5", 1, 2, 0, "play 24/21 24/23 6/5", "wrong_steps"),
        ("0:31 24/2x", 1, 1, 0, "play 24/2x", "bad_notation"),
        # an action out of turn
        (f"{OPENING} | 0:64", 1, 1, 0, "roll 64", "out_of_turn"),
        (f"{OPENING} | 1:64 | 0:move 24/18 13/9", 7, 2, 0, "play 24/18 13/9", "out_of_turn"),
        # the opening roll is never a double
        ("1:33 8/5(2) 6/3(2)", 4, 1, 1, "roll 33", "opening_double"),
        # a roll that was not played while a play existed: the roller is blamed
        (f"{OPENING} | 1:64 | 0:31", 1, 1, 1, "roll 64", "dice_not_all_used"),
        # a play with no roll
        (f"{OPENING} | 1:move 24/18 13/9", 1, 1, 1, "play 24/18 13/9", "unexpected_action"),
        # an action after the game is over
        (f"{OPENING} | 1:double | 0:drop | 1:64", 1, 2, 1, "roll 64", "game_over"),
        (f"{OPENING} | 1:resign=1 | 0:accept | 0:accept", 1, 2, 0, "accept", "game_over"),
    ],
)
def test_it_rejects_an_invalid_log_naming_game_move_side_action_and_rule(text, number, move, side, action, rule):
    with pytest.raises(GameLogError) as caught:
        replay_game(log(text), number=number)
    error = caught.value
    assert error.code == "invalid_game_log"
    assert {key: error.details[key] for key in ("game", "move", "side", "action", "rule")} == {
        "game": number, "move": move, "side": side, "action": action, "rule": rule,
    }
    assert f"game {number}" in error.message
    assert f"move {move}" in error.message
    assert f"side {side}" in error.message
    assert action in error.message
    assert error.as_dict()["rule"] == rule


@pytest.mark.parametrize("text", [OPENING, f"{OPENING} | 1:double", f"{OPENING} | 1:resign=2", "tie=3"])
def test_it_rejects_an_unfinished_log_when_the_game_must_be_over(text):
    error = refusal(text, GameRules(automatic_doubles=1), finished=True)
    assert error.details["rule"] == "unfinished"


def test_it_rejects_an_empty_log_when_the_game_must_be_over():
    with pytest.raises(GameLogError) as caught:
        replay_game([])
    assert caught.value.details["rule"] == "unfinished"


def test_it_records_the_line_an_action_was_read_from():
    actions = [Roll(0, dice=(3, 1), line=7), Move(0, play="8/5 6/4", line=7)]
    with pytest.raises(GameLogError) as caught:
        replay_game(actions)
    assert caught.value.details["line"] == 7


@pytest.mark.parametrize(
    ("text", "phase", "to_act", "turn", "moves"),
    [
        # side 1 rolls 6-5 from the bar against a closed board: no move; side 0 rolls next
        ("0:21 8/5 | 1:65 | 0:11", "to_play", 0, 0, [1, 1, 1, 2, 2]),
        # the next action may be a double by the side whose turn it now is
        ("0:21 8/5 | 1:65 | 0:double", "doubled", 1, 0, [1, 1, 1, 2, 2]),
        ("0:21 8/5 | 1:65 | 0:double | 1:take | 0:11", "to_play", 0, 0, [1, 1, 1, 2, 2, 3, 3]),
    ],
)
def test_it_passes_the_turn_after_a_roll_with_no_legal_play(text, phase, to_act, turn, moves):
    game = replay_from(CLOSED, text)
    assert (game.final.phase, game.final.to_act, game.final.position.turn) == (phase, to_act, turn)
    assert game.final.position.boards == game.frames[3].position.boards
    assert [frame.move for frame in game.frames] == moves


def test_it_accepts_an_empty_play_for_a_roll_with_no_legal_play():
    # A .mat file writes such a roll as "65:" with nothing after it (RULES.md §6).
    game = replay_from(CLOSED, "0:21 8/5 | 1:65 | 1:move | 0:11")
    assert (game.final.phase, game.final.to_act, game.final.dice) == ("to_play", 0, (1, 1))


def test_it_refuses_a_second_roll_by_a_side_whose_roll_could_not_be_played():
    assert refusal_from(CLOSED, "0:21 8/5 | 1:65 | 1:65").details["rule"] == "unexpected_action"


@pytest.mark.parametrize(
    ("play", "rule", "position_after"),
    [
        # one die of a 3-1 left unplayed
        ("8/5", "dice_not_all_used", {24: 2, 13: 5, 8: 2, 6: 5, 5: 1}),
        # a step that is no die of the roll
        ("13/9 8/7", "wrong_steps", {24: 2, 13: 4, 9: 1, 8: 2, 7: 1, 6: 5}),
    ],
)
def test_it_lets_a_condoned_illegal_play_stand_under_responsible_moves(play, rule, position_after):
    game = replay(f"0:31 !{play} | {REPLY}", GameRules(responsible_moves=True))
    assert len(game.condoned) == 1
    condoned = game.condoned[0]
    assert (condoned.rule, condoned.side, condoned.move, condoned.play) == (rule, 0, 1, play)
    assert condoned.action_index == 2  # 1-based, as in bad_action
    assert game.frames[2].position.boards[0] == side_board(position_after)
    assert game.frames[2].position.turn == 1
    assert game.plays[1] is None  # an illegal play is no Play


def test_it_reports_nothing_condoned_when_a_marked_play_was_legal():
    game = replay("0:31 !8/5 6/5", GameRules(responsible_moves=True))
    assert game.condoned == ()
    assert position_id(game.final.position) == AFTER_31_ID


@pytest.mark.parametrize(
    ("text", "rules", "rule", "words"),
    [
        # not marked condoned: illegal under either policy
        ("0:31 8/5", GameRules(responsible_moves=True), "dice_not_all_used", "as many dice"),
        # marked, but the event plays the legal-moves policy
        ("0:31 !8/5", GameRules(), "dice_not_all_used", "responsible-moves"),
        ("0:31 !8/5", MATCH, "dice_not_all_used", "responsible-moves"),
        # marked, but the board it leads to cannot exist
        ("0:52 !13/11 6/1", GameRules(responsible_moves=True), "blocked", "cannot stand even condoned"),
        ("0:31 !7/4 6/5", GameRules(responsible_moves=True), "no_checker", "cannot stand even condoned"),
    ],
)
def test_it_rejects_an_illegal_play_that_is_not_condoned_under_responsible_moves(text, rules, rule, words):
    error = refusal(text, rules)
    assert error.details["rule"] == rule
    assert words in error.message


def test_it_ends_the_game_on_a_condoned_bear_off():
    # 2-1 with checkers on the 6- and 1-points: 6/off is illegal, condoned it bears off the last ones.
    position = Position.from_sides(side_board({6: 1, 1: 1}), side_board(NONE_OFF))
    game = replay_from(position, "0:21 !6/off 1/off", GameRules(responsible_moves=True))
    assert game.result == GameResult(0, 2, 1, "gammon", 2)
    assert [c.rule for c in game.condoned] == ["bearoff_die_too_small"]


# --- JSON actions ---------------------------------------------------------------------------

OPENING_JSON = [
    {"type": "roll", "side": 0, "dice": [3, 1]},
    {"type": "move", "side": 0, "play": "8/5 6/5"},
    {"type": "double", "side": 1, "value": 2},
    {"type": "drop", "side": 0},
]


def test_it_replays_a_json_game_log():
    game = replay_game(actions_from_json(OPENING_JSON))
    assert game.result == GameResult(1, 1, 1, "drop", 1)


@pytest.mark.parametrize(
    "action",
    [
        OpeningTie(None, die=4), Roll(1, dice=(6, 5)), Move(0, play="bar/22* 13/7"),
        Move(0, play="8/5", condoned=True), Double(1), Double(0, value=8), Take(0), Drop(1),
        Beaver(0, value=4), Raccoon(1), Resign(1, level=3), Accept(0), Decline(1),
    ],
)
def test_it_round_trips_every_action_through_its_json_form(action):
    assert action_from_dict(action_to_dict(action)) == action


@pytest.mark.parametrize(
    ("items", "index", "words"),
    [
        ([{"type": "roll", "side": 0, "dice": [3, 1]}, {"type": "jump", "side": 1}], 2, "unknown action type"),
        ([{"side": 0}], 1, "unknown action type"),
        ([{"type": "take", "side": 0, "value": 2}], 1, "unknown field"),
        ([{"type": "opening_tie", "side": 0, "die": 3}], 1, "unknown field"),
        ([{"type": "roll", "side": 0, "dice": [7, 1]}], 1, "dice"),
        ([{"type": "roll", "side": 0, "dice": [3]}], 1, "dice"),
        ([{"type": "roll", "side": 0, "dice": "31"}], 1, "dice"),
        ([{"type": "roll", "side": 0, "dice": [True, 1]}], 1, "dice"),
        ([*OPENING_JSON[:2], {"type": "roll", "side": 1, "dice": [0, 4]}], 3, "dice"),
        ([{"type": "roll", "side": 2, "dice": [3, 1]}], 1, "side"),
        ([{"type": "take", "side": True}], 1, "side"),
        ([{"type": "take"}], 1, "side"),
        ([{"type": "resign", "side": 0, "level": 4}], 1, "level"),
        ([{"type": "double", "side": 0, "value": 1}], 1, "value"),
        ([{"type": "move", "side": 0, "play": 85}], 1, "play"),
        ([{"type": "move", "side": 0, "play": "8/5", "condoned": "yes"}], 1, "condoned"),
        ([{"type": "opening_tie", "die": 7}], 1, "die"),
        ([{"type": "roll", "side": 0, "dice": [3, 1]}, "take"], 2, "object"),
    ],
)
def test_it_rejects_a_bad_json_action_with_its_1_based_index(items, index, words):
    with pytest.raises(GameLogError) as caught:
        actions_from_json(items)
    error = caught.value
    assert error.code == "bad_action"
    assert error.details["action_index"] == index
    assert error.message.startswith(f"action {index}:")
    assert words in error.message


def test_it_rejects_a_json_game_log_that_is_not_a_list():
    with pytest.raises(GameLogError) as caught:
        actions_from_json({"type": "roll"})
    assert caught.value.code == "bad_action"


# --- random legal games --------------------------------------------------------------------


def random_log(rng: random.Random) -> tuple[list[Action], Position, int]:
    """A whole game of random legal plays: the log, the final position and the winner.

    Each roll is followed by the notation of a random legal play, or by nothing when no play
    exists (the turn passes), so replaying the log checks that every written notation replays.
    """
    side = rng.choice((0, 1))
    position = Position.start(side)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    while dice[0] == dice[1]:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    actions: list[Action] = []
    while True:
        actions.append(Roll(side, dice=dice))
        plays = legal_plays(position, dice)
        if plays:
            play = rng.choice(plays)
            actions.append(Move(side, play=play.notation))
            position = play.position
            if position.is_over():
                return actions, position, side
        else:
            position = position.passed()
        side = position.turn
        dice = (rng.randint(1, 6), rng.randint(1, 6))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_it_replays_random_legal_games_to_the_right_result(seed):
    actions, position, winner = random_log(random.Random(seed))
    game = replay_game(actions, number=seed)
    level = game_level(position, winner)
    assert game.result == GameResult(winner, level, 1, ("single", "gammon", "backgammon")[level - 1], level)
    assert game.final.position == position
    assert len(game.frames) == len(actions) + 1

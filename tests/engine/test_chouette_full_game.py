"""Chouette full games: the board's own log (the Captain's cube on it) plus the crew's cube moments.

Line-up used throughout: Ann is the Box (side 0 on the board), Bob the Captain (side 1), Cat and
Dan the crew. Board logs are built with :class:`BoardLog`, which picks a legal play for each roll.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from engine.actions import Accept, Beaver, Double, Drop, Move, OpeningTie, Raccoon, Resign, Roll, Take
from engine.chouette import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    Answer,
    BoxDouble,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    Lineup,
    MemberCube,
    Side,
    StartStep,
    TeamDouble,
    chouette_next_lineup,
    chouette_settle,
    full_game,
    record_from_json,
    replay_session,
    step_from_json,
    step_to_json,
)
from engine.chouette.full_game import CrewMoment, FullGame, chouette_full_game, full_game_from_json, full_game_to_json
from engine.errors import ChouetteError
from engine.game import Game, GameRules
from engine.moves import legal_plays

LINE = Lineup("Ann", "Bob", ("Cat", "Dan"))
PLAIN = ChouetteSettings(jacoby=False)
RACCOONS = ChouetteSettings(jacoby=False, raccoons=True)
NO_BEAVERS = ChouetteSettings(jacoby=False, beavers=False)
BOX, TEAM = Side.BOX, Side.TEAM
PLAYED, MEMBER_DROPPED, BOX_DROPPED = CubeEnd.PLAYED, CubeEnd.MEMBER_DROPPED, CubeEnd.BOX_DROPPED
TAKE, DROP, BEAVER = Answer.TAKE, Answer.DROP, Answer.BEAVER


class BoardLog:
    """A board log built turn by turn; ``here`` is the index of the next action."""

    def __init__(self) -> None:
        self.actions: list = []
        self._checkers = Game(GameRules(automatic_doubles=30))

    @property
    def here(self) -> int:
        return len(self.actions)

    def _add(self, action, *, checker: bool = True) -> BoardLog:
        self.actions.append(action)
        if checker:
            self._checkers.apply(action)
        return self

    def tie(self, die: int) -> BoardLog:
        return self._add(OpeningTie(None, die=die))

    def turn(self, side: int, first: int, second: int) -> BoardLog:
        """A roll and the first legal play of it (none if it cannot be played)."""
        self._add(Roll(side, dice=(first, second)))
        plays = legal_plays(self._checkers.position, (first, second))
        return self._add(Move(side, play=plays[0].notation)) if plays else self

    def cube(self, *actions) -> BoardLog:
        for action in actions:
            self._add(action, checker=False)
        return self

    def resign(self, side: int, level: int) -> BoardLog:
        return self._add(Resign(side, level=level))._add(Accept(1 - side))


def opening() -> BoardLog:
    """The Box opens, the team replies: the Box is on roll at action 4."""
    return BoardLog().turn(0, 3, 1).turn(1, 6, 4)


def team_on_roll() -> BoardLog:
    """... and the Box has played its second roll: the team is on roll at action 6."""
    return opening().turn(0, 5, 2)


def cubes(**records) -> tuple[MemberCube, ...]:
    out = []
    for player, record in records.items():
        value, end = record if isinstance(record, tuple) else (record, PLAYED)
        out.append(MemberCube(player, value, end))
    return tuple(out)


def amounts(game: ChouetteGame, settings: ChouetteSettings = PLAIN, lineup: Lineup = LINE) -> dict:
    return dict(chouette_settle(lineup, game, settings).amounts)


def refusal(lineup, board, moments, settings=PLAIN, **kwargs) -> ChouetteError:
    with pytest.raises(ChouetteError) as caught:
        chouette_full_game(lineup, board, moments, settings, **kwargs)
    return caught.value


# --- whole games ---------------------------------------------------------------------------------


def test_the_box_doubles_everyone_at_once_and_the_crew_decide_before_the_captain():
    board = opening()
    at = board.here
    board.cube(Double(0), Take(1)).turn(0, 5, 2).resign(1, GAMMON)

    game = chouette_full_game(LINE, board.actions, [(at, BoxDouble((("Dan", DROP), ("Cat", TAKE))))], PLAIN)

    assert game == ChouetteGame(
        BOX, GAMMON, cubes(Bob=2, Cat=2, Dan=(1, MEMBER_DROPPED)),
        log=(BoxDouble((("Dan", DROP), ("Cat", TAKE), ("Bob", TAKE))),),
    )
    assert amounts(game) == {"Ann": 9, "Bob": -4, "Cat": -4, "Dan": -1}


def test_after_the_captain_drops_the_board_goes_on_and_the_rotation_follows_his_result():
    board = opening()
    at = board.here
    board.cube(Double(0), Drop(1)).turn(0, 5, 2).turn(1, 4, 4).resign(0, SINGLE)

    game = chouette_full_game(LINE, board.actions, [CrewMoment(at, BoxDouble((("Dan", TAKE), ("Cat", TAKE))))], PLAIN)

    assert (game.winner, game.level) == (TEAM, SINGLE)
    settlement = chouette_settle(LINE, game, PLAIN)
    assert dict(settlement.amounts) == {"Ann": -3, "Bob": -1, "Cat": 2, "Dan": 2}
    assert settlement.final_captain == "Cat"
    assert chouette_next_lineup(LINE, game) == Lineup("Ann", "Cat", ("Dan", "Bob"))


def test_when_the_box_drops_the_captains_double_the_captain_boxes_next():
    board = team_on_roll()
    at = board.here
    board.cube(Double(1), Drop(0)).turn(1, 3, 2).resign(1, SINGLE)

    game = chouette_full_game(LINE, board.actions, [(at, TeamDouble(("Dan",)))], PLAIN)

    assert game.log == (TeamDouble(("Dan", "Bob"), box_drops={"Bob"}),)
    assert amounts(game) == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -2}
    assert chouette_next_lineup(LINE, game) == Lineup("Bob", "Cat", ("Dan", "Ann"))


def test_crew_cube_moments_at_other_turns_than_the_captains():
    board = opening()
    box_turn = board.here
    board.turn(0, 5, 2)
    team_turn = board.here
    board.turn(1, 2, 1).cube(Double(0), Take(1)).turn(0, 6, 6).resign(0, BACKGAMMON)
    moments = [(team_turn, TeamDouble(("Dan",), box_drops={"Dan"})), (box_turn, BoxDouble((("Cat", TAKE),)))]

    game = chouette_full_game(LINE, board.actions, moments, PLAIN)

    assert game.cubes == cubes(Bob=2, Cat=2, Dan=(1, BOX_DROPPED))
    assert [type(moment) for moment in game.log] == [BoxDouble, TeamDouble, BoxDouble]
    assert amounts(game) == {"Ann": -13, "Bob": 6, "Cat": 6, "Dan": 1}


def test_a_board_finished_by_bearing_off_gives_its_own_level():
    board, _ = random_board(seed=3)

    game = chouette_full_game(LINE, board, [], PLAIN)
    played = Game(GameRules())
    for action in board:
        played.apply(action)

    assert (game.winner, game.level) == ((BOX, TEAM)[played.result.winner], played.result.level)
    assert game.cubes == cubes(Bob=1, Cat=1, Dan=1)


def test_everyone_out_on_the_cube_ends_the_board_with_no_winner():
    board = opening()
    at = board.here
    board.cube(Double(0), Drop(1))

    game = chouette_full_game(LINE, board.actions, [(at, BoxDouble((("Dan", DROP), ("Cat", DROP))))], PLAIN)

    assert game.winner is None
    assert amounts(game) == {"Ann": 3, "Bob": -1, "Cat": -1, "Dan": -1}


def test_the_last_crew_members_leave_after_the_captain_and_the_board_stops_there():
    board = opening().cube(Double(0), Drop(1)).turn(0, 5, 2)
    last = board.here

    game = chouette_full_game(LINE, board.actions, [(last, TeamDouble(("Dan", "Cat"), box_drops={"Dan", "Cat"}))], PLAIN)

    assert game.winner is None
    assert amounts(game) == {"Ann": -1, "Bob": -1, "Cat": 1, "Dan": 1}


# --- the Captain's cube is the board's -----------------------------------------------------------

EXCHANGES = [
    (0, [Double(0), Take(1)]),
    (0, [Double(0), Drop(1)]),
    (0, [Double(0), Beaver(1)]),
    (0, [Double(0), Beaver(1), Drop(0)]),
    (0, [Double(0), Beaver(1), Raccoon(0)]),
    (0, [Double(0), Beaver(1), Raccoon(0), Drop(1)]),
    (1, [Double(1), Take(0)]),
    (1, [Double(1), Drop(0)]),
    (1, [Double(1), Beaver(0)]),
    (1, [Double(1), Beaver(0), Drop(1)]),
    (1, [Double(1), Beaver(0), Raccoon(1)]),
    (1, [Double(1), Beaver(0), Raccoon(1), Drop(0)]),
]


@pytest.mark.parametrize(("doubler", "exchange"), EXCHANGES)
def test_the_captains_cube_is_what_engine_game_makes_of_the_board(doubler, exchange):
    heads_up = Lineup("Ann", "Bob")
    board = (opening() if doubler == 0 else team_on_roll()).cube(*exchange)
    captain = Game(GameRules(beavers=True, raccoons=True, automatic_doubles=1))
    for action in board.actions:
        captain.apply(action)
    if captain.result is None:
        board.resign(doubler, SINGLE)
        expected = MemberCube("Bob", captain.cube, PLAYED)
    else:
        expected = MemberCube("Bob", captain.result.cube, BOX_DROPPED if captain.result.winner == 1 else MEMBER_DROPPED)

    game = chouette_full_game(heads_up, board.actions, [], RACCOONS)

    assert game.cubes == (expected,)


@pytest.mark.parametrize(
    ("exchange", "settings", "code", "index"),
    [
        ([Double(0), Beaver(1)], NO_BEAVERS, "beavers_not_allowed", 5),
        ([Double(0), Beaver(1), Raccoon(0)], PLAIN, "raccoons_not_allowed", 6),
        ([Double(0), Take(1), Double(0)], PLAIN, "board_log", 6),
    ],
)
def test_the_board_refuses_the_captains_cube_actions_that_the_table_or_the_rules_forbid(exchange, settings, code, index):
    board = opening().cube(*exchange)

    error = refusal(LINE, board.actions, [], settings)

    assert (error.code, error.details["action_index"]) == (code, index)


# --- automatic doubles ---------------------------------------------------------------------------


@pytest.mark.parametrize(("limit", "automatic"), [(0, 0), (1, 1), (2, 2), (3, 2)])
def test_ties_on_the_opening_roll_double_every_cube_up_to_the_tables_limit(limit, automatic):
    settings = ChouetteSettings(jacoby=False, automatic_doubles=limit)
    board = BoardLog().tie(3).tie(5).turn(0, 3, 1).turn(1, 6, 4)
    at = board.here
    board.cube(Double(0), Take(1)).turn(0, 5, 2).resign(1, SINGLE)

    game = chouette_full_game(LINE, board.actions, [(at, BoxDouble((("Dan", DROP),)))], settings)

    start = 2**automatic
    assert game.automatic == automatic
    assert game.cubes == cubes(Bob=2 * start, Cat=start, Dan=(start, MEMBER_DROPPED))


# --- where crew moments may come -----------------------------------------------------------------


def test_a_crew_double_may_follow_a_roll_the_other_side_could_not_play():
    board, passed = random_board(seed=None)
    roller = board[passed].side
    moment = BoxDouble((("Dan", TAKE),)) if roller == 0 else TeamDouble(("Dan",))

    game = chouette_full_game(LINE, board, [(passed, moment)], PLAIN)

    assert dict((cube.player, cube.value) for cube in game.cubes)["Dan"] == 2


def test_after_a_roll_the_other_side_could_not_play_the_next_roller_may_double_everyone_out():
    board, passed = random_board(seed=None)
    roller = board[passed].side
    if roller == 0:
        exchange, moment = [Double(0), Drop(1)], BoxDouble((("Dan", DROP), ("Cat", DROP)))
    else:
        exchange, moment = [Double(1), Drop(0)], TeamDouble(("Dan", "Cat"), box_drops={"Dan", "Cat"})

    game = chouette_full_game(LINE, [*board[:passed], *exchange], [(passed, moment)], PLAIN)

    assert game.winner is None
    assert {cube.end for cube in game.cubes} == {MEMBER_DROPPED if roller == 0 else BOX_DROPPED}


TIMING = [
    # A team double at the Box's turn, a Box double before the opening roll or in the middle of its turn.
    (lambda: opening().turn(0, 5, 2).resign(1, SINGLE), 4, TeamDouble(("Dan",))),
    (lambda: opening().turn(0, 5, 2).resign(1, SINGLE), 0, BoxDouble((("Dan", TAKE),))),
    (lambda: opening().turn(0, 5, 2).resign(1, SINGLE), 5, BoxDouble((("Dan", TAKE),))),
    # Inside the Captain's exchange: between the Box's double and Bob's answer.
    (lambda: opening().cube(Double(0), Take(1)).turn(0, 5, 2).resign(1, SINGLE), 5, BoxDouble((("Dan", TAKE),))),
    (lambda: opening().cube(Double(0), Beaver(1)).turn(0, 5, 2).resign(1, SINGLE), 6, BoxDouble((("Dan", TAKE),))),
    # After the board is over.
    (lambda: opening().resign(1, SINGLE), 6, BoxDouble((("Dan", TAKE),))),
]


@pytest.mark.parametrize(("build", "before", "moment"), TIMING)
def test_a_crew_moment_comes_at_the_doublers_turn_before_he_rolls(build, before, moment):
    error = refusal(LINE, build().actions, [(before, moment)])

    assert (error.code, error.details["action_index"]) == ("moment_timing", before)


def test_the_crew_and_the_captain_answer_one_double_as_one_moment():
    board = opening().cube(Double(0), Take(1)).turn(0, 5, 2).resign(1, SINGLE)

    error = refusal(LINE, board.actions, [(6, BoxDouble((("Dan", TAKE),)))])

    assert (error.code, error.details["action_index"]) == ("split_moment", 6)


def test_one_turns_crew_decisions_are_one_moment():
    board = opening().turn(0, 5, 2).resign(1, SINGLE)

    error = refusal(LINE, board.actions, [(4, BoxDouble((("Dan", TAKE),))), (4, BoxDouble((("Cat", TAKE),)))])

    assert (error.code, error.details["action_index"]) == ("split_moment", 4)


# --- who may decide ------------------------------------------------------------------------------


def test_the_captains_decisions_belong_on_the_board():
    board = opening().turn(0, 5, 2).resign(1, SINGLE)

    error = refusal(LINE, board.actions, [(4, BoxDouble((("Dan", TAKE), ("Bob", TAKE))))])

    assert (error.code, error.details["action_index"], error.details["player"]) == ("captain_cube_on_board", 4, "Bob")


def test_the_captain_has_no_cube_action_after_he_left_the_game():
    board = opening().cube(Double(0), Drop(1)).turn(0, 5, 2).cube(Double(1), Take(0)).turn(1, 3, 1).resign(1, SINGLE)

    error = refusal(LINE, board.actions, [(4, BoxDouble((("Dan", TAKE),)))])

    assert (error.code, error.details["action_index"]) == ("member_out", 8)


@pytest.mark.parametrize(
    ("moments", "code", "index"),
    [
        # Dan dropped at action 4, then decides again at the team's turn.
        ([(4, BoxDouble((("Dan", DROP),))), (8, TeamDouble(("Dan",)))], "member_out", 8),
        # Dan took the Box's double and owns his cube: the Box cannot double it at its next turn.
        ([(4, BoxDouble((("Dan", TAKE),))), (10, BoxDouble((("Dan", TAKE),)))], "not_cube_owner", 10),
        ([(4, BoxDouble((("Cat", TAKE), ("Dan", TAKE))))], "decision_order", 4),
        ([(4, BoxDouble((("Eve", TAKE),)))], "unknown_player", 4),
        ([(4, BoxDouble((("Ann", TAKE),)))], "unknown_player", 4),
        ([(4, BoxDouble((("Dan", BEAVER),)))], "beavers_not_allowed", 4),
    ],
)
def test_the_crews_cube_moments_are_checked_and_errors_name_the_board_action(moments, code, index):
    board = opening().cube(Double(0), Take(1)).turn(0, 5, 2).turn(1, 3, 1).turn(0, 4, 2).resign(1, SINGLE)

    error = refusal(LINE, board.actions, moments, NO_BEAVERS)

    assert (error.code, error.details["action_index"]) == (code, index)


def test_a_box_partner_sits_the_game_out_and_has_no_cube_moments():
    settings = ChouetteSettings(jacoby=False, box_partner_from=4)
    board = opening().cube(Double(0), Take(1)).turn(0, 5, 2).resign(1, SINGLE)

    game = chouette_full_game(LINE, board.actions, [(4, BoxDouble((("Cat", TAKE),)))], settings, box_partner="Dan")

    assert amounts(game, settings) == {"Ann": 2, "Bob": -2, "Cat": -2, "Dan": 2}
    error = refusal(LINE, board.actions, [(4, BoxDouble((("Dan", TAKE),)))], settings, box_partner="Dan")
    assert (error.code, error.details["action_index"]) == ("unknown_player", 4)
    error = refusal(LINE, board.actions, [], ChouetteSettings(box_partner_from=None), box_partner="Dan")
    assert error.code == "box_partner_not_allowed"


def test_the_single_cube_is_taken_or_dropped_as_a_whole():
    settings = ChouetteSettings(jacoby=False, single_cube=True)
    board = team_on_roll().cube(Double(1), Drop(0)).turn(1, 3, 2).resign(1, SINGLE)

    error = refusal(LINE, board.actions, [(6, TeamDouble(("Dan", "Cat")))], settings)

    assert (error.code, error.details["action_index"]) == ("single_cube_split", 6)


# --- the board's end -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "moments", "code", "index"),
    [
        # The log stops while members are still in.
        (lambda: opening(), [], "board_unfinished", 4),
        (lambda: opening().cube(Double(0)), [], "board_unfinished", 4),
        # Everyone had left the game, yet the board goes on.
        (lambda: opening().cube(Double(0), Drop(1)).turn(0, 5, 2), [(4, BoxDouble((("Dan", DROP), ("Cat", DROP))))],
         "board_over", 6),
        (lambda: opening().turn(0, 5, 2), [(4, BoxDouble((("Dan", DROP), ("Cat", DROP))))], "board_unfinished", 6),
        # An action the rules refuse.
        (lambda: opening().cube(Roll(0, dice=(6, 5)), Move(0, play="24/1")), [], "board_log", 5),
        (lambda: opening().cube("6-5"), [], "board_log", 4),
    ],
)
def test_the_board_must_end_when_the_last_member_leaves_and_not_before(build, moments, code, index):
    error = refusal(LINE, build().actions, moments)

    assert (error.code, error.details["action_index"]) == (code, index)


def test_the_board_is_still_checked_after_the_captain_left_the_game():
    board = opening().cube(Double(0), Drop(1), Roll(0, dice=(6, 5)), Move(0, play="24/1"))

    error = refusal(LINE, board.actions, [(4, BoxDouble((("Dan", TAKE),)))])

    assert (error.code, error.details["action_index"], error.details["side"]) == ("board_log", 7, 0)


def test_an_illegal_board_action_names_engine_games_rule():
    board = opening().cube(Roll(0, dice=(6, 5)), Move(0, play="24/1"))

    error = refusal(LINE, board.actions, [])

    assert error.details["rule"] != "board_log"
    assert error.message.startswith("board action 5: ")


@pytest.mark.parametrize(
    "moments",
    [
        [(4,)],
        ["4: Dan takes"],
        [(-1, BoxDouble((("Dan", TAKE),)))],
        [(99, BoxDouble((("Dan", TAKE),)))],
        [(True, BoxDouble((("Dan", TAKE),)))],
        [(4, "Dan takes")],
    ],
)
def test_it_refuses_a_malformed_crew_moment(moments):
    board = opening().turn(0, 5, 2).resign(1, SINGLE)

    assert refusal(LINE, board.actions, moments).code == "bad_log"
    with pytest.raises(ChouetteError) as caught:
        FullGame(tuple(board.actions), tuple(moments)).chouette_game(LINE, PLAIN)
    assert caught.value.code == "bad_log"


# --- JSON and the session ------------------------------------------------------------------------


def scenario(crew: tuple[str, str] = ("Dan", "Cat")) -> FullGame:
    """The Box doubles everyone; the Captain drops, the crew take and win the board."""
    board = opening()
    board.cube(Double(0), Drop(1)).turn(0, 5, 2).turn(1, 4, 4).resign(0, SINGLE)
    return FullGame(tuple(board.actions), ((4, BoxDouble(((crew[0], TAKE), (crew[1], TAKE)))),))


def test_a_full_record_survives_the_round_trip_through_json():
    record = scenario()
    data = json.loads(json.dumps(full_game_to_json(record)))

    assert full_game_from_json(data, LINE) == record
    assert record_from_json(data) == record
    assert data["crew_moments"] == [
        {"before": 4, "moment": {"type": "box_double", "answers": [["Dan", "take"], ["Cat", "take"]], "raccoons": [],
                                 "redouble_drops": []}},
    ]
    assert data["board_log"][4:6] == [{"type": "double", "side": 0}, {"type": "drop", "side": 1}]
    assert data["box_partner"] is None


def json_with(path: str, value) -> dict:
    data = full_game_to_json(scenario())
    keys = [int(key) if key.isdigit() else key for key in path.split(".")]
    target = data
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "code", "path"),
    [
        ({"crew_moments": []}, "bad_json", "board_log"),
        (json_with("board_log", {}), "bad_json", "board_log"),
        (json_with("board_log.3", {"type": "move", "side": 2, "play": "8/5"}), "bad_json", "board_log[3]"),
        (json_with("crew_moments.0", [4]), "bad_json", "crew_moments[0]"),
        (json_with("crew_moments.0.before", "4"), "bad_json", "crew_moments[0].before"),
        (json_with("crew_moments.0.moment.answers.1.1", "pass"), "bad_json", "crew_moments[0].moment.answers[1][1]"),
        (json_with("crew_moments.0.moment.answers.1.0", "Eve"), "unknown_player", "crew_moments[0].moment.answers[1][0]"),
        (json_with("box_partner", "Eve"), "unknown_player", "box_partner"),
    ],
)
def test_it_refuses_a_malformed_full_record_and_names_the_field(data, code, path):
    with pytest.raises(ChouetteError) as caught:
        full_game_from_json(data, LINE)
    assert (caught.value.code, caught.value.details["path"]) == (code, path)


def test_a_session_replays_full_records_from_their_json():
    # Game 2 is played by the next line-up (Ann / Cat / Dan, Bob): its crew are Dan and Bob.
    steps = [StartStep(lineup=LINE), GameStep(scenario()), GameStep(scenario(("Bob", "Dan")))]
    stored = json.loads(json.dumps([step_to_json(step) for step in steps]))

    session = replay_session([step_from_json(data) for data in stored], PLAIN)

    assert stored[1]["record"] == full_game_to_json(scenario())
    assert session.games[0].game == chouette_full_game(LINE, scenario().board_log, scenario().crew_moments, PLAIN)
    assert session.games[1].lineup == Lineup("Ann", "Cat", ("Dan", "Bob"))
    assert dict(session.ledger) == {"Ann": -6, "Bob": 1, "Cat": 1, "Dan": 4}


def test_a_full_record_that_does_not_fit_its_line_up_is_refused_with_its_step():
    steps = [StartStep(lineup=Lineup("Ann", "Bob", ("Cat",))), GameStep(scenario())]

    with pytest.raises(ChouetteError) as caught:
        replay_session(steps, PLAIN)

    assert (caught.value.code, caught.value.details["step"], caught.value.details["action_index"]) == (
        "unknown_player", 1, 4,
    )


def test_it_documents_every_code_it_raises_and_only_those():
    raised = {"board_log", "moment_timing", "split_moment", "captain_cube_on_board", "board_unfinished", "board_over"}
    errors = full_game.__doc__.split("Errors\n------")[1]
    documented = re.findall(r"``([a-z]+_\w+)``", errors.split("Errors about a place")[0])

    assert len(documented) == len(set(documented))
    assert set(documented) == raised


# --- helpers -------------------------------------------------------------------------------------


def random_board(seed: int | None) -> tuple[list, int]:
    """A finished board log of random legal plays, and the index of a roll that follows a roll the
    other side could not play. With ``seed`` None, the first seed that has such a roll."""
    for attempt in range(500) if seed is None else (seed,):
        rng = random.Random(attempt)
        board = BoardLog()
        first = rng.choice((0, 1))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        side, passed = first, None
        while board._checkers.result is None:
            board._add(Roll(side, dice=dice))
            plays = legal_plays(board._checkers.position, dice)
            if plays:
                board._add(Move(side, play=rng.choice(plays).notation))
            elif passed is None and board.here > 2:
                passed = board.here
            side = 1 - side
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        if seed is not None or passed is not None:
            return board.actions, passed
    raise AssertionError("no random game had an unplayable roll")

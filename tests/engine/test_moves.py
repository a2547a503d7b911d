"""Checker plays (RULES.md §3): every rule and every IllegalPlay code, by hand-worked tables.

Expected plays are worked out by hand and written as plays; :func:`after` turns such a written
play into the position it leads to with plain arithmetic (no rule checked), so the tables never
trust the generator they test. A round trip over random games closes the file: every generated
play's notation must validate back to the same position.
"""

import itertools

import pytest

from engine.board import BAR, OFF, Position, side_board
from engine.errors import IllegalPlay, NotationError
from engine.ids import position_id
from engine.moves import legal_plays
from engine.notation import Hop, format_steps, parse_play
from engine.randomgame import random_positions
from engine.validation import RULES, validate_play


def pos(points: dict, opp: dict | None = None, *, bar: int = 0, opp_bar: int = 0, turn: int = 0) -> Position:
    """A position with side ``turn`` on roll.

    ``points`` are the roller's checkers in its own numbering; ``opp`` are the opponent's, written
    with the **roller's** point numbers (``opp={5: 1}`` is a blot on the roller's 5-point), so a
    table row reads from one side of the board. Checkers not listed are borne off.
    """
    mine = side_board(points, bar=bar)
    theirs = side_board({25 - point: count for point, count in (opp or {}).items()}, bar=opp_bar)
    return Position.from_sides(*((mine, theirs) if turn == 0 else (theirs, mine)), turn=turn)


def after(position: Position, text: str) -> Position:
    """The position after the written play ``text``, by hand: each ``a/b`` moves one checker, a
    checker landing on a lone opposing checker sends it to the bar. ``(n)`` repeats a move."""
    mine, theirs = list(position.mover), list(position.opponent)
    for word in text.split():
        times = 1
        if word.endswith(")"):
            word, times = word[:-3], int(word[-2])
        points = [BAR if p == "bar" else OFF if p == "off" else int(p) for p in word.replace("*", "").split("/")]
        for _ in range(times):
            for start, end in itertools.pairwise(points):
                mine[start] -= 1
                mine[end] += 1
                if end and theirs[25 - end] == 1:
                    theirs[25 - end] = 0
                    theirs[BAR] += 1
    boards = (tuple(mine), tuple(theirs)) if position.turn == 0 else (tuple(theirs), tuple(mine))
    return Position(boards, 1 - position.turn)


def results(position: Position, dice) -> set[Position]:
    return {play.position for play in legal_plays(position, dice)}


def play_written(position: Position, dice, notation: str):
    """The generated play whose notation is ``notation``."""
    plays = {play.notation: play for play in legal_plays(position, dice)}
    assert notation in plays, f"{notation!r} is not among {sorted(plays)}"
    return plays[notation]


START = Position.start()
# The opponent's home board (the roller's 19..24) closed: nothing enters.
CLOSED = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}
# The start, but the opponent has slotted a blot on the roller's 18-point (its own 7-point).
BLOT_ON_18 = pos({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 2, 18: 1, 19: 5})
# The same blot, but the opponent's home checkers stand on its 5-point: the roller's 19 is open.
BLOT_ON_18_19_OPEN = pos({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 2, 18: 1, 20: 5})
# One checker on the bar, a blot on the roller's 22-point (the opponent's 3-point).
BAR_BLOT_22 = pos({6: 14}, {22: 1}, bar=1)
# Two checkers on the bar; of the entry points only the 22 is open.
TWO_ON_BAR_ONE_POINT_OPEN = pos({6: 13}, {19: 2, 20: 2, 21: 2, 23: 2, 24: 2}, bar=2)
# Fourteen checkers off, one hit and still outside: only one die at a time fits.
LONE_14 = pos({14: 1}, {4: 2})


# --- legal_plays --------------------------------------------------------------------------


def test_it_finds_8_5_6_5_for_the_opening_3_1_and_gives_gnubgs_position_id_to_the_opponent():
    play = play_written(START, (3, 1), "8/5 6/5")
    assert play.position == after(START, "8/5 6/5")
    assert play.position.turn == 1
    assert play.dice_used == 2
    assert position_id(play.position) == "sGfwATDgc/ABMA"


def test_it_finds_the_same_plays_whichever_die_is_named_first():
    assert results(START, (1, 3)) == results(START, (3, 1))


@pytest.mark.parametrize(
    ("dice", "count"),
    # As many plays as GNU Backgammon lists from the start, one per resulting position.
    [((2, 1), 15), ((3, 1), 16), ((4, 1), 14), ((4, 2), 18), ((6, 5), 7), ((1, 1), 42), ((5, 5), 4), ((6, 6), 11)],
)
def test_it_lists_as_many_plays_from_the_start_as_gnubg(dice, count):
    plays = legal_plays(START, dice)
    assert len(plays) == count
    assert len({play.position for play in plays}) == count


@pytest.mark.parametrize(
    ("position", "dice", "expected"),
    [
        # 6s: 24/18, 13/7, 8/2; 5s: 13/8, 8/3 (24/19 and 6/1 are blocked). 13/8 8/2 is 13/2.
        pytest.param(
            START, (6, 5),
            ["24/13", "24/18 13/8", "24/18 8/3", "13/7 13/8", "13/7 8/3", "13/2", "8/2 8/3"],
            id="start-65",
        ),
        # Only 13/8 and 8/3 move a 5: the plays differ by how many leave the 13 and reach the 3.
        pytest.param(START, (5, 5), ["13/8(4)", "13/8(3) 8/3", "13/8(2) 8/3(2)", "13/8 8/3(3)"], id="start-55"),
        pytest.param(pos({6: 2, 5: 2}), (6, 5), ["6/off 5/off", "6/off 6/1"], id="two-points-65"),
    ],
)
def test_it_lists_exactly_the_plays_worked_out_by_hand(position, dice, expected):
    assert results(position, dice) == {after(position, text) for text in expected}


@pytest.mark.parametrize(
    ("position", "dice", "expected", "used"),
    [
        pytest.param(pos({24: 1}), (3, 3), ["24/12"], 4, id="one-checker-four-times"),
        # Four 1s between two checkers: 10/6, 9/5, or two each (= 10/7 9/8): three positions.
        pytest.param(pos({10: 1, 9: 1}), (1, 1), ["10/6", "9/5", "10/8 9/7"], 4, id="two-checkers-1-1"),
        pytest.param(pos({24: 1}, {15: 2}), (3, 3), ["24/18"], 2, id="blocked-after-two"),
        pytest.param(pos({24: 1}, {18: 2}), (3, 3), ["24/21"], 1, id="blocked-after-one"),
        pytest.param(pos({13: 1}, {9: 2}), (2, 2), ["13/11"], 1, id="blocked-9-stops-13-at-11"),
    ],
)
def test_it_plays_a_double_up_to_four_times(position, dice, expected, used):
    plays = legal_plays(position, dice)
    assert {play.position for play in plays} == {after(position, text) for text in expected}
    assert {play.dice_used for play in plays} == {used}


@pytest.mark.parametrize(
    ("position", "dice", "expected", "used"),
    [
        # Both checkers on the bar must enter before anything else: only the 3 enters.
        pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 3), ["bar/22"], 1, id="partial-entry-rest-lost"),
        # Both enter; 22/19 is held, so the last two 3s move 6/3.
        pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (3, 3), ["bar/22(2) 6/3(2)"], 4, id="double-enters-both"),
        pytest.param(pos({6: 14}, {20: 2}, bar=1), (5, 3), ["bar/22 22/17", "bar/22 6/1"], 2, id="enters-with-3"),
        pytest.param(pos({2: 2}, bar=1), (6, 5), ["bar/14"], 2, id="hit-in-bear-off-runs-no-bear-off"),
        pytest.param(pos({2: 2}, bar=1), (6, 6), ["bar/1"], 4, id="hit-in-bear-off-comes-home"),
    ],
)
def test_it_enters_from_the_bar_before_anything_else(position, dice, expected, used):
    plays = legal_plays(position, dice)
    assert {play.position for play in plays} == {after(position, text) for text in expected}
    assert {play.dice_used for play in plays} == {used}


@pytest.mark.parametrize(
    ("position", "dice"),
    [
        pytest.param(pos({6: 14}, CLOSED, bar=1), (6, 5), id="closed-board"),
        pytest.param(pos({6: 13}, CLOSED, bar=2), (1, 1), id="closed-board-double"),
        pytest.param(pos({6: 14}, {19: 2, 20: 2}, bar=1), (6, 5), id="both-entry-points-held"),
        pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 5), id="double-on-a-held-point"),
    ],
)
def test_it_finds_no_play_when_no_checker_can_enter(position, dice):
    assert legal_plays(position, dice) == []


@pytest.mark.parametrize(
    ("position", "dice", "expected", "used"),
    [
        # 8/3 must come first: 8/5 is blocked and 3/off waits for the 8 to come home.
        pytest.param(pos({8: 1, 3: 2}, {5: 2}), (5, 3), ["8/3 3/off"], 2, id="only-in-one-order"),
        # 6/off waits for 8/2; then the two last 6s bear off from the 4, the highest point.
        pytest.param(pos({8: 1, 6: 1, 4: 2}), (6, 6), ["8/2 6/off 4/off(2)"], 4, id="8-2-before-6-off"),
        # Either die alone fits (14/8, 14/10) but not both (4 is held): the higher one.
        pytest.param(LONE_14, (6, 4), ["14/8"], 1, id="higher-die-when-only-one"),
        pytest.param(pos({14: 1}, {8: 2, 4: 2}), (6, 4), ["14/10"], 1, id="lower-die-when-only-it-fits"),
        pytest.param(pos({13: 1}, {9: 2}), (4, 3), ["13/10/6"], 2, id="round-the-held-point"),
        pytest.param(pos({13: 1}, {10: 2}), (4, 3), ["13/9/6"], 2, id="round-the-other-held-point"),
    ],
)
def test_it_plays_as_much_of_the_roll_as_possible(position, dice, expected, used):
    plays = legal_plays(position, dice)
    assert {play.position for play in plays} == {after(position, text) for text in expected}
    assert {play.dice_used for play in plays} == {used}


@pytest.mark.parametrize(
    ("position", "dice"),
    [
        pytest.param(pos({13: 1}, {9: 2, 10: 2}), (4, 3), id="cannot-jump-two-held-points"),
        pytest.param(pos({14: 1}, {8: 2, 10: 2}), (6, 4), id="both-landing-points-held"),
    ],
)
def test_it_finds_no_play_when_no_die_fits(position, dice):
    assert legal_plays(position, dice) == []


@pytest.mark.parametrize(
    ("position", "dice", "expected"),
    [
        pytest.param(pos({6: 2, 5: 2}), (6, 5), ["6/off 5/off", "6/off 6/1"], id="exact-numbers"),
        pytest.param(pos({4: 1, 3: 2}), (6, 5), ["4/off 3/off"], id="higher-dice-from-the-highest-points"),
        # A 2 and a 1 cannot bear off from the 5: they move inside.
        pytest.param(pos({5: 2}), (2, 1), ["5/3 5/4", "5/2"], id="lower-dice-move-inside"),
        # The 4 bears off the 4 (or moves 6/2), the 1 may not bear off the 6.
        pytest.param(pos({6: 1, 4: 1}), (4, 1), ["4/off 6/5", "6/2 4/3", "6/1"], id="lower-die-moves-inside"),
        pytest.param(pos({8: 1, 3: 2}), (3, 1), ["8/4", "8/5 3/2"], id="not-while-a-checker-is-outside"),
        pytest.param(pos({8: 1, 3: 2}), (5, 3), ["8/off"], id="once-the-last-one-is-home"),
        pytest.param(pos({6: 1, 3: 2}), (5, 2), ["6/1 3/1", "6/4/off"], id="5-cannot-bear-off-the-3-below-a-6"),
    ],
)
def test_it_bears_off_only_by_the_rules(position, dice, expected):
    assert results(position, dice) == {after(position, text) for text in expected}


def test_it_puts_a_hit_blot_on_the_bar():
    position = pos({8: 2, 6: 2}, {5: 1, 18: 1})
    play = play_written(position, (3, 1), "8/5* 6/5")
    assert play.position.boards[1][BAR] == 1
    assert play.position.boards[1][25 - 5] == 0
    assert play.position.boards[0][5] == 2
    assert play.position == after(position, "8/5 6/5")


@pytest.mark.parametrize(
    ("points", "dice", "written"),
    [({1: 2}, (6, 6), "1/off(2)"), ({1: 1}, (6, 5), "1/off"), ({2: 1}, (2, 1), "2/off")],
)
def test_it_ends_the_game_when_the_last_checker_is_off_even_with_dice_left(points, dice, written):
    position = pos(points, {19: 5, 20: 5, 21: 5})
    plays = legal_plays(position, dice)
    assert [play.notation for play in plays] == [written]
    assert plays[0].position.is_over() and plays[0].position.off(0) == 15
    # A game-ending play counts as using the whole roll.
    assert plays[0].dice_used == (4 if dice[0] == dice[1] else 2)
    assert validate_play(position, dice, written).position == plays[0].position


@pytest.mark.parametrize(
    ("position", "dice"),
    [(START, (3, 1)), (BLOT_ON_18, (6, 5)), (TWO_ON_BAR_ONE_POINT_OPEN, (3, 3)), (pos({8: 1, 6: 1, 4: 2}), (6, 6))],
)
def test_it_finds_the_same_plays_whichever_side_is_on_roll(position, dice):
    mirrored = position.swapped()
    assert mirrored.turn == 1
    plays = legal_plays(position, dice)
    assert sorted(p.notation for p in legal_plays(mirrored, dice)) == sorted(p.notation for p in plays)
    assert {p.position.swapped() for p in legal_plays(mirrored, dice)} == {p.position for p in plays}


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3), ("3", "1")])
def test_it_rejects_dice_outside_1_to_6(dice):
    with pytest.raises(IllegalPlay) as caught:
        legal_plays(START, dice)
    assert caught.value.code == "bad_dice"


# --- validate_play: illegal plays -----------------------------------------------------------

ILLEGAL = [
    pytest.param(START, (3, 1), "7/4 6/5", "no_checker", id="no-checker-on-7"),
    pytest.param(START, (3, 1), "25/22 8/7", "no_checker", id="nothing-on-the-bar"),
    pytest.param(pos({13: 1, 6: 13}, bar=1), (3, 1), "13/10 6/5", "bar_first", id="bar-first"),
    pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 3), "bar/22 6/1", "bar_first", id="second-still-on-bar"),
    pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 3), "bar/22 22/17", "bar_first", id="entered-one-moves-on"),
    pytest.param(pos({3: 2}, CLOSED, bar=1), (3, 1), "3/2", "bar_first", id="bar-first-closed-board"),
    pytest.param(START, (5, 2), "24/19 13/11", "blocked", id="landing-on-a-made-point"),
    pytest.param(START, (5, 2), "13/11 6/1", "blocked", id="landing-on-the-ace-point"),
    pytest.param(START, (6, 6), "24/12(2)", "blocked", id="joined-move-ends-on-made-point"),
    pytest.param(pos({6: 14}, {20: 2}, bar=1), (5, 3), "bar/20 6/3", "blocked", id="entering-on-a-made-point"),
    pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 3), "bar/22 bar/20", "blocked", id="second-entry-held"),
    pytest.param(pos({13: 1, 6: 14}, {9: 2, 10: 2}), (4, 3), "13/6", "blocked_intermediate", id="jumping-two"),
    pytest.param(pos({13: 2, 6: 13}, {11: 2}), (2, 2), "13/9(2)", "blocked_intermediate", id="double-jumping"),
    pytest.param(pos({8: 1, 3: 2}), (3, 1), "8/7 3/off", "bearoff_not_home", id="checker-outside"),
    pytest.param(pos({8: 1, 3: 2}), (3, 1), "3/off 8/7", "bearoff_not_home", id="checker-outside-written-first"),
    pytest.param(pos({3: 2}, CLOSED, bar=1), (3, 1), "3/off", "bearoff_not_home", id="checker-on-the-bar"),
    pytest.param(pos({2: 2}, bar=1), (6, 5), "bar/20 2/off", "bearoff_not_home", id="hit-checker-not-home-yet"),
    pytest.param(pos({2: 2}, bar=1), (6, 5), "2/off bar/19", "bearoff_not_home", id="hit-checker-on-the-bar"),
    pytest.param(pos({6: 2, 1: 1}), (4, 1), "6/off 6/5", "bearoff_die_too_small", id="6-off-with-a-4"),
    pytest.param(pos({5: 2}), (2, 1), "5/off", "bearoff_die_too_small", id="5-off-with-2-1"),
    pytest.param(pos({6: 1, 4: 1}), (4, 1), "6/off 4/3", "bearoff_die_too_small", id="6-off-with-4-1"),
    pytest.param(pos({6: 1, 3: 2}), (5, 2), "3/off 6/4", "bearoff_higher_point_occupied", id="3-off-below-a-6"),
    pytest.param(pos({5: 1, 3: 2}), (5, 1), "3/off 3/2", "bearoff_higher_point_occupied", id="3-off-below-a-5"),
    pytest.param(pos({8: 1, 3: 2}), (5, 3), "8/5 3/off", "bearoff_higher_point_occupied", id="after-bearing-in"),
    pytest.param(START, (3, 1), "24/22", "wrong_steps", id="distance-of-no-die"),
    pytest.param(START, (3, 1), "13/10 13/10", "wrong_steps", id="one-die-twice"),
    pytest.param(START, (3, 1), "8/5 6/5 6/5", "wrong_steps", id="three-sub-moves-for-two-dice"),
    pytest.param(START, (3, 1), "24/20/19", "wrong_steps", id="joined-move-then-one-more"),
    pytest.param(START, (6, 6), "13/7(3) 24/18(2)", "wrong_steps", id="five-sub-moves-for-a-double"),
    pytest.param(START, (3, 1), "24/21", "dice_not_all_used", id="one-die-of-two"),
    pytest.param(START, (3, 1), "", "dice_not_all_used", id="empty-play-when-one-exists"),
    pytest.param(START, (6, 6), "13/7(3)", "dice_not_all_used", id="three-of-four"),
    pytest.param(pos({8: 1, 3: 2}, {5: 2}), (5, 3), "8/3", "dice_not_all_used", id="second-die-needs-the-first"),
    pytest.param(pos({2: 2}, bar=1), (6, 5), "bar/20", "dice_not_all_used", id="entered-and-stopped"),
    pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 3), "", "dice_not_all_used", id="no-entry-written"),
    pytest.param(pos({24: 1}, {15: 2}), (3, 3), "24/21", "dice_not_all_used", id="one-of-two-possible-3s"),
    pytest.param(LONE_14, (6, 4), "14/10", "higher_die_not_played", id="lower-die-played"),
    pytest.param(pos({6: 14}, {17: 2, 3: 2, 1: 2}, bar=1), (5, 3), "bar/22", "higher_die_not_played", id="entry"),
]


@pytest.mark.parametrize(("position", "dice", "text", "code"), ILLEGAL)
def test_it_rejects_an_illegal_play_naming_the_rule_it_breaks(position, dice, text, code):
    with pytest.raises(IllegalPlay) as caught:
        validate_play(position, dice, text)
    assert caught.value.code == code
    assert not isinstance(caught.value, NotationError)


def test_it_has_an_illegal_play_for_every_rule_code():
    assert {case.values[3] for case in ILLEGAL} == set(RULES)


@pytest.mark.parametrize(
    "text", ["24/x", "13", "13/7(9)", "7/13", "13/13", "off/6", "26/20", "bar", "13-7", "24//18", "13/7(0)", "6/o"]
)
def test_it_rejects_unreadable_text_as_bad_notation(text):
    with pytest.raises(NotationError) as caught:
        validate_play(START, (6, 6), text)
    assert caught.value.code == "bad_notation"
    assert isinstance(caught.value, IllegalPlay)
    with pytest.raises(NotationError):
        parse_play(text)


@pytest.mark.parametrize(
    ("text", "dice", "roll"), [("24/22", (3, 1), "31"), ("7/4 6/5", (3, 1), "31"), ("13/7(3)", (6, 6), "66")]
)
def test_it_names_the_play_and_the_roll_in_the_message(text, dice, roll):
    with pytest.raises(IllegalPlay) as caught:
        validate_play(START, dice, text)
    message = str(caught.value)
    assert message.startswith(f"{text} with {roll}")
    assert RULES[caught.value.code] in message


def test_it_says_no_move_for_an_empty_play_in_the_message():
    with pytest.raises(IllegalPlay) as caught:
        validate_play(START, (3, 1), "")
    assert str(caught.value).startswith("no move with 31")


# --- validate_play: legal plays as written by people and exporters ------------------------


@pytest.mark.parametrize(
    ("position", "dice", "notation", "variants"),
    [
        pytest.param(
            START, (3, 1), "8/5 6/5",
            ["8/5 6/5", "6/5 8/5", "8/5* 6/5*", "8/5, 6/5", "  8/5   6/5 "],
            id="any-order-and-false-hit-marks",
        ),
        pytest.param(
            START, (6, 5), "24/13", ["24/13", "24/18/13", "24/18 18/13", "18/13 24/18"], id="consolidated"
        ),
        pytest.param(
            BLOT_ON_18, (6, 5), "24/18*/13",
            ["24/18*/13", "24/18/13", "24/18* 18/13", "24/18 18/13", "18/13 24/18*"],
            id="consolidated-hitting-on-the-way",
        ),
        pytest.param(
            START, (6, 6), "24/18(2) 13/7(2)",
            ["13/7(2) 24/18(2)", "13/7 13/7 24/18 24/18", "24/18 13/7 24/18 13/7", "24/18(2) 13/7 13/7"],
            id="grouped",
        ),
        pytest.param(
            BAR_BLOT_22, (3, 1), "bar/22* 6/5",
            ["bar/22* 6/5", "bar/22 6/5", "25/22 6/5", "25/22* 6/5", "6/5 bar/22*", "BAR/22* 6/5"],
            id="entering-with-a-hit",
        ),
        pytest.param(
            BAR_BLOT_22, (3, 1), "bar/22*/21", ["bar/22*/21", "bar/22/21", "bar/22* 22/21", "25/22*/21"],
            id="entering-hitting-and-moving-on",
        ),
        pytest.param(
            pos({6: 13}, {20: 2, 12: 13}, bar=2), (1, 1), "bar/23(2)",
            ["bar/23(2)", "bar/24(2) 24/23(2)", "bar/24 bar/24 24/23 24/23", "25/23(2)", "bar/24/23 bar/24/23"],
            id="two-joined-entries",
        ),
        pytest.param(
            pos({8: 1, 6: 1, 4: 2}), (6, 6), "8/2 6/off 4/off(2)",
            ["6/off 8/2 4/off(2)", "4/off 6/off 4/off 8/2", "8/2 6/0 4/0(2)", "4/0 4/0 6/0 8/2"],
            id="6-off-written-before-8-2",
        ),
        pytest.param(
            pos({8: 1, 6: 1}, {12: 15}), (6, 6), "8/off 6/off",
            ["8/off 6/off", "6/off 8/2 2/off", "8/2/off 6/off", "8/2 6/0 2/0", "6/off 8/off"],
            id="joined-bear-off-around-another",
        ),
        pytest.param(
            pos({6: 2, 5: 2}), (6, 5), "6/off 5/off", ["6/0 5/0", "5/off 6/off", "5/0 6/off"], id="0-for-off"
        ),
        pytest.param(pos({2: 2, 1: 1}), (2, 1), "2/off 1/off", ["2/0 1/0", "1/0 2/0", "2/off 1/0"], id="2/0"),
        pytest.param(
            pos({8: 1, 3: 2}, {5: 2}), (5, 3), "8/off", ["8/off", "3/off 8/3", "8/3 3/off", "8/3/off", "8/3/0"],
            id="bear-in-before-bear-off",
        ),
        pytest.param(TWO_ON_BAR_ONE_POINT_OPEN, (5, 3), "bar/22", ["bar/22", "25/22"], id="partial-entry"),
        pytest.param(LONE_14, (6, 4), "14/8", ["14/8"], id="higher-die-only"),
    ],
)
def test_it_accepts_written_variants_of_a_legal_play(position, dice, notation, variants):
    play = play_written(position, dice, notation)
    for text in variants:
        validated = validate_play(position, dice, text)
        assert validated.position == play.position, text
        assert validated.dice_used == play.dice_used, text
        assert validated.before == position


def test_it_reads_24_13_as_the_route_that_does_not_hit_unless_the_hit_is_written():
    position = BLOT_ON_18_19_OPEN
    assert {p.notation for p in legal_plays(position, (6, 5))} >= {"24/13", "24/18*/13"}
    hitting = validate_play(position, (6, 5), "24/18*/13")
    quiet = validate_play(position, (6, 5), "24/13")
    assert hitting.position == after(position, "24/18/13")
    assert quiet.position == after(position, "24/19/13")
    assert hitting.position.opponent[BAR] == 0 and hitting.position.mover[BAR] == 1
    assert quiet.position.mover[BAR] == 0


def test_it_reads_24_13_through_a_blot_when_the_other_route_is_held():
    # The roller's 19 is the opponent's 6-point: the only route hits on the 18.
    assert validate_play(BLOT_ON_18, (6, 5), "24/13").position == after(BLOT_ON_18, "24/18/13")


def test_it_recomputes_hits_whatever_the_marks_say():
    assert validate_play(BAR_BLOT_22, (3, 1), "bar/22 6/5").position.mover[BAR] == 1
    assert validate_play(START, (3, 1), "8/5* 6/5*").position.mover[BAR] == 0


@pytest.mark.parametrize(
    "position",
    [
        pytest.param(pos({6: 13}, CLOSED, bar=2), id="closed-board"),
        pytest.param(pos({14: 1}, {8: 2, 10: 2}), id="no-die-fits"),
    ],
)
def test_it_accepts_an_empty_play_when_no_die_can_be_played(position):
    assert legal_plays(position, (6, 4)) == []
    play = validate_play(position, (6, 4), "")
    assert play.position == position.passed()
    assert play.dice_used == 0


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "steps", "text"),
    [
        pytest.param(START, ((13, 7), (13, 7)), "13/7(2)", id="grouped"),
        pytest.param(START, ((24, 18), (18, 13)), "24/13", id="joined"),
        pytest.param(BLOT_ON_18, ((24, 18), (18, 13)), "24/18*/13", id="joined-hitting-on-the-way"),
        pytest.param(BLOT_ON_18_19_OPEN, ((24, 19), (19, 13)), "24/13", id="joined-past-a-blot"),
        pytest.param(BLOT_ON_18, ((24, 18), (13, 8)), "24/18* 13/8", id="hit"),
        pytest.param(BAR_BLOT_22, ((25, 22),), "bar/22*", id="entering-with-a-hit"),
        pytest.param(BAR_BLOT_22, ((25, 22), (22, 21)), "bar/22*/21", id="entering-hitting-moving-on"),
        pytest.param(pos({6: 2, 5: 2}), ((6, 0),), "6/off", id="bear-off"),
        pytest.param(START, ((6, 5), (8, 5)), "8/5 6/5", id="highest-first"),
        pytest.param(pos({8: 2, 6: 2}, {5: 1}), ((6, 5), (8, 5)), "8/5 6/5*", id="only-the-first-lands-on-a-blot"),
        pytest.param(START, ((24, 18), (24, 18), (13, 7), (13, 7)), "24/18(2) 13/7(2)", id="two-groups"),
        pytest.param(pos({6: 13}, bar=2), ((25, 24), (25, 24), (24, 23), (24, 23)), "bar/23(2)", id="bar-joined"),
        pytest.param(START, (), "", id="nothing"),
    ],
)
def test_it_writes_plays_the_way_gnubg_does(position, steps, text):
    assert format_steps(position, steps) == text


def test_it_writes_a_plays_notation_from_its_steps():
    for play in legal_plays(BLOT_ON_18, (6, 5)):
        assert play.notation == format_steps(BLOT_ON_18, play.steps) == str(play)


@pytest.mark.parametrize(
    ("text", "hops"),
    [
        ("13/7(2)", [(13, 7, False), (13, 7, False)]),
        ("24/18*/13", [(24, 18, True), (18, 13, False)]),
        ("bar/22*", [(BAR, 22, True)]),
        ("25/22 6/0", [(BAR, 22, False), (6, OFF, False)]),
        ("6/OFF 5/off", [(6, OFF, False), (5, OFF, False)]),
        ("", []),
    ],
)
def test_it_reads_sub_moves_in_the_order_written(text, hops):
    assert parse_play(text) == tuple(Hop(*hop) for hop in hops)


# --- round trip -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12])
def test_it_validates_every_generated_plays_notation_back_to_the_same_position(seed):
    failures = []
    checked = 0
    for position, dice in random_positions(seed, 2500):
        plays = legal_plays(position, dice)
        assert len({play.position for play in plays}) == len(plays)
        for play in plays:
            checked += 1
            try:
                got = validate_play(position, dice, play.notation)
            except IllegalPlay as error:
                failures.append((position_id(position), position.turn, dice, play.notation, play.position, error))
                continue
            if got.position != play.position or got.dice_used != play.dice_used:
                failures.append((position_id(position), position.turn, dice, play.notation, play.position, got))
    assert checked > 20_000
    report = "\n".join(
        f"position id {pid} (side {turn} on roll), dice {dice}, {notation!r}: expected {expected}, got {got}"
        for pid, turn, dice, notation, expected, got in failures[:5]
    )
    assert not failures, f"{len(failures)} notations do not validate back:\n{report}"

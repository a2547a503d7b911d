"""Chouette settlement and rotation (RULES.md §7), the table's options, the roll-off, settling up,
JSON records and the session replay, one test per rule.

Line-up used throughout: Ann is the Box, Bob the Captain, Cat and Dan the crew (Dan at the bottom).
"""

from __future__ import annotations

import itertools
import json
import re

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import chouette
from engine.chouette import (
    BACKGAMMON,
    EXACT_SETTLE_LIMIT,
    GAMMON,
    SINGLE,
    Answer,
    BoxDouble,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    GameStep,
    JoinStep,
    LeaveStep,
    Lineup,
    MemberCube,
    Settlement,
    Side,
    StartStep,
    TeamDouble,
    check_cube_answer,
    chouette_next_lineup,
    chouette_quick_game,
    chouette_settle,
    game_from_json,
    game_to_json,
    ledger_add,
    lineup_from_json,
    lineup_from_rolloff,
    lineup_leave,
    lineup_to_json,
    replay_session,
    settle_up,
    step_from_json,
    step_to_json,
)
from engine.errors import ChouetteError, EngineError

LINE = Lineup("Ann", "Bob", ("Cat", "Dan"))
PLAIN = ChouetteSettings(jacoby=False)
BOX, TEAM = Side.BOX, Side.TEAM
PLAYED, MEMBER_DROPPED, BOX_DROPPED = CubeEnd.PLAYED, CubeEnd.MEMBER_DROPPED, CubeEnd.BOX_DROPPED
TAKE, DROP, BEAVER = Answer.TAKE, Answer.DROP, Answer.BEAVER

# The two line-ups that can follow LINE.
BOX_STAYS = Lineup("Ann", "Cat", ("Dan", "Bob"))
CAPTAIN_BOXES = Lineup("Bob", "Cat", ("Dan", "Ann"))


def cubes(**records: tuple[int, CubeEnd] | int) -> tuple[MemberCube, ...]:
    """``cubes(Bob=2, Dan=(1, MEMBER_DROPPED))``: a value alone means the member played to the end."""
    out = []
    for player, record in records.items():
        value, end = record if isinstance(record, tuple) else (record, PLAYED)
        out.append(MemberCube(player, value, end))
    return tuple(out)


def amounts(settlement: Settlement) -> dict:
    return dict(settlement.amounts)


# --- the board against the Captain ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "level", "expected", "next_lineup"),
    [
        (BOX, SINGLE, {"Ann": 3, "Bob": -1, "Cat": -1, "Dan": -1}, BOX_STAYS),
        (BOX, GAMMON, {"Ann": 6, "Bob": -2, "Cat": -2, "Dan": -2}, BOX_STAYS),
        (BOX, BACKGAMMON, {"Ann": 9, "Bob": -3, "Cat": -3, "Dan": -3}, BOX_STAYS),
        (TEAM, SINGLE, {"Ann": -3, "Bob": 1, "Cat": 1, "Dan": 1}, CAPTAIN_BOXES),
        (TEAM, GAMMON, {"Ann": -6, "Bob": 2, "Cat": 2, "Dan": 2}, CAPTAIN_BOXES),
        (TEAM, BACKGAMMON, {"Ann": -9, "Bob": 3, "Cat": 3, "Dan": 3}, CAPTAIN_BOXES),
    ],
)
def test_it_settles_the_box_against_the_captain_and_rotates(winner, level, expected, next_lineup):
    game = ChouetteGame(winner, level)

    settlement = chouette_settle(LINE, game, PLAIN)

    assert amounts(settlement) == expected
    assert list(settlement.amounts) == ["Ann", "Bob", "Cat", "Dan"]
    assert settlement.captain_won is (winner is TEAM)
    assert settlement.final_captain == "Bob"
    assert chouette_next_lineup(LINE, game) == next_lineup


@pytest.mark.parametrize(
    ("winner", "level", "lineup", "expected", "next_lineup"),
    [
        (BOX, SINGLE, Lineup("Ann", "Bob"), {"Ann": 1, "Bob": -1}, Lineup("Ann", "Bob")),
        (TEAM, GAMMON, Lineup("Ann", "Bob"), {"Ann": -2, "Bob": 2}, Lineup("Bob", "Ann")),
        (BOX, SINGLE, Lineup("Ann", "Bob", ("Cat",)), {"Ann": 2, "Bob": -1, "Cat": -1}, Lineup("Ann", "Cat", ("Bob",))),
        (TEAM, SINGLE, Lineup("Ann", "Bob", ("Cat",)), {"Ann": -2, "Bob": 1, "Cat": 1}, Lineup("Bob", "Cat", ("Ann",))),
    ],
)
def test_it_works_with_two_or_three_players(winner, level, lineup, expected, next_lineup):
    game = ChouetteGame(winner, level)

    assert amounts(chouette_settle(lineup, game, PLAIN)) == expected
    assert chouette_next_lineup(lineup, game) == next_lineup


# --- per-member cubes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "level", "records", "expected"),
    [
        (TEAM, SINGLE, cubes(Bob=2, Cat=4, Dan=1), {"Ann": -7, "Bob": 2, "Cat": 4, "Dan": 1}),
        (BOX, GAMMON, cubes(Bob=2, Cat=4, Dan=1), {"Ann": 14, "Bob": -4, "Cat": -8, "Dan": -2}),
        (TEAM, BACKGAMMON, cubes(Bob=8, Cat=2), {"Ann": -33, "Bob": 24, "Cat": 6, "Dan": 3}),
    ],
)
def test_it_settles_each_member_on_his_own_cube(winner, level, records, expected):
    settlement = chouette_settle(LINE, ChouetteGame(winner, level, records), PLAIN)

    assert amounts(settlement) == expected


# --- drops ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "winner", "expected"),
    [
        # Dan drops the Box's first double: he pays 1 and is out; the others lose 2 each on the board.
        (cubes(Bob=2, Cat=2, Dan=(1, MEMBER_DROPPED)), BOX, {"Ann": 5, "Bob": -2, "Cat": -2, "Dan": -1}),
        # Same drop, but the team wins the board: Dan's loss stands, the others win.
        (cubes(Bob=2, Cat=2, Dan=(1, MEMBER_DROPPED)), TEAM, {"Ann": -3, "Bob": 2, "Cat": 2, "Dan": -1}),
        # Cat drops the Box's redouble to 4: he pays the value before it, 2.
        (cubes(Cat=(2, MEMBER_DROPPED)), BOX, {"Ann": 4, "Bob": -1, "Cat": -2, "Dan": -1}),
    ],
)
def test_it_settles_a_member_who_drops_the_box_double_at_the_value_before_the_double(records, winner, expected):
    settlement = chouette_settle(LINE, ChouetteGame(winner, SINGLE, records), PLAIN)

    assert amounts(settlement) == expected
    assert settlement.final_captain == "Bob"
    assert chouette_next_lineup(LINE, ChouetteGame(winner, SINGLE, records)) == (
        BOX_STAYS if winner is BOX else CAPTAIN_BOXES
    )


@pytest.mark.parametrize(
    ("records", "winner", "expected"),
    [
        # The Box drops Dan's double: it pays him 1; the board goes on for Bob and Cat.
        (cubes(Dan=(1, BOX_DROPPED)), BOX, {"Ann": 1, "Bob": -1, "Cat": -1, "Dan": 1}),
        # The Box drops Cat's redouble to 8 (Cat owned the cube at 4): it pays him 4.
        (cubes(Cat=(4, BOX_DROPPED)), TEAM, {"Ann": -6, "Bob": 1, "Cat": 4, "Dan": 1}),
    ],
)
def test_it_settles_a_member_whose_double_the_box_drops_at_the_value_before_the_double(records, winner, expected):
    assert amounts(chouette_settle(LINE, ChouetteGame(winner, SINGLE, records), PLAIN)) == expected


@pytest.mark.parametrize(
    ("winner", "expected"),
    [
        # Bob dropped; Cat captained the rest and lost: the Box stays, Bob to the bottom.
        (BOX, {"Ann": 5, "Bob": -1, "Cat": -2, "Dan": -2}),
        # Bob dropped; Cat captained the rest and won the board: still Bob lost, so the Box stays.
        (TEAM, {"Ann": -3, "Bob": -1, "Cat": 2, "Dan": 2}),
    ],
)
def test_it_lets_the_next_member_captain_after_the_captain_drops_and_rotates_by_the_captains_result(winner, expected):
    game = ChouetteGame(winner, SINGLE, cubes(Bob=(1, MEMBER_DROPPED), Cat=2, Dan=2))

    settlement = chouette_settle(LINE, game, PLAIN)

    assert amounts(settlement) == expected
    assert settlement.final_captain == "Cat"
    assert settlement.captain_won is False
    # Cat captained for that game only: the ordinary rotation puts him up as Captain anyway,
    # and Bob goes to the bottom because he lost.
    assert chouette_next_lineup(LINE, game) == BOX_STAYS


@pytest.mark.parametrize(
    ("winner", "level", "expected"),
    [
        # The Box drops Bob's double (pays 1) and then beats Cat and Dan on the board.
        (BOX, SINGLE, {"Ann": 1, "Bob": 1, "Cat": -1, "Dan": -1}),
        # ... or loses the board to them as well.
        (TEAM, SINGLE, {"Ann": -3, "Bob": 1, "Cat": 1, "Dan": 1}),
    ],
)
def test_it_makes_the_captain_the_next_box_when_the_box_drops_his_double(winner, level, expected):
    game = ChouetteGame(winner, level, cubes(Bob=(1, BOX_DROPPED)))

    settlement = chouette_settle(LINE, game, PLAIN)

    assert amounts(settlement) == expected
    assert settlement.final_captain == "Cat"
    assert settlement.captain_won is True
    assert chouette_next_lineup(LINE, game) == CAPTAIN_BOXES


def test_it_settles_a_game_where_everyone_left_on_the_cube():
    game = ChouetteGame(None, SINGLE, cubes(Bob=(1, BOX_DROPPED), Cat=(2, BOX_DROPPED), Dan=(1, MEMBER_DROPPED)))

    settlement = chouette_settle(LINE, game, PLAIN)

    assert amounts(settlement) == {"Ann": -2, "Bob": 1, "Cat": 2, "Dan": -1}
    assert settlement.final_captain is None
    assert chouette_next_lineup(LINE, game) == CAPTAIN_BOXES


# --- line-up -------------------------------------------------------------------------------------


def test_it_puts_a_newcomer_at_the_bottom_of_the_line_and_deals_him_in():
    joined = LINE.join("Eve")

    assert joined == Lineup("Ann", "Bob", ("Cat", "Dan", "Eve"))
    assert LINE.crew == ("Cat", "Dan")
    assert amounts(chouette_settle(joined, ChouetteGame(BOX), PLAIN))["Eve"] == -1
    assert chouette_next_lineup(joined, ChouetteGame(BOX)) == Lineup("Ann", "Cat", ("Dan", "Eve", "Bob"))


def test_it_gives_the_team_from_the_top_and_everyone_from_the_box():
    assert LINE.team == ("Bob", "Cat", "Dan")
    assert LINE.players == ("Ann", "Bob", "Cat", "Dan")
    assert Lineup("Ann", "Bob", ["Cat"]).crew == ("Cat",)


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: Lineup(None, "Bob"), "missing_box"),
        (lambda: Lineup("Ann", None), "missing_captain"),
        (lambda: Lineup("Ann", "Ann"), "duplicate_player"),
        (lambda: Lineup("Ann", "Bob", ("Cat", "Bob")), "duplicate_player"),
        (lambda: Lineup("Ann", "Bob", ("Cat", None)), "bad_player"),
        (lambda: Lineup("Ann", "Bob", (["Cat"],)), "bad_player"),
        (lambda: LINE.join("Dan"), "duplicate_player"),
        (lambda: LINE.join("Ann"), "duplicate_player"),
    ],
)
def test_it_rejects_a_bad_lineup(make, code):
    with pytest.raises(ChouetteError) as caught:
        make()
    assert caught.value.code == code


# --- single cube ---------------------------------------------------------------------------------


SINGLE_CUBE = ChouetteSettings(single_cube=True, jacoby=False)


@pytest.mark.parametrize(
    ("records", "winner", "level", "expected"),
    [
        (cubes(Bob=2, Cat=2, Dan=2), TEAM, GAMMON, {"Ann": -12, "Bob": 4, "Cat": 4, "Dan": 4}),
        # Dan dropped the Box's double, the others took the shared cube to 2.
        (cubes(Bob=2, Cat=2, Dan=(1, MEMBER_DROPPED)), BOX, SINGLE, {"Ann": 5, "Bob": -2, "Cat": -2, "Dan": -1}),
        # The Box dropped the team's redouble: everyone still in wins the value before it.
        (
            cubes(Bob=(2, BOX_DROPPED), Cat=(2, BOX_DROPPED), Dan=(2, BOX_DROPPED)),
            None,
            SINGLE,
            {
                "Ann": -6,
                "Bob": 2,
                "Cat": 2,
                "Dan": 2,
            },
        ),
    ],
)
def test_it_settles_the_single_cube_variant(records, winner, level, expected):
    assert amounts(chouette_settle(LINE, ChouetteGame(winner, level, records), SINGLE_CUBE)) == expected


@pytest.mark.parametrize(
    ("game", "code"),
    [
        (ChouetteGame(TEAM, SINGLE, cubes(Bob=2, Cat=4)), "single_cube_values"),
        (ChouetteGame(TEAM, SINGLE, cubes(Bob=(2, BOX_DROPPED), Cat=2, Dan=2)), "single_cube_split"),
        (
            ChouetteGame(
                TEAM,
                SINGLE,
                cubes(Bob=(1, BOX_DROPPED), Cat=2, Dan=2),
                log=(TeamDouble(("Dan", "Cat", "Bob"), {"Bob"}),),
            ),
            "single_cube_split",
        ),
    ],
)
def test_it_rejects_a_split_single_cube(game, code):
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, game, SINGLE_CUBE)
    assert caught.value.code == code
    # The same records are fine with one cube per member.
    chouette_settle(LINE, game, PLAIN)


# --- Jacoby --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("jacoby", "level", "expected"),
    [
        # Bob's cube was turned (2): his gammon counts; Cat and Dan never turned theirs.
        (True, GAMMON, {"Ann": -6, "Bob": 4, "Cat": 1, "Dan": 1}),
        (True, BACKGAMMON, {"Ann": -8, "Bob": 6, "Cat": 1, "Dan": 1}),
        (False, GAMMON, {"Ann": -8, "Bob": 4, "Cat": 2, "Dan": 2}),
        (False, BACKGAMMON, {"Ann": -12, "Bob": 6, "Cat": 3, "Dan": 3}),
        (True, SINGLE, {"Ann": -4, "Bob": 2, "Cat": 1, "Dan": 1}),
    ],
)
def test_it_counts_gammons_single_on_unturned_cubes_only_with_jacoby(jacoby, level, expected):
    game = ChouetteGame(TEAM, level, cubes(Bob=2))

    assert amounts(chouette_settle(LINE, game, ChouetteSettings(jacoby=jacoby))) == expected


def test_it_plays_with_jacoby_on_by_default():
    assert ChouetteSettings().jacoby is True


# --- Box partner ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "records", "expected"),
    [
        # The Box side wins 3 from Bob and Cat: Ann 2 (odd point), Dan 1.
        (BOX, cubes(Bob=2), {"Ann": 2, "Bob": -2, "Cat": -1, "Dan": 1}),
        # The Box side loses 3: Ann -2 (odd point), Dan -1.
        (TEAM, cubes(Bob=2), {"Ann": -2, "Bob": 2, "Cat": 1, "Dan": -1}),
        # Even result: halves.
        (BOX, cubes(Bob=2, Cat=2), {"Ann": 2, "Bob": -2, "Cat": -2, "Dan": 2}),
        # Nobody played to the end; the Box side is up a single point: all of it to the Box.
        (None, cubes(Bob=(1, BOX_DROPPED), Cat=(2, MEMBER_DROPPED)), {"Ann": 1, "Bob": 1, "Cat": -2, "Dan": 0}),
    ],
)
def test_it_shares_the_box_result_with_the_box_partner_odd_point_to_the_box(winner, records, expected):
    game = ChouetteGame(winner, SINGLE, records, box_partner="Dan")

    settlement = chouette_settle(LINE, game, PLAIN)

    assert amounts(settlement) == expected
    # The partner keeps his place in the line.
    assert "Dan" in chouette_next_lineup(LINE, game).crew


@pytest.mark.parametrize(
    ("game", "code"),
    [
        (ChouetteGame(BOX, box_partner="Bob"), "bad_box_partner"),
        (ChouetteGame(BOX, box_partner="Ann"), "bad_box_partner"),
        (ChouetteGame(BOX, box_partner="Eve"), "bad_box_partner"),
        (ChouetteGame(BOX, cubes=cubes(Dan=2), box_partner="Dan"), "box_partner_has_cube"),
    ],
)
def test_it_rejects_a_box_partner_who_is_not_a_cubeless_crew_member(game, code):
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, game, PLAIN)
    assert caught.value.code == code


# --- house options -------------------------------------------------------------------------------


HALF = ChouetteSettings(box_must_take_half=True)
BEAVER_RULE = ChouetteSettings(lone_taker_must_beaver=True)
FIVE = Lineup("Ann", "Bob", ("Cat", "Dan", "Eve"))


@pytest.mark.parametrize(
    ("moment", "active", "settings", "code"),
    [
        # All four cubes turned at once: the Box takes 2 of 4 (half) - fine; 1 of 4 - not; none - fine.
        (TeamDouble(("Eve", "Dan", "Cat", "Bob"), {"Eve", "Dan"}), FIVE.team, HALF, None),
        (TeamDouble(("Eve", "Dan", "Cat", "Bob"), {"Eve", "Dan", "Cat"}), FIVE.team, HALF, "box_must_take_half"),
        (TeamDouble(("Eve", "Dan", "Cat", "Bob"), {"Eve", "Dan", "Cat", "Bob"}), FIVE.team, HALF, None),
        # Three cubes at once: at least two taken (half rounds up).
        (TeamDouble(("Dan", "Cat", "Bob"), {"Dan", "Cat"}), LINE.team, HALF, "box_must_take_half"),
        (TeamDouble(("Dan", "Cat", "Bob"), {"Dan"}), LINE.team, HALF, None),
        # Not all cubes turned (Eve kept hers): the option does not apply ...
        (TeamDouble(("Dan", "Cat", "Bob"), {"Dan", "Cat"}), FIVE.team, HALF, None),
        # ... unless Eve is already out of the game: then these are all the team's cubes.
        (TeamDouble(("Dan", "Cat", "Bob"), {"Dan", "Cat"}), ("Bob", "Cat", "Dan"), HALF, "box_must_take_half"),
        # Without the option, any mix.
        (TeamDouble(("Dan", "Cat", "Bob"), {"Dan", "Cat"}), LINE.team, ChouetteSettings(), None),
        # Lone taker: alone among several doubled members he must beaver.
        (BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", TAKE))), LINE.team, BEAVER_RULE, "lone_taker_must_beaver"),
        (BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", BEAVER))), LINE.team, BEAVER_RULE, None),
        (BoxDouble((("Dan", DROP), ("Cat", TAKE), ("Bob", TAKE))), LINE.team, BEAVER_RULE, None),
        (BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", DROP))), LINE.team, BEAVER_RULE, None),
        # Doubled on his own he is not a lone taker.
        (BoxDouble((("Bob", TAKE),)), ("Bob",), BEAVER_RULE, None),
        (BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", TAKE))), LINE.team, ChouetteSettings(), None),
    ],
)
def test_it_checks_answers_against_the_house_options(moment, active, settings, code):
    if code is None:
        check_cube_answer(moment, active, settings)
        return
    with pytest.raises(ChouetteError) as caught:
        check_cube_answer(moment, active, settings)
    assert caught.value.code == code
    assert "house rule" in caught.value.message


@pytest.mark.parametrize(
    ("game", "settings", "code"),
    [
        (
            ChouetteGame(
                TEAM,
                SINGLE,
                cubes(Bob=2, Cat=(1, BOX_DROPPED), Dan=(1, BOX_DROPPED)),
                log=(TeamDouble(("Dan", "Cat", "Bob"), {"Dan", "Cat"}),),
            ),
            HALF,
            "box_must_take_half",
        ),
        (
            ChouetteGame(
                BOX,
                SINGLE,
                cubes(Bob=2, Cat=(1, MEMBER_DROPPED), Dan=(1, MEMBER_DROPPED)),
                log=(BoxDouble((("Dan", DROP), ("Cat", DROP), ("Bob", TAKE))),),
            ),
            BEAVER_RULE,
            "lone_taker_must_beaver",
        ),
    ],
)
def test_it_enforces_the_house_options_on_a_game_log(game, settings, code):
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, game, settings)
    assert caught.value.code == code
    chouette_settle(LINE, game, ChouetteSettings())


# --- order of cube decisions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("log", "records", "code"),
    [
        # Bottom of the line first, up to the Captain: accepted.
        (
            (BoxDouble((("Dan", DROP), ("Cat", TAKE), ("Bob", TAKE))),),
            cubes(Bob=2, Cat=2, Dan=(1, MEMBER_DROPPED)),
            None,
        ),
        ((TeamDouble(("Dan", "Bob")), BoxDouble((("Cat", TAKE),))), cubes(Bob=2, Cat=2, Dan=2), None),
        # After the Captain dropped, Cat captains; the order still runs bottom up.
        (
            (BoxDouble((("Dan", TAKE), ("Bob", DROP))), TeamDouble(("Dan", "Cat"))),
            cubes(Bob=(1, MEMBER_DROPPED), Cat=2, Dan=4),
            None,
        ),
        # Captain first, or crew out of order: rejected.
        (
            (BoxDouble((("Bob", TAKE), ("Cat", TAKE), ("Dan", DROP))),),
            cubes(Bob=2, Cat=2, Dan=(1, MEMBER_DROPPED)),
            "decision_order",
        ),
        ((BoxDouble((("Cat", TAKE), ("Dan", TAKE), ("Bob", TAKE))),), cubes(Bob=2, Cat=2, Dan=2), "decision_order"),
        ((TeamDouble(("Bob", "Dan")),), cubes(Bob=2, Dan=2), "decision_order"),
        # A member who is out cannot decide again.
        (
            (BoxDouble((("Dan", DROP),)), BoxDouble((("Dan", TAKE), ("Bob", TAKE)))),
            cubes(Bob=2, Dan=(1, MEMBER_DROPPED)),
            "member_out",
        ),
        # The log and the records must agree on who dropped.
        ((BoxDouble((("Dan", DROP),)),), cubes(Dan=2), "log_mismatch"),
        ((BoxDouble((("Dan", TAKE),)),), cubes(Dan=(1, MEMBER_DROPPED)), "log_mismatch"),
        # Only team members with a cube decide.
        ((BoxDouble((("Ann", TAKE),)),), (), "unknown_player"),
    ],
)
def test_it_rejects_cube_decisions_out_of_order(log, records, code):
    game = ChouetteGame(BOX, SINGLE, records, log=log)
    if code is None:
        chouette_settle(LINE, game, PLAIN)
        chouette_next_lineup(LINE, game)
        return
    for check in (lambda: chouette_settle(LINE, game, PLAIN), lambda: chouette_next_lineup(LINE, game)):
        with pytest.raises(ChouetteError) as caught:
            check()
        assert caught.value.code == code


# --- malformed records ---------------------------------------------------------------------------


ERROR_CASES = [
    (lambda: Lineup(None, "Bob"), "missing_box"),
    (lambda: Lineup("Ann", None), "missing_captain"),
    (lambda: Lineup("Ann", "Bob", (None,)), "bad_player"),
    (lambda: Lineup("Ann", "Ann"), "duplicate_player"),
    (lambda: MemberCube("Bob", 3), "bad_cube_value"),
    (lambda: MemberCube("Bob", 0), "bad_cube_value"),
    (lambda: MemberCube("Bob", True), "bad_cube_value"),
    (lambda: MemberCube("Bob", 2, "resigned"), "bad_cube_end"),
    (lambda: ChouetteGame(TEAM, SINGLE, (("Bob", 2),)), "bad_cube"),
    (lambda: ChouetteGame("crew"), "bad_winner"),
    (lambda: ChouetteGame(BOX, 4), "bad_level"),
    (lambda: ChouetteGame(BOX, True), "bad_level"),
    (lambda: ChouetteGame(BOX, log=("Bob doubles",)), "bad_log"),
    (lambda: BoxDouble((("Dan", "pass"),)), "bad_answer"),
    (lambda: TeamDouble(("Dan",), {"Cat"}), "bad_answer"),
    (lambda: BoxDouble((("Dan", DROP), ("Dan", TAKE))), "duplicate_decision"),
    (lambda: TeamDouble(("Dan", "Dan")), "duplicate_decision"),
    (lambda: chouette_settle(LINE, ChouetteGame(BOX, cubes=cubes(Ann=2)), PLAIN), "unknown_player"),
    (lambda: chouette_settle(LINE, ChouetteGame(BOX, cubes=cubes(Eve=2)), PLAIN), "unknown_player"),
    (lambda: chouette_settle(LINE, ChouetteGame(BOX, cubes=cubes(Bob=2) + cubes(Bob=4)), PLAIN), "duplicate_cube"),
    (lambda: chouette_settle(LINE, ChouetteGame(None), PLAIN), "missing_result"),
    (lambda: chouette_next_lineup(LINE, ChouetteGame(None)), "missing_result"),
    (
        lambda: chouette_settle(Lineup("Ann", "Bob"), ChouetteGame(BOX, cubes=cubes(Bob=(1, MEMBER_DROPPED))), PLAIN),
        "unexpected_result",
    ),
    (lambda: chouette_settle(LINE, ChouetteGame(BOX, box_partner="Eve"), PLAIN), "bad_box_partner"),
    (
        lambda: chouette_settle(LINE, ChouetteGame(BOX, cubes=cubes(Dan=2), box_partner="Dan"), PLAIN),
        "box_partner_has_cube",
    ),
    (lambda: chouette_settle(LINE, ChouetteGame(BOX, cubes=cubes(Bob=2)), SINGLE_CUBE), "single_cube_values"),
    (lambda: ledger_add({"Ann": 1}, chouette_settle(LINE, ChouetteGame(BOX), PLAIN)), "ledger_unbalanced"),
]


@pytest.mark.parametrize(("make", "code"), ERROR_CASES)
def test_it_raises_a_chouette_error_with_a_stable_code(make, code):
    with pytest.raises(ChouetteError) as caught:
        make()
    assert isinstance(caught.value, EngineError)
    assert caught.value.code == code
    assert caught.value.as_dict()["code"] == code


def test_it_documents_every_code_it_raises_and_only_those():
    raised = {code for _, code in ERROR_CASES} | {
        # Raised in the tables above (order of decisions, single cube, house options).
        "decision_order",
        "member_out",
        "log_mismatch",
        "single_cube_split",
        "box_must_take_half",
        "lone_taker_must_beaver",
        # The house rules a table may play by, raised in tests/engine/test_chouette_house_rules.py.
        "three_handed_both_cubes",
        "box_must_take_captain",
        "captain_alone_must_beaver",
        "box_partner_not_next",
    } | RAISED_BELOW
    documented = re.findall(r"``([a-z]+_\w+)``", chouette.__doc__.split("Errors\n------")[1])

    assert len(documented) == len(set(documented))
    assert set(documented) == raised


# --- ledger --------------------------------------------------------------------------------------


def test_it_keeps_a_running_ledger_that_sums_to_zero():
    first = chouette_settle(LINE, ChouetteGame(BOX, GAMMON, cubes(Bob=2)), PLAIN)
    second_line = chouette_next_lineup(LINE, ChouetteGame(BOX, GAMMON, cubes(Bob=2))).join("Eve")
    second = chouette_settle(second_line, ChouetteGame(TEAM, SINGLE, cubes(Cat=4)), PLAIN)

    ledger = ledger_add({}, first)
    after = ledger_add(ledger, second)

    assert ledger == {"Ann": 8, "Bob": -4, "Cat": -2, "Dan": -2}
    assert after == {"Ann": 1, "Bob": -3, "Cat": 2, "Dan": -1, "Eve": 1}
    assert sum(after.values()) == 0


def test_it_leaves_the_given_ledger_and_settlement_unchanged():
    settlement = chouette_settle(LINE, ChouetteGame(BOX), PLAIN)
    ledger = {"Ann": 0}

    ledger_add(ledger, settlement)

    assert ledger == {"Ann": 0}
    with pytest.raises(TypeError):
        settlement.amounts["Ann"] = 0  # type: ignore[index]


# --- properties over random games ----------------------------------------------------------------


@st.composite
def random_games(draw):
    names = draw(st.lists(st.integers(0, 50), min_size=2, max_size=8, unique=True))
    lineup = Lineup(names[0], names[1], tuple(names[2:]))
    partner = draw(st.sampled_from((None, *lineup.crew))) if lineup.crew else None
    records = []
    for player in lineup.team:
        if player == partner:
            continue
        value = 2 ** draw(st.integers(0, 6))
        end = draw(st.sampled_from(tuple(CubeEnd)))
        records.append(MemberCube(player, value, end))
    if not any(record.end is PLAYED for record in records):
        winner = None
    else:
        winner = draw(st.sampled_from(tuple(Side)))
    game = ChouetteGame(winner, draw(st.sampled_from((SINGLE, GAMMON, BACKGAMMON))), tuple(records), partner)
    settings = ChouetteSettings(jacoby=draw(st.booleans()))
    return lineup, game, settings


@given(random_games())
def test_it_always_settles_to_zero_and_rotates_within_the_same_players(case):
    lineup, game, settings = case

    settlement = chouette_settle(lineup, game, settings)
    following = chouette_next_lineup(lineup, game)

    assert sum(settlement.amounts.values()) == 0
    assert set(settlement.amounts) == set(lineup.players)
    assert sorted(following.players) == sorted(lineup.players)
    assert following.box == (lineup.captain if settlement.captain_won else lineup.box)
    assert following.team[-1] == (lineup.box if settlement.captain_won else lineup.captain)
    if game.box_partner is not None:
        box, partner = settlement.amounts[lineup.box], settlement.amounts[game.box_partner]
        assert abs(box) - abs(partner) in (0, 1)
    assert sum(ledger_add(ledger_add({}, settlement), settlement).values()) == 0


# --- the table's options -------------------------------------------------------------------------


def test_the_default_table_keeps_the_first_versions_behaviour():
    settings = ChouetteSettings()

    assert (settings.beavers, settings.raccoons, settings.automatic_doubles, settings.box_partner_from) == (
        True,
        False,
        0,
        3,
    )
    assert settings.box_partner_allowed(3) and not settings.box_partner_allowed(2)
    assert not ChouetteSettings(box_partner_from=None).box_partner_allowed(10)


SETTINGS_REFUSALS = [
    ({"raccoons": True, "beavers": False}, "raccoons_without_beavers", "raccoons"),
    ({"automatic_doubles": -1}, "bad_settings", "automatic_doubles"),
    ({"automatic_doubles": True}, "bad_settings", "automatic_doubles"),
    ({"automatic_doubles": "2"}, "bad_settings", "automatic_doubles"),
    ({"box_partner_from": 2}, "bad_settings", "box_partner_from"),
    ({"box_partner_from": -4}, "bad_settings", "box_partner_from"),
    ({"box_partner_from": 4.0}, "bad_settings", "box_partner_from"),
    ({"jacoby": "yes"}, "bad_settings", "jacoby"),
    ({"beavers": 1}, "bad_settings", "beavers"),
    ({"lone_taker_must_beaver": True, "beavers": False}, "bad_settings", "lone_taker_must_beaver"),
]


@pytest.mark.parametrize(("options", "code", "field_name"), SETTINGS_REFUSALS)
def test_it_refuses_table_options_that_contradict_each_other_or_make_no_sense(options, code, field_name):
    with pytest.raises(ChouetteError) as caught:
        ChouetteSettings(**options)
    assert caught.value.code == code
    assert caught.value.details["field"] == field_name


# --- beavers and raccoons ------------------------------------------------------------------------

NO_BEAVERS = ChouetteSettings(jacoby=False, beavers=False)
RACCOONS = ChouetteSettings(jacoby=False, raccoons=True)

ANSWER_REFUSALS = [
    (BoxDouble((("Dan", DROP), ("Bob", BEAVER))), NO_BEAVERS, "beavers_not_allowed", "Bob"),
    (TeamDouble(("Dan", "Bob"), beavers={"Dan"}), NO_BEAVERS, "beavers_not_allowed", "Dan"),
    (BoxDouble((("Dan", BEAVER), ("Bob", TAKE)), raccoons={"Dan"}), PLAIN, "raccoons_not_allowed", "Dan"),
    (TeamDouble(("Dan",), beavers={"Dan"}, raccoons={"Dan"}), PLAIN, "raccoons_not_allowed", "Dan"),
]


@pytest.mark.parametrize(("moment", "settings", "code", "player"), ANSWER_REFUSALS)
def test_it_refuses_a_beaver_or_raccoon_at_a_table_without_them(moment, settings, code, player):
    with pytest.raises(ChouetteError) as caught:
        check_cube_answer(moment, LINE.team, settings)
    assert (caught.value.code, caught.value.details["player"]) == (code, player)
    check_cube_answer(moment, LINE.team, RACCOONS)


def test_it_refuses_a_beaver_in_a_game_log_at_a_table_without_beavers_and_says_which_moment():
    game = ChouetteGame(
        TEAM,
        SINGLE,
        cubes(Bob=2, Dan=4),
        log=(TeamDouble(("Bob",)), BoxDouble((("Dan", BEAVER),))),
    )

    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, game, NO_BEAVERS)

    assert caught.value.code == "beavers_not_allowed"
    assert caught.value.details["moment"] == 1
    assert amounts(chouette_settle(LINE, game, PLAIN)) == {"Ann": -7, "Bob": 2, "Cat": 1, "Dan": 4}


@pytest.mark.parametrize(
    ("moment", "record", "expected"),
    [
        # The Box doubles Dan (cube 1): take 2; beaver 4; the Box drops the beaver: Dan wins 2;
        # raccoon 8; Dan drops the raccoon: he loses 4.
        (BoxDouble((("Dan", TAKE),)), (2, PLAYED), -2),
        (BoxDouble((("Dan", BEAVER),)), (4, PLAYED), -4),
        (BoxDouble((("Dan", BEAVER),), redouble_drops={"Dan"}), (2, BOX_DROPPED), 2),
        (BoxDouble((("Dan", BEAVER),), raccoons={"Dan"}), (8, PLAYED), -8),
        (BoxDouble((("Dan", BEAVER),), raccoons={"Dan"}, redouble_drops={"Dan"}), (4, MEMBER_DROPPED), -4),
        # Dan doubles the Box: taken 2; the Box beavers 4; Dan drops the beaver: he loses 2;
        # Dan raccoons 8; the Box drops the raccoon: Dan wins 4.
        (TeamDouble(("Dan",)), (2, PLAYED), -2),
        (TeamDouble(("Dan",), beavers={"Dan"}), (4, PLAYED), -4),
        (TeamDouble(("Dan",), beavers={"Dan"}, redouble_drops={"Dan"}), (2, MEMBER_DROPPED), -2),
        (TeamDouble(("Dan",), beavers={"Dan"}, raccoons={"Dan"}), (8, PLAYED), -8),
        (TeamDouble(("Dan",), beavers={"Dan"}, raccoons={"Dan"}, redouble_drops={"Dan"}), (4, BOX_DROPPED), 4),
    ],
)
def test_it_follows_beavers_and_raccoons_to_the_cube_they_leave(moment, record, expected):
    game = ChouetteGame(BOX, SINGLE, cubes(Dan=record), log=(moment,))

    assert amounts(chouette_settle(LINE, game, RACCOONS))["Dan"] == expected
    # Any other face for Dan contradicts the log.
    wrong = ChouetteGame(BOX, SINGLE, cubes(Dan=(record[0] * 2, record[1])), log=(moment,))
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, wrong, RACCOONS)
    assert caught.value.code == "log_mismatch"


@pytest.mark.parametrize(
    ("log", "records", "code"),
    [
        # Dan took the Box's double and owns his cube: the Box cannot double it again ...
        ((BoxDouble((("Dan", TAKE),)), BoxDouble((("Dan", TAKE),))), cubes(Dan=4), "not_cube_owner"),
        # ... but Dan may redouble it.
        ((BoxDouble((("Dan", TAKE),)), TeamDouble(("Dan",))), cubes(Dan=4), None),
        # The Box took Dan's double: Dan cannot double again; the Box may.
        ((TeamDouble(("Dan",)), TeamDouble(("Dan",))), cubes(Dan=4), "not_cube_owner"),
        ((TeamDouble(("Dan",)), BoxDouble((("Dan", TAKE),))), cubes(Dan=4), None),
        # A beaver keeps the cube with the beaverer, and so does a raccoon.
        ((BoxDouble((("Dan", BEAVER),), raccoons={"Dan"}), BoxDouble((("Dan", TAKE),))), cubes(Dan=16), "not_cube_owner"),
        ((TeamDouble(("Dan",), beavers={"Dan"}), TeamDouble(("Dan",))), cubes(Dan=8), "not_cube_owner"),
        # Other members' cubes are their own.
        ((BoxDouble((("Dan", TAKE),)), BoxDouble((("Cat", TAKE),))), cubes(Cat=2, Dan=2), None),
    ],
)
def test_it_lets_only_the_owner_or_a_centred_cube_be_doubled(log, records, code):
    game = ChouetteGame(BOX, SINGLE, records, log=log)
    if code is None:
        chouette_settle(LINE, game, RACCOONS)
        return
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, game, RACCOONS)
    assert (caught.value.code, caught.value.details["moment"], caught.value.details["player"]) == (code, 1, "Dan")


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: BoxDouble((("Dan", TAKE),), raccoons={"Dan"}), "bad_answer"),
        (lambda: BoxDouble((("Dan", DROP),), redouble_drops={"Dan"}), "bad_answer"),
        (lambda: BoxDouble((("Dan", BEAVER),), raccoons={"Cat"}), "bad_answer"),
        (lambda: BoxDouble(()), "bad_answer"),
        (lambda: BoxDouble((("Dan", BEAVER),), raccoons={None}), "bad_player"),
        (lambda: BoxDouble((("Dan", BEAVER),), raccoons=[["Dan"]]), "bad_answer"),
        (lambda: TeamDouble(()), "bad_answer"),
        (lambda: TeamDouble(("Dan",), box_drops={"Dan"}, beavers={"Dan"}), "bad_answer"),
        (lambda: TeamDouble(("Dan",), beavers={"Cat"}), "bad_answer"),
        (lambda: TeamDouble(("Dan",), raccoons={"Dan"}), "bad_answer"),
        (lambda: TeamDouble(("Dan",), redouble_drops={"Dan"}), "bad_answer"),
    ],
)
def test_it_refuses_a_raccoon_or_redouble_drop_without_a_beaver_and_an_empty_moment(make, code):
    with pytest.raises(ChouetteError) as caught:
        make()
    assert caught.value.code == code


# --- automatic doubles ---------------------------------------------------------------------------

AUTOMATIC = ChouetteSettings(jacoby=False, automatic_doubles=2)


@pytest.mark.parametrize(
    ("automatic", "records", "expected"),
    [
        # One automatic double: every cube starts at 2.
        (1, (), {"Ann": -6, "Bob": 2, "Cat": 2, "Dan": 2}),
        # Two: at 4, and Dan's double by hand makes 8.
        (2, cubes(Dan=8), {"Ann": -16, "Bob": 4, "Cat": 4, "Dan": 8}),
        # Dan dropped the Box's first double at 2: he pays 2.
        (1, cubes(Dan=(2, MEMBER_DROPPED)), {"Ann": -2, "Bob": 2, "Cat": 2, "Dan": -2}),
    ],
)
def test_it_starts_every_cube_at_the_automatic_doubles(automatic, records, expected):
    game = ChouetteGame(TEAM, SINGLE, records, automatic=automatic)

    assert amounts(chouette_settle(LINE, game, AUTOMATIC)) == expected


def test_it_derives_cubes_from_the_log_starting_at_the_automatic_doubles():
    game = ChouetteGame(
        BOX, SINGLE, cubes(Bob=4, Cat=(2, MEMBER_DROPPED), Dan=4), automatic=1,
        log=(BoxDouble((("Dan", TAKE), ("Cat", DROP), ("Bob", TAKE))),),
    )

    assert amounts(chouette_settle(LINE, game, AUTOMATIC)) == {"Ann": 10, "Bob": -4, "Cat": -2, "Dan": -4}


@pytest.mark.parametrize(
    ("game", "settings", "code"),
    [
        (ChouetteGame(TEAM, automatic=1), PLAIN, "too_many_automatic"),
        (ChouetteGame(TEAM, automatic=3), AUTOMATIC, "too_many_automatic"),
        (ChouetteGame(TEAM, SINGLE, cubes(Dan=2), automatic=2), AUTOMATIC, "cube_below_start"),
        (ChouetteGame(TEAM, SINGLE, cubes(Dan=(1, MEMBER_DROPPED)), automatic=1), AUTOMATIC, "cube_below_start"),
    ],
)
def test_it_refuses_more_automatic_doubles_than_the_table_allows_and_cubes_below_their_start(game, settings, code):
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(LINE, game, settings)
    assert caught.value.code == code


def test_the_rotation_alone_does_not_judge_the_tables_options_unless_given_them():
    game = ChouetteGame(TEAM, automatic=1)

    assert chouette_next_lineup(LINE, game) == CAPTAIN_BOXES
    with pytest.raises(ChouetteError) as caught:
        chouette_next_lineup(LINE, game, PLAIN)
    assert caught.value.code == "too_many_automatic"


@pytest.mark.parametrize(("automatic", "each"), [(0, 1), (1, 4), (2, 8)])
def test_jacoby_counts_an_automatically_doubled_cube_as_turned_as_rules_md_says(automatic, each):
    # RULES.md §2: a tie "turns the centred cube"; §5: Jacoby applies "unless the cube has been turned".
    settings = ChouetteSettings(jacoby=True, automatic_doubles=2)

    settlement = chouette_settle(LINE, ChouetteGame(TEAM, GAMMON, automatic=automatic), settings)

    assert amounts(settlement) == {"Ann": -3 * each, "Bob": each, "Cat": each, "Dan": each}


@pytest.mark.parametrize("automatic", [-1, True, "1", 31])
def test_it_refuses_an_automatic_count_that_is_not_a_small_whole_number(automatic):
    with pytest.raises(ChouetteError) as caught:
        ChouetteGame(TEAM, automatic=automatic)
    assert caught.value.code == "bad_automatic"


# --- Box partner by table size -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box_partner_from", "lineup", "allowed"),
    [
        (None, LINE, False),
        (5, LINE, False),
        (4, LINE, True),
        (3, Lineup("Ann", "Bob", ("Cat",)), True),
        (4, Lineup("Ann", "Bob", ("Cat",)), False),
    ],
)
def test_it_lets_the_box_take_a_partner_only_from_the_tables_size(box_partner_from, lineup, allowed):
    settings = ChouetteSettings(jacoby=False, box_partner_from=box_partner_from)
    partner = lineup.crew[-1]
    game = ChouetteGame(BOX, SINGLE, cubes(Bob=2), box_partner=partner)

    # The partner is optional: the Box may always play alone.
    chouette_settle(lineup, ChouetteGame(BOX), settings)
    if allowed:
        assert amounts(chouette_settle(lineup, game, settings))[partner] == 1
        return
    with pytest.raises(ChouetteError) as caught:
        chouette_settle(lineup, game, settings)
    assert (caught.value.code, caught.value.details["player"]) == ("box_partner_not_allowed", partner)


# --- the roll-off --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [
        ([[("Ann", 6), ("Bob", 4)]], Lineup("Ann", "Bob")),
        ([[("Cat", 2), ("Ann", 5), ("Dan", 1), ("Bob", 3)]], Lineup("Ann", "Bob", ("Cat", "Dan"))),
        ([{"Ann": 2, "Bob": 6, "Cat": 4}], Lineup("Bob", "Cat", ("Ann",))),
        # Ann and Bob tie for the Box; Bob rerolls higher.
        ([[("Ann", 6), ("Bob", 6), ("Cat", 2)], [("Ann", 3), ("Bob", 5)]], Lineup("Bob", "Ann", ("Cat",))),
        # Two tied pairs reroll in the same round, each only ordered within itself: Dan's 6 in the
        # reroll does not lift him above Ann and Bob.
        (
            [[("Ann", 5), ("Bob", 5), ("Cat", 2), ("Dan", 2)], [("Ann", 1), ("Bob", 2), ("Cat", 3), ("Dan", 6)]],
            Lineup("Bob", "Ann", ("Dan", "Cat")),
        ),
        # A tie that holds over a reroll is rolled again; the others wait.
        (
            [[("Ann", 4), ("Bob", 4), ("Cat", 4), ("Dan", 1)], [("Ann", 3), ("Bob", 3), ("Cat", 2)], [("Ann", 1), ("Bob", 2)]],
            Lineup("Bob", "Ann", ("Cat", "Dan")),
        ),
    ],
)
def test_it_seats_the_table_by_the_opening_roll_off(rounds, expected):
    assert lineup_from_rolloff(rounds) == expected


ROLLOFF_REFUSALS = [
    ([], "too_few_players", None),
    ([[("Ann", 6)]], "too_few_players", None),
    ([[("Ann", 0), ("Bob", 3)]], "bad_die", 0),
    ([[("Ann", 7), ("Bob", 3)]], "bad_die", 0),
    ([[("Ann", True), ("Bob", 3)]], "bad_die", 0),
    ([[("Ann", "6"), ("Bob", 3)]], "bad_die", 0),
    ([[("Ann", 6, 1), ("Bob", 3)]], "bad_die", 0),
    ([[(None, 6), ("Bob", 3)]], "bad_player", None),
    ([[("Ann", 6), ("Ann", 3)]], "duplicate_player", 0),
    # The tie is never broken, or a tied player does not reroll.
    ([[("Ann", 6), ("Bob", 6)]], "rolloff_tie", 1),
    ([[("Ann", 6), ("Bob", 6)], [("Ann", 2), ("Bob", 2)]], "rolloff_tie", 2),
    ([[("Ann", 6), ("Bob", 6), ("Cat", 1)], [("Ann", 2)]], "rolloff_tie", 1),
    # Someone rerolls who was not tied, or after the ties were broken, or who never rolled.
    ([[("Ann", 6), ("Bob", 6), ("Cat", 1)], [("Ann", 2), ("Bob", 3), ("Cat", 5)]], "rolloff_not_tied", 1),
    ([[("Ann", 6), ("Bob", 4)], [("Ann", 2), ("Bob", 3)]], "rolloff_not_tied", 1),
    ([[("Ann", 6), ("Bob", 6)], [("Ann", 2), ("Bob", 3), ("Eve", 6)]], "unknown_player", 1),
    ([[("Ann", 6), ("Bob", 6)], [("Ann", 2), ("Ann", 3)]], "duplicate_player", 1),
    ([[("Ann", 6), ("Bob", 6)], [("Ann", 2), ("Bob", 9)]], "bad_die", 1),
    ([[("Ann", 6), ("Bob", 6)], 5], "bad_die", 1),
]


@pytest.mark.parametrize(("rounds", "code", "round_number"), ROLLOFF_REFUSALS)
def test_it_refuses_a_roll_off_with_bad_dice_or_an_unbroken_tie(rounds, code, round_number):
    with pytest.raises(ChouetteError) as caught:
        lineup_from_rolloff(rounds)
    assert caught.value.code == code
    assert caught.value.details.get("round") == round_number


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)), min_size=2, max_size=8, unique=True))
def test_the_roll_off_orders_everyone_by_their_dice_with_rerolls_breaking_ties(dice):
    # Each player's three dice are unique, so rerolling the tied ones round by round always ends.
    players = {f"p{index}": rolls for index, rolls in enumerate(dice)}
    rounds, results = [], {player: () for player in players}
    contenders = set(players)
    for number in range(3):
        rounds.append([(player, players[player][number]) for player in sorted(contenders)])
        for player in contenders:
            results[player] = (*results[player], players[player][number])
        counts = {}
        for player in players:
            counts[results[player]] = counts.get(results[player], 0) + 1
        contenders = {player for player in players if counts[results[player]] > 1}
        if not contenders:
            break

    lineup = lineup_from_rolloff(rounds)

    assert list(lineup.players) == sorted(players, key=results.__getitem__, reverse=True)


# --- players leaving -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        ("Ann", Lineup("Bob", "Cat", ("Dan",))),
        ("Bob", Lineup("Ann", "Cat", ("Dan",))),
        ("Cat", Lineup("Ann", "Bob", ("Dan",))),
        ("Dan", Lineup("Ann", "Bob", ("Cat",))),
    ],
)
def test_a_player_who_leaves_lets_everyone_below_him_move_up(player, expected):
    assert lineup_leave(LINE, player) == expected
    assert LINE.crew == ("Cat", "Dan")


@pytest.mark.parametrize(
    ("lineup", "player", "code"),
    [
        (LINE, "Eve", "unknown_player"),
        (Lineup("Ann", "Bob"), "Ann", "too_few_players"),
        (Lineup("Ann", "Bob"), "Bob", "too_few_players"),
    ],
)
def test_it_refuses_a_leaver_who_is_not_there_or_would_leave_one_player(lineup, player, code):
    with pytest.raises(ChouetteError) as caught:
        lineup_leave(lineup, player)
    assert caught.value.code == code


# --- quick results -------------------------------------------------------------------------------


def test_a_quick_result_is_a_checked_chouette_game():
    game = chouette_quick_game(
        LINE, winner="box", level=GAMMON, cubes={"Bob": 2, "Dan": (1, "member_dropped")}, settings=PLAIN,
        amounts={"Ann": 7, "Bob": -4, "Cat": -2, "Dan": -1},
    )

    assert game == ChouetteGame(BOX, GAMMON, cubes(Bob=2, Dan=(1, MEMBER_DROPPED)))


def test_a_quick_result_with_a_partner_and_automatic_doubles_leaves_out_members_on_the_starting_cube():
    settings = ChouetteSettings(jacoby=False, automatic_doubles=1)

    game = chouette_quick_game(LINE, winner=TEAM, cubes={"Bob": 4}, box_partner="Dan", automatic=1, settings=settings)

    assert amounts(chouette_settle(LINE, game, settings)) == {"Ann": -3, "Bob": 4, "Cat": 2, "Dan": -3}


QUICK_REFUSALS = [
    ({"cubes": {"Bob": "two"}}, "bad_cube"),
    ({"cubes": {"Bob": (2, "resigned")}}, "bad_cube_end"),
    ({"cubes": {"Bob": 3}}, "bad_cube_value"),
    ({"cubes": {"Eve": 2}}, "unknown_player"),
    ({"box_partner": "Bob"}, "bad_box_partner"),
    ({"automatic": 1}, "too_many_automatic"),
    ({"amounts": {"Ann": 3, "Bob": -1, "Cat": -1, "Eve": -1}}, "unknown_player"),
    ({"amounts": {"Ann": 3, "Bob": -1, "Cat": -1}}, "amounts_unbalanced"),
    ({"amounts": {"Ann": 2, "Bob": -2, "Cat": -1, "Dan": 1}}, "amounts_mismatch"),
    ({"amounts": {"Ann": 3.0, "Bob": -1, "Cat": -1, "Dan": -1}}, "bad_ledger"),
]


@pytest.mark.parametrize(("options", "code"), QUICK_REFUSALS)
def test_it_refuses_a_quick_result_that_does_not_add_up(options, code):
    with pytest.raises(ChouetteError) as caught:
        chouette_quick_game(LINE, **{"winner": BOX, "settings": PLAIN, **options})
    assert caught.value.code == code


def test_a_mismatched_announcement_names_the_first_player_and_both_amounts():
    with pytest.raises(ChouetteError) as caught:
        chouette_quick_game(LINE, winner=BOX, settings=PLAIN, amounts={"Ann": 2, "Bob": -2, "Cat": -1, "Dan": 1})

    assert caught.value.details == {"player": "Ann", "expected": 3, "given": 2}


# --- settling up ---------------------------------------------------------------------------------


def fewest_transfers(balances: list[int]) -> int:
    """By brute force: n - the most zero-sum groups the non-zero balances split into."""
    items = [amount for amount in balances if amount]

    def most_groups(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(range(len(others)), size):
                if first + sum(others[index] for index in chosen) == 0:
                    left = tuple(amount for index, amount in enumerate(others) if index not in chosen)
                    best = max(best, 1 + most_groups(left))
        return best

    return len(items) - most_groups(tuple(items))


def settles(ledger, transfers) -> bool:
    left = dict(ledger)
    for payer, payee, amount in transfers:
        assert amount > 0
        left[payer] += amount
        left[payee] -= amount
    return not any(left.values())


@pytest.mark.parametrize(
    ("ledger", "expected"),
    [
        ({}, []),
        ({"Ann": 0, "Bob": 0}, []),
        ({"Ann": 3, "Bob": -3}, [("Bob", "Ann", 3)]),
        ({"Ann": 5, "Bob": -2, "Cat": -3}, [("Bob", "Ann", 2), ("Cat", "Ann", 3)]),
        # The largest debtor paying the largest creditor would take four transfers here (Eve pays
        # Ann 4, Dan pays Bob 3, then Dan and Eve pay Cat 1 each); two groups take three.
        ({"Ann": 4, "Bob": 3, "Cat": 2, "Dan": -4, "Eve": -5}, [("Dan", "Ann", 4), ("Eve", "Bob", 3), ("Eve", "Cat", 2)]),
        ({"Ann": 3, "Bob": 2, "Cat": -3, "Dan": 2, "Eve": -4}, [("Cat", "Ann", 3), ("Eve", "Bob", 2), ("Eve", "Dan", 2)]),
    ],
)
def test_it_settles_up_with_the_fewest_transfers(ledger, expected):
    transfers = settle_up(ledger)

    assert transfers == expected
    assert settles(ledger, transfers)
    assert len(transfers) == fewest_transfers(list(ledger.values()))


def test_it_settles_up_in_the_same_order_whatever_order_the_ledger_is_in():
    ledger = {"Ann": 4, "Bob": 3, "Cat": 2, "Dan": -4, "Eve": -5}

    assert settle_up(dict(reversed(ledger.items()))) == settle_up(ledger)
    assert settle_up({7: 2, "Bob": -2}) == [("Bob", 7, 2)]


def test_beyond_the_exact_limit_it_still_settles_within_n_minus_one_transfers():
    ledger = {f"p{index:02}": amount for index, amount in enumerate([4, 3, 2, -4, -5] * 3 + [1, -1])}
    assert len(ledger) > EXACT_SETTLE_LIMIT

    transfers = settle_up(ledger)

    assert settles(ledger, transfers)
    assert len(transfers) <= len(ledger) - 1


@pytest.mark.parametrize(("ledger", "code"), [({"Ann": 1}, "ledger_unbalanced"), ({"Ann": 1.5, "Bob": -1.5}, "bad_ledger")])
def test_it_refuses_to_settle_up_a_ledger_that_does_not_balance(ledger, code):
    with pytest.raises(ChouetteError) as caught:
        settle_up(ledger)
    assert caught.value.code == code


balanced_ledgers = st.lists(st.integers(-20, 20), min_size=1, max_size=7).map(
    lambda amounts: {f"p{index}": amount for index, amount in enumerate([*amounts, -sum(amounts)])}
)


@hypothesis.settings(deadline=None)
@given(balanced_ledgers)
def test_settling_up_squares_everyone_in_the_fewest_transfers(ledger):
    transfers = settle_up(ledger)
    nonzero = sum(1 for amount in ledger.values() if amount)

    assert settles(ledger, transfers)
    assert len(transfers) <= max(nonzero - 1, 0)
    assert len(transfers) == fewest_transfers(list(ledger.values()))


@hypothesis.settings(deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=8, max_size=24))
def test_settling_up_a_big_ledger_squares_everyone_within_n_minus_one_transfers(amounts):
    ledger = {f"p{index}": amount for index, amount in enumerate([*amounts, -sum(amounts)])}
    nonzero = sum(1 for amount in ledger.values() if amount)

    transfers = settle_up(ledger)

    assert settles(ledger, transfers)
    assert len(transfers) <= max(nonzero - 1, 0)


# --- JSON ----------------------------------------------------------------------------------------

RECORDS = [
    ChouetteGame(BOX),
    ChouetteGame(None, SINGLE, cubes(Bob=(1, BOX_DROPPED), Cat=(2, BOX_DROPPED), Dan=(1, MEMBER_DROPPED))),
    ChouetteGame(
        TEAM, BACKGAMMON, cubes(Bob=4, Cat=(2, BOX_DROPPED), Dan=16), box_partner=None, automatic=1,
        log=(
            TeamDouble(("Dan", "Cat", "Bob"), box_drops={"Cat"}),
            BoxDouble((("Dan", BEAVER),), raccoons={"Dan"}),
        ),
    ),
    ChouetteGame(BOX, GAMMON, cubes(Bob=2), box_partner="Dan"),
    ChouetteGame(TEAM, SINGLE, (MemberCube(7, 2),), log=(TeamDouble((7,), beavers={7}, redouble_drops={7}),)),
]


@pytest.mark.parametrize("game", RECORDS)
def test_a_game_record_survives_the_round_trip_through_json(game):
    data = json.loads(json.dumps(game_to_json(game)))

    assert game_from_json(data) == game


def test_a_game_records_json_has_a_stable_shape():
    game = RECORDS[2]

    assert game_to_json(game) == {
        "winner": "team",
        "level": 3,
        "automatic": 1,
        "cubes": [
            {"player": "Bob", "value": 4, "end": "played"},
            {"player": "Cat", "value": 2, "end": "box_dropped"},
            {"player": "Dan", "value": 16, "end": "played"},
        ],
        "box_partner": None,
        "log": [
            {"type": "team_double", "doublers": ["Dan", "Cat", "Bob"], "box_drops": ["Cat"], "beavers": [],
             "raccoons": [], "redouble_drops": []},
            {"type": "box_double", "answers": [["Dan", "beaver"]], "raccoons": ["Dan"], "redouble_drops": []},
        ],
    }
    assert game_from_json({"winner": "box"}) == ChouetteGame(BOX)


def broken(path: str, value):
    """A valid record with the field at ``path`` (dotted, list indexes as numbers) set to ``value``;
    ``...`` deletes it."""
    data = game_to_json(RECORDS[2])
    keys = [int(key) if key.isdigit() else key for key in path.split(".")]
    target = data
    for key in keys[:-1]:
        target = target[key]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return data


JSON_REFUSALS = [
    ("not a record", None, "bad_json", ""),
    (broken("winner", ...), None, "bad_json", "winner"),
    (broken("winner", "crew"), None, "bad_json", "winner"),
    (broken("level", 4), None, "bad_json", "level"),
    (broken("level", "1"), None, "bad_json", "level"),
    (broken("automatic", -1), None, "bad_json", "automatic"),
    (broken("automatic", 40), None, "bad_automatic", "automatic"),
    (broken("cubes", {}), None, "bad_json", "cubes"),
    (broken("cubes.2.value", 3), None, "bad_cube_value", "cubes[2].value"),
    (broken("cubes.2.value", "2"), None, "bad_json", "cubes[2].value"),
    (broken("cubes.1.end", "resigned"), None, "bad_json", "cubes[1].end"),
    (broken("cubes.1.player", None), None, "bad_player", "cubes[1].player"),
    (broken("cubes.1.player", ["Cat"]), None, "bad_player", "cubes[1].player"),
    (broken("cubes.1.player", "Eve"), LINE, "unknown_player", "cubes[1].player"),
    (broken("cubes.1.colour", "white"), None, "bad_json", "cubes[1]"),
    (broken("cubes.1", "Cat"), None, "bad_json", "cubes[1]"),
    (broken("box_partner", "Eve"), LINE, "unknown_player", "box_partner"),
    (broken("box_partner", 1.5), None, "bad_player", "box_partner"),
    (broken("log.0.type", "redouble"), None, "bad_json", "log[0].type"),
    (broken("log.0", []), None, "bad_json", "log[0]"),
    (broken("log.0.doublers", "Dan"), None, "bad_json", "log[0].doublers"),
    (broken("log.0.box_drops.0", "Ann"), None, "bad_answer", "log[0]"),
    (broken("log.0.beavers", ["Cat"]), None, "bad_answer", "log[0]"),
    (broken("log.1.answers.0", ["Dan"]), None, "bad_json", "log[1].answers[0]"),
    (broken("log.1.answers.0.1", "pass"), None, "bad_json", "log[1].answers[0][1]"),
    (broken("log.1.answers.0.0", "Eve"), LINE, "unknown_player", "log[1].answers[0][0]"),
    (broken("log.1.raccoons.0", None), None, "bad_player", "log[1].raccoons[0]"),
    (broken("log.1.answers", []), None, "bad_answer", "log[1]"),
    (broken("log.1.redouble_drops", ["Dan", "Dan"]), None, None, None),
    (broken("log.1.extra", 1), None, "bad_json", "log[1]"),
]


@pytest.mark.parametrize(("data", "lineup", "code", "path"), JSON_REFUSALS)
def test_it_refuses_a_malformed_game_record_and_names_the_field(data, lineup, code, path):
    if code is None:  # a player twice in a list is the same set
        assert game_from_json(data, lineup).log[1].redouble_drops == {"Dan"}
        return
    with pytest.raises(ChouetteError) as caught:
        game_from_json(data, lineup)
    assert caught.value.code == code
    assert caught.value.details["path"] == path


def test_it_refuses_player_ids_that_json_cannot_carry():
    with pytest.raises(ChouetteError) as caught:
        game_to_json(ChouetteGame(BOX, SINGLE, (MemberCube(("Bob", 1), 2),)))
    assert caught.value.code == "bad_json"


@pytest.mark.parametrize(
    ("data", "code", "path"),
    [
        ({"box": "Ann", "captain": "Bob", "crew": ["Cat", "Dan"]}, None, None),
        ({"box": "Ann", "captain": "Bob"}, None, None),
        ({"box": "Ann"}, "bad_json", "captain"),
        ({"box": "Ann", "captain": "Ann"}, "duplicate_player", ""),
        ({"box": "Ann", "captain": "Bob", "crew": [None]}, "bad_player", "crew[0]"),
    ],
)
def test_a_lineup_has_a_json_form(data, code, path):
    if code is None:
        assert lineup_to_json(lineup_from_json(data)) == {"crew": [], **data}
        return
    with pytest.raises(ChouetteError) as caught:
        lineup_from_json(data)
    assert (caught.value.code, caught.value.details["path"]) == (code, path)


STEPS = [
    StartStep(rolloff=(({"Ann": 6, "Bob": 6, "Cat": 2}), (("Ann", 3), ("Bob", 5)))),
    StartStep(lineup=LINE, void=True),
    JoinStep("Eve"),
    LeaveStep("Cat", void=True),
    GameStep(ChouetteGame(BOX, GAMMON, cubes(Bob=2))),
    GameStep(ChouetteGame(TEAM), lineup=LINE, void=True),
]


@pytest.mark.parametrize("step", STEPS)
def test_a_session_step_survives_the_round_trip_through_json(step):
    data = json.loads(json.dumps(step_to_json(step)))

    parsed = step_from_json(data)

    assert step_to_json(parsed) == data
    if isinstance(step, StartStep) and step.rolloff is not None:
        assert lineup_from_rolloff(parsed.rolloff) == lineup_from_rolloff(step.rolloff)
    else:
        assert parsed == step


def test_session_steps_have_a_stable_json_shape():
    assert [step_to_json(step) for step in STEPS] == [
        {"type": "start", "rolloff": [[["Ann", 6], ["Bob", 6], ["Cat", 2]], [["Ann", 3], ["Bob", 5]]]},
        {"type": "start", "lineup": {"box": "Ann", "captain": "Bob", "crew": ["Cat", "Dan"]}, "void": True},
        {"type": "join", "player": "Eve"},
        {"type": "leave", "player": "Cat", "void": True},
        {"type": "game", "record": game_to_json(ChouetteGame(BOX, GAMMON, cubes(Bob=2)))},
        {"type": "game", "record": game_to_json(ChouetteGame(TEAM)), "lineup": lineup_to_json(LINE), "void": True},
    ]


STEP_JSON_REFUSALS = [
    ([], "bad_json", ""),
    ({"type": "sit"}, "bad_json", "type"),
    ({"type": "join"}, "bad_json", "player"),
    ({"type": "join", "player": None}, "bad_player", "player"),
    ({"type": "join", "player": "Eve", "void": "yes"}, "bad_json", "void"),
    ({"type": "leave", "player": "Eve", "seat": 3}, "bad_json", ""),
    ({"type": "start"}, "bad_json", "rolloff"),
    ({"type": "start", "rolloff": [[["Ann", 6, 2]]]}, "bad_json", "rolloff[0][0]"),
    ({"type": "start", "rolloff": [[[None, 6]]]}, "bad_player", "rolloff[0][0][0]"),
    ({"type": "start", "rolloff": [], "lineup": {"box": "Ann", "captain": "Bob"}}, "bad_step", ""),
    ({"type": "start", "lineup": {"box": "Ann", "captain": "Ann"}}, "duplicate_player", "lineup"),
    ({"type": "game"}, "bad_json", "record"),
    ({"type": "game", "record": {"winner": "box", "cubes": [{"player": "Bob", "value": 0}]}}, "bad_json",
     "record.cubes[0].value"),
    ({"type": "game", "record": {"winner": "box"}, "lineup": {"box": "Ann"}}, "bad_json", "lineup.captain"),
]


@pytest.mark.parametrize(("data", "code", "path"), STEP_JSON_REFUSALS)
def test_it_refuses_a_malformed_session_step_and_names_the_field(data, code, path):
    with pytest.raises(ChouetteError) as caught:
        step_from_json(data)
    assert (caught.value.code, caught.value.details["path"]) == (code, path)


def test_it_refuses_to_write_something_that_is_not_a_step():
    with pytest.raises(ChouetteError) as caught:
        step_to_json("join Eve")
    assert caught.value.code == "bad_step"


# --- the session ---------------------------------------------------------------------------------

SESSION = [
    StartStep(lineup=LINE),                                  # 0
    GameStep(ChouetteGame(BOX, GAMMON, cubes(Bob=2))),       # 1: Ann 8, Bob -4, Cat -2, Dan -2
    JoinStep("Eve"),                                         # 2: Ann / Cat / Dan Bob Eve
    GameStep(ChouetteGame(TEAM), void=True),                 # 3: voided
    GameStep(ChouetteGame(TEAM, SINGLE, cubes(Cat=4))),      # 4: Ann -7, Cat 4, Dan 1, Bob 1, Eve 1
    LeaveStep("Ann"),                                        # 5: Cat / Dan Bob Eve
    GameStep(ChouetteGame(BOX, SINGLE, cubes(Dan=(1, MEMBER_DROPPED))), lineup=Lineup("Cat", "Dan", ("Bob", "Eve"))),
]


def test_a_session_replays_into_the_line_up_the_games_and_the_ledger():
    session = replay_session(SESSION, PLAIN)

    assert [game.step for game in session.games] == [1, 4, 6]
    assert session.games[1].lineup == Lineup("Ann", "Cat", ("Dan", "Bob", "Eve"))
    assert session.lineup == Lineup("Cat", "Bob", ("Eve", "Dan"))
    assert dict(session.ledger) == {"Ann": 1, "Bob": -4, "Cat": 5, "Dan": -2, "Eve": 0}
    assert sum(session.ledger.values()) == 0
    assert settles(session.ledger, settle_up(session.ledger))


def test_a_session_from_json_replays_the_same():
    stored = json.loads(json.dumps([step_to_json(step) for step in SESSION]))

    assert replay_session([step_from_json(data) for data in stored], PLAIN) == replay_session(SESSION, PLAIN)


def test_a_session_starts_with_the_roll_off_and_a_voided_step_counts_for_nothing():
    steps = [
        StartStep(lineup=Lineup("Zed", "Yan"), void=True),
        GameStep(ChouetteGame(TEAM, cubes=cubes(Eve=2)), void=True),
        StartStep(rolloff=([("Ann", 2), ("Bob", 5), ("Cat", 5)], [("Bob", 1), ("Cat", 4)])),
    ]

    session = replay_session(steps, PLAIN)

    assert session.lineup == Lineup("Cat", "Bob", ("Ann",))
    assert dict(session.ledger) == {"Cat": 0, "Bob": 0, "Ann": 0}
    assert session.games == ()


SESSION_REFUSALS = [
    ([JoinStep("Eve")], "session_not_started", 0),
    ([GameStep(ChouetteGame(BOX))], "session_not_started", 0),
    ([StartStep(lineup=LINE), StartStep(lineup=LINE)], "session_started", 1),
    ([StartStep(rolloff=([("Ann", 4), ("Bob", 4)],))], "rolloff_tie", 0),
    ([StartStep(lineup=LINE), JoinStep("Cat")], "duplicate_player", 1),
    ([StartStep(lineup=LINE), LeaveStep("Eve")], "unknown_player", 1),
    ([StartStep(lineup=Lineup("Ann", "Bob")), LeaveStep("Bob")], "too_few_players", 1),
    # A game record naming someone who has left.
    ([StartStep(lineup=LINE), LeaveStep("Dan"), GameStep(ChouetteGame(BOX, cubes=cubes(Dan=2)))], "unknown_player", 2),
    ([StartStep(lineup=LINE), GameStep(ChouetteGame(BOX), lineup=BOX_STAYS)], "lineup_mismatch", 1),
    ([StartStep(lineup=LINE), GameStep(ChouetteGame(BOX, automatic=1))], "too_many_automatic", 1),
    ([StartStep(lineup=LINE), GameStep({"winner": "box"})], "bad_step", 1),
    ([StartStep(lineup=LINE), "game"], "bad_step", 1),
]


@pytest.mark.parametrize(("steps", "code", "step"), SESSION_REFUSALS)
def test_it_refuses_a_step_that_does_not_fit_and_says_which(steps, code, step):
    with pytest.raises(ChouetteError) as caught:
        replay_session(steps, PLAIN)
    assert (caught.value.code, caught.value.details["step"]) == (code, step)
    assert caught.value.message.startswith(f"step {step}: ")


def test_a_correction_that_changes_a_later_games_roles_is_caught_by_its_recorded_line_up():
    # Voiding game 1 would make Bob the Box of game 6, where the table saw Cat box: the recorded
    # line-up says so, instead of the record being read with other roles.
    steps = list(SESSION)
    steps[1] = GameStep(steps[1].record, void=True)

    with pytest.raises(ChouetteError) as caught:
        replay_session(steps, PLAIN)

    assert (caught.value.code, caught.value.details["step"]) == ("lineup_mismatch", 6)


@st.composite
def random_sessions(draw):
    steps = [StartStep(lineup=Lineup("p0", "p1", ("p2",)))]
    lineup, newcomers = steps[0].lineup, iter(f"p{index}" for index in range(3, 30))
    for _ in range(draw(st.integers(0, 12))):
        choice = draw(st.sampled_from(("game", "game", "game", "join", "leave")))
        if choice == "join":
            steps.append(JoinStep(next(newcomers)))
            lineup = lineup.join(steps[-1].player)
        elif choice == "leave" and len(lineup.players) > 2:
            steps.append(LeaveStep(draw(st.sampled_from(lineup.players))))
            lineup = lineup_leave(lineup, steps[-1].player)
        else:
            records = tuple(
                MemberCube(player, 2 ** draw(st.integers(0, 3)), draw(st.sampled_from(tuple(CubeEnd))))
                for player in lineup.team
            )
            winner = draw(st.sampled_from(tuple(Side))) if any(record.end is PLAYED for record in records) else None
            game = ChouetteGame(winner, draw(st.sampled_from((SINGLE, GAMMON, BACKGAMMON))), records)
            steps.append(GameStep(game, void=draw(st.booleans())))
            if not steps[-1].void:
                lineup = chouette_next_lineup(lineup, game)
    return steps


@hypothesis.settings(deadline=None)
@given(random_sessions())
def test_a_sessions_ledger_is_the_sum_of_its_games_and_always_balances(steps):
    session = replay_session(steps, PLAIN)

    totals = {}
    for game in session.games:
        totals = ledger_add(totals, game.settlement)
    assert {player: amount for player, amount in session.ledger.items() if amount} == {
        player: amount for player, amount in totals.items() if amount
    }
    assert sum(session.ledger.values()) == 0
    assert len(session.games) == sum(1 for step in steps if isinstance(step, GameStep) and not step.void)


RAISED_BELOW = (
    {code for _, code, _ in SETTINGS_REFUSALS}
    | {code for _, _, code, _ in ANSWER_REFUSALS}
    | {code for _, code, _ in ROLLOFF_REFUSALS}
    | {code for _, code in QUICK_REFUSALS}
    | {code for _, _, code, _ in JSON_REFUSALS if code}
    | {code for _, code, _ in STEP_JSON_REFUSALS}
    | {code for _, code, _ in SESSION_REFUSALS}
    | {"not_cube_owner", "too_many_automatic", "cube_below_start", "bad_automatic", "box_partner_not_allowed",
       "too_few_players", "bad_ledger", "ledger_unbalanced"}
)

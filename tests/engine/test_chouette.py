"""Chouette settlement and rotation (RULES.md §7), one test per rule.

Line-up used throughout: Ann is the Box, Bob the Captain, Cat and Dan the crew (Dan at the bottom).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import chouette
from engine.chouette import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    Answer,
    BoxDouble,
    ChouetteGame,
    ChouetteSettings,
    CubeEnd,
    Lineup,
    MemberCube,
    Settlement,
    Side,
    TeamDouble,
    check_cube_answer,
    chouette_next_lineup,
    chouette_settle,
    ledger_add,
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
    }
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

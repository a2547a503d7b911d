"""Shared values: results, the BYE and DRAW markers, length schedules, the error type."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import tournaments.draw
from tournaments.draw import BYE, CODES, DRAW, DrawError, Result, bracket_lengths, round_length
from tournaments.draw.swiss import NO_PAIRING


@pytest.mark.parametrize(
    ("schedule", "rounds", "expected"),
    [
        ([5, 5, 7, 9], 4, (5, 5, 7, 9)),
        ([5, 5, 7, 9], 6, (5, 5, 5, 5, 7, 9)),  # earlier rounds repeat the first number
        ([5, 5, 7, 9], 2, (7, 9)),  # a small bracket keeps the final's end of the schedule
        ([5, 5, 7, 9], 1, (9,)),
        (3, 5, (3, 3, 3, 3, 3)),
        ((11,), 3, (11, 11, 11)),
    ],
)
def test_a_bracket_schedule_is_counted_back_from_the_final(schedule, rounds, expected):
    assert bracket_lengths(schedule, rounds) == expected


@pytest.mark.parametrize(("round_number", "expected"), [(1, 5), (2, 5), (3, 7), (4, 7), (10, 7)])
def test_a_swiss_or_round_robin_schedule_is_counted_from_round_one_and_repeats_its_last(round_number, expected):
    assert round_length([5, 5, 7], round_number) == expected


@pytest.mark.parametrize("schedule", [0, -3, [], [5, 0], [5, "7"], 2.5, True, [True]])
def test_it_refuses_a_schedule_that_is_not_positive_whole_lengths(schedule):
    with pytest.raises(DrawError) as error:
        bracket_lengths(schedule, 3)
    assert error.value.code == "bad_length"


def test_a_result_knows_its_loser_opponent_and_points():
    result = Result("a", "b", "b", 3, 5)
    assert result.loser == "a"
    assert result.opponent("a") == "b"
    assert result.points_of("a") == (3, 5)
    assert result.points_of("b") == (5, 3)
    assert Result("a", "b", DRAW).loser is None
    assert not Result("a", "b", None).decided


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("a", "a", "a"), "bad_result"),
        (("a", "b", "c"), "not_in_match"),
        (("a", "b", "a", -1, 0), "bad_result"),
    ],
)
def test_it_refuses_a_result_that_makes_no_sense(args, code):
    with pytest.raises(DrawError) as error:
        Result(*args)
    assert error.value.code == code


def test_the_markers_are_singletons_that_survive_pickling_and_equal_no_entrant():
    assert pickle.loads(pickle.dumps(BYE)) is BYE
    assert pickle.loads(pickle.dumps(DRAW)) is DRAW
    assert BYE != "BYE" and BYE != 0 and repr(BYE) == "BYE"


def test_every_error_code_has_a_status_and_the_error_says_it():
    assert all(status in (400, 409) for status, _ in CODES.values())
    error = DrawError("round 3 is not complete", code="round_not_complete", round=3)
    assert error.status == 409
    assert error.as_dict() == {"code": "round_not_complete", "message": "round 3 is not complete", "round": 3}
    assert str(error) == "round 3 is not complete"


def test_every_code_the_draw_raises_is_in_the_catalogue():
    sources = Path(tournaments.draw.__file__).parent.glob("*.py")
    raised = {code for path in sources for code in re.findall(r'code="(\w+)"', path.read_text())}
    assert raised <= set(CODES)
    assert "unknown_match" in raised and "round_not_complete" in raised
    assert not set(NO_PAIRING) & set(CODES)  # "no pairing" is an answer, not an error

"""Divisions and handicaps, table-driven: each test names the rule of
``tournaments.draw.divisions`` it checks ("divisions rule N", as its docstring numbers them).
The Chicago Open figure (an Intermediate starts 1-0 against an Open player in a match to 7) is
taken as reported; we could not read a published table here, so the rest of the default table is ours,
as the module says."""

from __future__ import annotations

import pytest

from tournaments.draw import DrawError
from tournaments.draw.divisions import (
    DEFAULT_DIVISIONS,
    DEFAULT_HANDICAPS,
    MAX_DIVISIONS,
    Division,
    Handicap,
    default_handicaps,
    division_for,
    eligible,
    handicap_start,
    may_play_in,
    parse_divisions,
    parse_handicaps,
)

CHICAGO = (Division("Open"), Division("Intermediate", max_rating=1650), Division("Novice", max_rating=1500))


# --- rule 1: listed strongest first, named once, sane ranges -------------------------------------

@pytest.mark.parametrize(("raw", "expected"), [
    (None, ()),
    ([], ()),
    (["Open", "Novice"], (Division("Open"), Division("Novice"))),
    ([{"name": "  A  ", "min_rating": 1600, "max_rating": None}], (Division("A", 1600.0, None),)),
    ([{"name": "B", "max_rating": 1500.5}], (Division("B", None, 1500.5),)),
    ([Division("C", 0, 10000)], (Division("C", 0.0, 10000.0),)),
])
def test_rule_1_divisions_are_parsed_in_their_order(raw, expected):
    """divisions rule 1: the divisions as listed (strongest first), names stripped."""
    assert parse_divisions(raw) == expected


@pytest.mark.parametrize(("raw", "field", "reason"), [
    ("Open", "divisions", "not_a_list"),
    ([f"D{i}" for i in range(MAX_DIVISIONS + 1)], "divisions", "too_many"),
    ([3], "divisions.0", "not_a_mapping"),
    ([{"name": "A", "colour": "red"}], "divisions.0.colour", "unknown_key"),
    ([{"name": ""}], "divisions.0.name", "bad_name"),
    ([{"name": "   "}], "divisions.0.name", "bad_name"),
    ([{"name": "x" * 41}], "divisions.0.name", "bad_name"),
    ([{"name": 5}], "divisions.0.name", "bad_name"),
    (["Open", "open"], "divisions.1.name", "duplicate_name"),
    ([{"name": "A", "min_rating": "high"}], "divisions.0.min_rating", "bad_rating"),
    ([{"name": "A", "min_rating": True}], "divisions.0.min_rating", "bad_rating"),
    ([{"name": "A", "max_rating": float("nan")}], "divisions.0.max_rating", "bad_rating"),
    ([{"name": "A", "max_rating": -1}], "divisions.0.max_rating", "bad_rating"),
    ([{"name": "A", "max_rating": 10001}], "divisions.0.max_rating", "bad_rating"),
    ([{"name": "A", "min_rating": 1500, "max_rating": 1500}], "divisions.0.max_rating", "empty_range"),
    ([{"name": "A", "min_rating": 1600, "max_rating": 1500}], "divisions.0.max_rating", "empty_range"),
])
def test_rule_1_bad_divisions_are_refused_naming_the_field(raw, field, reason):
    """divisions rule 1: a bad list is refused, naming the value and why."""
    with pytest.raises(DrawError) as caught:
        parse_divisions(raw)
    assert (caught.value.code, caught.value.details["field"], caught.value.details["reason"]) == (
        "bad_division", field, reason)


# --- rule 2: eligibility by rating -----------------------------------------------------------------

@pytest.mark.parametrize(("rating", "expected"), [
    (1800.0, ("Open",)),
    (1650.0, ("Open",)),  # the maximum is excluded
    (1649.9, ("Open", "Intermediate")),
    (1500.0, ("Open", "Intermediate")),
    (1499.0, ("Open", "Intermediate", "Novice")),
    (0.0, ("Open", "Intermediate", "Novice")),
])
def test_rule_2_a_player_is_eligible_where_the_range_holds_his_rating(rating, expected):
    """divisions rule 2: min_rating <= rating < max_rating; he may play up, never down."""
    assert eligible(CHICAGO, rating) == expected


@pytest.mark.parametrize(("division", "rating", "holds"), [
    (Division("A", 1500, 1700), 1500, True),
    (Division("A", 1500, 1700), 1499.99, False),
    (Division("A", 1500, 1700), 1700, False),
    (Division("A", None, None), -5, True),
    (Division("A", 1500, None), 9999, True),
])
def test_rule_2_the_minimum_is_included_and_the_maximum_excluded(division, rating, holds):
    """divisions rule 2: the range's bounds."""
    assert division.holds(rating) is holds


# --- rule 3: placed by rating --------------------------------------------------------------------

@pytest.mark.parametrize(("divisions", "rating", "expected"), [
    (CHICAGO, 1800, "Open"),
    (CHICAGO, 1600, "Intermediate"),
    (CHICAGO, 1400, "Novice"),
    ((Division("Top", min_rating=1700), Division("Low", max_rating=1500)), 1600, None),  # no division takes him
    ((), 1500, None),
])
def test_rule_3_a_player_who_names_none_goes_to_the_weakest_division_he_is_eligible_for(divisions, rating, expected):
    """divisions rule 3: the last listed division whose range holds his rating, else none."""
    assert division_for(divisions, rating) == expected


# --- rules 2 and 4: choosing, and the director's placing -------------------------------------------

@pytest.mark.parametrize(("name", "rating", "director", "allowed"), [
    ("Open", 1400, False, True),  # playing up
    ("Novice", 1400, False, True),
    ("Novice", 1800, False, False),  # never down...
    ("Novice", 1800, True, True),  # ...unless the director places him (rule 4)
    ("Masters", 1800, True, False),  # not a division of the event, even for the director
    ("Masters", 1800, False, False),
])
def test_rules_2_and_4_who_may_be_in_a_division(name, rating, director, allowed):
    """divisions rules 2 and 4: a player only where his rating is eligible; the director anywhere
    the event has."""
    assert may_play_in(CHICAGO, name, rating, director=director) is allowed


# --- rule 5: the handicap start --------------------------------------------------------------------

TABLE = (Handicap("Intermediate", "Open", 7, 1), Handicap("Novice", "Open", 7, 2), Handicap("Novice", "Open", 11, 3))


@pytest.mark.parametrize(("division0", "division1", "length", "start"), [
    ("Intermediate", "Open", 7, (1, 0)),
    ("Open", "Intermediate", 7, (0, 1)),  # the side that starts ahead follows the division, not the seat
    ("Novice", "Open", 7, (2, 0)),
    ("Open", "Novice", 11, (0, 3)),
    ("Open", "Novice", 9, (0, 0)),  # no row for that length: level
    ("Novice", "Intermediate", 7, (0, 0)),  # no row for that pair: level
    ("Open", "Open", 7, (0, 0)),  # same division
    (None, "Open", 7, (0, 0)),  # an entrant without a division
    ("Intermediate", "", 7, (0, 0)),
])
def test_rule_5_a_match_between_divisions_starts_from_the_table(division0, division1, length, start):
    """divisions rule 5: the row's points to the player of ``division``; else 0-0."""
    assert handicap_start(TABLE, division0, division1, length) == start


@pytest.mark.parametrize(("raw", "field", "reason"), [
    ({"division": "Novice"}, "handicaps", "not_a_list"),
    ([7], "handicaps.0", "not_a_mapping"),
    ([{"division": "Novice", "against": "Open", "length": 7, "points": 1, "extra": 1}], "handicaps.0.extra",
     "unknown_key"),
    ([{"division": "Masters", "against": "Open", "length": 7, "points": 1}], "handicaps.0.division",
     "unknown_division"),
    ([{"division": "Novice", "against": "Masters", "length": 7, "points": 1}], "handicaps.0.against",
     "unknown_division"),
    ([{"division": "Open", "against": "Open", "length": 7, "points": 1}], "handicaps.0.against", "same_division"),
    ([{"division": "Novice", "against": "Open", "length": 0, "points": 1}], "handicaps.0.length", "bad_length"),
    ([{"division": "Novice", "against": "Open", "length": 100, "points": 1}], "handicaps.0.length", "bad_length"),
    ([{"division": "Novice", "against": "Open", "length": "7", "points": 1}], "handicaps.0.length", "bad_length"),
    ([{"division": "Novice", "against": "Open", "length": 7, "points": 0}], "handicaps.0.points", "bad_points"),
    ([{"division": "Novice", "against": "Open", "length": 7, "points": 7}], "handicaps.0.points", "bad_points"),
    ([{"division": "Novice", "against": "Open", "length": 1, "points": 1}], "handicaps.0.points", "bad_points"),
    ([{"division": "Novice", "against": "Open", "length": 7, "points": True}], "handicaps.0.points", "bad_points"),
    ([{"division": "Novice", "against": "Open", "length": 7, "points": 1},
      {"division": "Open", "against": "Novice", "length": 7, "points": 1}], "handicaps.1", "duplicate_row"),
    ([{"division": "Novice", "against": "Open", "length": 7, "points": 1},
      {"division": "Novice", "against": "Open", "length": 7, "points": 2}], "handicaps.1", "duplicate_row"),
])
def test_rule_5_bad_handicap_rows_are_refused_naming_the_field(raw, field, reason):
    """divisions rule 5: rows between two different divisions of the event, a start short of the
    length, one row per pair and length, one way round."""
    with pytest.raises(DrawError) as caught:
        parse_handicaps(raw, CHICAGO)
    assert (caught.value.code, caught.value.details["field"], caught.value.details["reason"]) == (
        "bad_handicap", field, reason)


def test_rule_5_good_rows_are_kept_in_order():
    """divisions rule 5: the same pair at another length is another row."""
    raw = [row.as_dict() for row in TABLE]
    assert parse_handicaps(raw, CHICAGO) == TABLE
    assert parse_handicaps([], CHICAGO) == ()


# --- rule 6: the default table -------------------------------------------------------------------

@pytest.mark.parametrize(("names", "rows"), [
    ({"Open", "Intermediate", "Novice"}, DEFAULT_HANDICAPS),
    ({"Open", "Intermediate"}, (Handicap("Intermediate", "Open", 7, 1),)),
    ({"Open", "Novice"}, (Handicap("Novice", "Open", 7, 2),)),
    ({"Gold", "Silver"}, ()),  # an event's own divisions: no default rows
])
def test_rule_6_the_default_table_keeps_the_rows_between_the_events_divisions(names, rows):
    """divisions rule 6: the Chicago Open figure and our two rows, for the divisions named."""
    assert default_handicaps(names) == rows
    assert parse_handicaps(None, [Division(n) for n in names]) == rows


@pytest.mark.parametrize(("division0", "division1", "start"), [
    ("Intermediate", "Open", (1, 0)),  # the Chicago Open: an Intermediate starts 1-0 in a match to 7
    ("Open", "Intermediate", (0, 1)),
    ("Novice", "Intermediate", (1, 0)),
    ("Novice", "Open", (2, 0)),
])
def test_rule_6_the_default_table_at_seven_points(division0, division1, start):
    """divisions rule 6: at 7 points, one point a division apart (the Chicago Open's figure)."""
    assert handicap_start(DEFAULT_HANDICAPS, division0, division1, 7) == start
    assert handicap_start(DEFAULT_HANDICAPS, division0, division1, 5) == (0, 0)


def test_rule_6_the_default_divisions_are_open_intermediate_novice_strongest_first():
    """divisions rule 6 (and 1): the default list."""
    assert [d.name for d in DEFAULT_DIVISIONS] == ["Open", "Intermediate", "Novice"]

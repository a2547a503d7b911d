"""Seeding: by rating, by the organiser's list, at random from a recorded seed; late entries and
check-in keep everyone else's seed."""

from __future__ import annotations

import pytest

from tournaments.draw import BYE, DrawError, add_late, checked_in, seed_by_list, seed_by_rating, seed_randomly

PLAYERS = [f"p{i:02}" for i in range(1, 17)]


def test_it_seeds_by_rating_highest_first_and_keeps_entry_order_between_equal_ratings():
    seeding = seed_by_rating({"ann": 1500, "bob": 1720, "cat": 1500, "dan": 1810.5})
    assert seeding.order == ("dan", "bob", "ann", "cat")
    assert seeding.method == "rating" and seeding.seed is None
    assert seeding.seed_of("ann") == 3


def test_it_seeds_by_the_organisers_list_as_given():
    assert seed_by_list([3, 1, 2]).order == (3, 1, 2)


def test_the_same_entrants_and_seed_give_the_same_random_order_whatever_order_they_signed_up_in():
    first = seed_randomly(PLAYERS, 20261129)
    again = seed_randomly(list(reversed(PLAYERS)), 20261129)
    assert first == again
    assert first.method == "random" and first.seed == 20261129
    assert sorted(first.order) == PLAYERS


def test_another_seed_gives_another_order():
    orders = {seed_randomly(PLAYERS, seed).order for seed in range(20)}
    assert len(orders) == 20


def test_a_random_order_from_a_string_seed_is_reproducible_too():
    assert seed_randomly(range(10), "spring open 2026") == seed_randomly(range(10), "spring open 2026")


def test_a_late_entrant_is_the_last_seed_and_nobody_elses_seed_moves():
    seeding = add_late(seed_randomly(PLAYERS, 7), "late")
    assert seeding.order[:-1] == seed_randomly(PLAYERS, 7).order
    assert seeding.seed_of("late") == 17 and seeding.seed == 7


def test_entrants_not_checked_in_drop_out_and_the_rest_keep_their_order():
    seeding = checked_in(seed_by_list(["a", "b", "c", "d"]), {"d", "b"})
    assert seeding.order == ("b", "d")


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: seed_by_list(["a", "b", "a"]), "duplicate_entrant"),
        (lambda: add_late(seed_by_list(["a", "b"]), "a"), "duplicate_entrant"),
        (lambda: seed_by_list(["a", None]), "bad_entrant"),
        (lambda: seed_by_list(["a", BYE]), "bad_entrant"),
        (lambda: seed_by_list([1, True]), "bad_entrant"),
        (lambda: seed_by_list([["a"], "b"]), "bad_entrant"),
        (lambda: seed_randomly(["a", "b"], 1.5), "bad_seed"),
        (lambda: seed_by_rating({"a": "1500"}), "bad_rating"),
        (lambda: checked_in(seed_by_list(["a"]), {"z"}), "unknown_entrant"),
        (lambda: seed_by_list(["a"]).seed_of("z"), "unknown_entrant"),
    ],
)
def test_it_refuses_bad_entries(make, code):
    with pytest.raises(DrawError) as error:
        make()
    assert error.value.code == code

import pytest

from engine import Position, PositionError, side_board


def test_it_starts_with_167_pips_a_side_and_nothing_off():
    start = Position.start()
    assert start.pips(0) == start.pips(1) == 167
    assert start.off(0) == start.off(1) == 0
    assert start.mover[24] == 2 and start.mover[13] == 5 and start.mover[8] == 3 and start.mover[6] == 5


@pytest.mark.parametrize(
    ("points", "bar", "pips"),
    [({6: 5, 5: 5}, 0, 55), ({1: 1}, 0, 1), ({}, 2, 50), ({24: 1, 3: 2}, 1, 55)],
)
def test_it_counts_pips_with_the_bar_as_25(points, bar, pips):
    position = Position.from_sides(side_board(points, bar=bar), side_board({}))
    assert position.pips(0) == pips


@pytest.mark.parametrize(
    ("side0", "side1", "code"),
    [
        ((16,) + (0,) * 25, side_board({}), "bad_count"),
        (side_board({6: 2}), side_board({19: 2}), "shared_point"),
    ],
)
def test_it_rejects_positions_that_cannot_occur(side0, side1, code):
    with pytest.raises(PositionError) as caught:
        Position.from_sides(side0, side1)
    assert caught.value.code == code


def test_it_rejects_more_than_fifteen_checkers_on_one_side():
    with pytest.raises(PositionError):
        side_board({6: 16})


def test_it_round_trips_the_gnubg_board_form():
    position = Position.from_sides(side_board({6: 3, 20: 2}, bar=1), side_board({13: 4, 1: 1}), turn=1)
    assert Position.from_gnubg(position.to_gnubg(), turn=1) == position

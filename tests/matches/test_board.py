"""The SVG board and sparkline: pure drawing, no database."""

import xml.etree.ElementTree as ET

import pytest

from engine.board import Position, side_board
from matches.board import board_svg, point_x, sparkline_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]


def test_it_draws_the_start_position_with_thirty_checkers_on_24_points():
    root = parse(board_svg(Position.start(0)))
    checkers = find(root, "circle", "checker")
    assert len(checkers) == 30
    assert sum(1 for c in checkers if c.get("data-side") == "0") == 15
    assert len(find(root, "polygon", "point")) == 24
    numbers = [t.text for t in find(root, "text", "point-number")]
    assert sorted(numbers, key=int) == [str(n) for n in range(1, 25)]
    # Side 0's start: 2 on its 24-point, 5 on 13, 3 on 8, 5 on 6.
    own = {p: sum(1 for c in checkers if c.get("data-side") == "0" and c.get("data-point") == str(p)) for p in (24, 13, 8, 6)}
    assert own == {24: 2, 13: 5, 8: 3, 6: 5}
    assert not find(root, "text", "count")  # nobody has more than five on a point


def test_it_shows_the_cube_and_the_dice():
    root = parse(board_svg(Position.start(1), cube=4, owner=1, dice=(5, 2)))
    (cube,) = find(root, "g", "cube")
    assert cube.get("data-value") == "4" and cube.get("data-owner") == "1"
    assert "4" in [t.text for t in cube.iter(SVG + "text")]
    dice = find(root, "g", "die")
    assert [d.get("data-value") for d in dice] == ["5", "2"]
    assert [len(find(d, "circle", "pip")) for d in dice] == [5, 2]
    assert {d.get("data-side") for d in dice} == {"1"}  # the side on roll's dice


def test_a_centred_cube_at_one_shows_64_and_no_dice_are_drawn_without_a_roll():
    root = parse(board_svg(Position.start(0)))
    (cube,) = find(root, "g", "cube")
    assert cube.get("data-owner") == "" and [t.text for t in cube.iter(SVG + "text")] == ["64"]
    assert not find(root, "g", "die")


def test_it_draws_bar_and_borne_off_checkers_with_their_counts():
    position = Position.from_sides(
        side_board({6: 7, 5: 2, 13: 2}, bar=3, off=1),
        side_board({23: 1, 13: 2, 8: 2}, bar=1, off=9),
    )
    root = parse(board_svg(position))
    checkers = find(root, "circle", "checker")
    on_bar = [c for c in checkers if c.get("data-point") == "bar"]
    assert sorted(c.get("data-side") for c in on_bar) == ["0", "0", "0", "1"]
    assert sorted(t.text for t in find(root, "text", "bar-count")) == ["1", "3"]
    off = {t.get("data-side"): t.text for t in find(root, "text", "off-count")}
    assert off == {"0": "1 off", "1": "9 off"}
    assert len([r for r in find(root, "rect", "off") if r.get("data-side") == "1"]) == 9
    # Seven on side 0's 6-point: five drawn, the outermost says 7.
    assert len([c for c in checkers if c.get("data-side") == "0" and c.get("data-point") == "6"]) == 5
    assert [t.text for t in find(root, "text", "count")] == ["7"]


def test_point_numbers_and_checkers_follow_the_viewer():
    position = Position.start(0)
    for viewer in (0, 1):
        root = parse(board_svg(position, viewer=viewer))
        # The viewer's own 6-point is drawn at the x of its point 6 (bottom right quarter);
        # the opponent's 6-point is the viewer's 19 (top right).
        mine = [c for c in find(root, "circle", "checker") if c.get("data-side") == str(viewer) and c.get("data-point") == "6"]
        theirs = [c for c in find(root, "circle", "checker") if c.get("data-side") == str(1 - viewer)
                  and c.get("data-point") == "6"]
        assert {int(c.get("cx")) for c in mine} == {point_x(6)}
        assert {int(c.get("cx")) for c in theirs} == {point_x(19)}
        assert max(float(c.get("cy")) for c in mine) > min(float(c.get("cy")) for c in theirs)


def test_it_escapes_the_title_and_stays_well_formed():
    root = parse(board_svg(Position.start(0), title='Ann & "Bo" <x>'))
    assert root.find(SVG + "title").text == 'Ann & "Bo" <x>'


@pytest.mark.parametrize(("kwargs", "message"), [({"viewer": 2}, "viewer"), ({"dice": (0, 3)}, "dice")])
def test_it_refuses_a_viewer_or_dice_that_cannot_be(kwargs, message):
    with pytest.raises(ValueError, match=message):
        board_svg(Position.start(0), **kwargs)


def test_the_sparkline_draws_one_point_per_value():
    root = parse(sparkline_svg([1500, 1504.5, 1498.2], title="rating"))
    (line,) = find(root, "polyline", "line")
    assert len(line.get("points").split()) == 3
    assert root.find(SVG + "title").text == "rating"
    assert not list(parse(sparkline_svg([])).iter(SVG + "polyline"))

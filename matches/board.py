"""SVG drawings for the pages, made on the server: the backgammon board and a rating sparkline.

Pure Python (no Django): a function of values that returns SVG text, so pages work without
JavaScript and the drawing can be tested by parsing it as XML.

The board is drawn from one side's point of view (the *viewer*): the viewer's home board is at
the bottom right, its points numbered 1..24 from there (1-12 along the bottom, right to left;
13-24 along the top, left to right). The viewer's borne-off tray is the bottom right tray, the
opponent's the top one. Side 0's checkers are always light and side 1's dark, whoever views.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import gettext as _

from engine.board import BAR, OFF, Position

# Geometry (SVG user units). The viewBox scales to any width, so these are proportions only.
MARGIN = 10
POINT_W = 40
BAR_W = 40
TRAY_W = 50
BAND = 20  # the strip above and below the board holding the point numbers
BOARD_H = 360
TRIANGLE_H = 150
RADIUS = 17
STACK = 5  # checkers drawn on one point; beyond this the outermost checker shows the count
BAR_STACK = 4
DIE = 30

LEFT = MARGIN
BAR_X = LEFT + 6 * POINT_W
RIGHT = BAR_X + BAR_W
BOARD_RIGHT = RIGHT + 6 * POINT_W
TRAY_X = BOARD_RIGHT + MARGIN
WIDTH = TRAY_X + TRAY_W + MARGIN
TOP = BAND
BOTTOM = BAND + BOARD_H
MIDDLE = (TOP + BOTTOM) // 2
HEIGHT = BOTTOM + BAND

COLOURS = {
    "frame": "#5b3a1e", "felt": "#2f6b4f", "tray": "#24543e", "point_a": "#e8d3a9", "point_b": "#a0522d",
    "number": "#222", "cube": "#fffdf5",
}
CHECKER = {0: ("#f7f1e1", "#3b3b3b", "#111"), 1: ("#2a2a2a", "#000", "#f7f1e1")}  # fill, stroke, text


def _attrs(**attrs) -> str:
    return "".join(f" {key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}" for key, value in attrs.items())


def _el(tag: str, text: str | None = None, **attrs) -> str:
    if text is None:
        return f"<{tag}{_attrs(**attrs)}/>"
    return f"<{tag}{_attrs(**attrs)}>{escape(text)}</{tag}>"


def point_x(point: int) -> int:
    """The x centre of the viewer's point ``point`` (1..24)."""
    if 1 <= point <= 6:
        return RIGHT + (6 - point) * POINT_W + POINT_W // 2
    if 7 <= point <= 12:
        return LEFT + (12 - point) * POINT_W + POINT_W // 2
    if 13 <= point <= 18:
        return LEFT + (point - 13) * POINT_W + POINT_W // 2
    return RIGHT + (point - 19) * POINT_W + POINT_W // 2


def _triangle(point: int) -> str:
    x = point_x(point)
    half = POINT_W // 2
    if point <= 12:
        base, tip = BOTTOM, BOTTOM - TRIANGLE_H
    else:
        base, tip = TOP, TOP + TRIANGLE_H
    fill = COLOURS["point_a"] if point % 2 else COLOURS["point_b"]
    return _el("polygon", points=f"{x - half},{base} {x + half},{base} {x},{tip}", fill=fill, class_="point",
               data_point=point)


def _checker(cx: int, cy: int, side: int, where: str, label: str | None = None, label_class: str = "count") -> str:
    fill, stroke, ink = CHECKER[side]
    out = _el("circle", cx=cx, cy=cy, r=RADIUS, fill=fill, stroke=stroke, stroke_width=1.5, class_="checker",
              data_side=side, data_point=where)
    if label:
        out += _el("text", label, x=cx, y=cy + 5, fill=ink, font_size=14, font_weight="bold", text_anchor="middle",
                   class_=label_class)
    return out


def _stack(point: int, count: int, side: int, own_point: int) -> list[str]:
    """Up to STACK checkers on the viewer's ``point``, from the edge of the board inwards."""
    x = point_x(point)
    out = []
    shown = min(count, STACK)
    for i in range(shown):
        cy = BOTTOM - RADIUS - 2 * RADIUS * i if point <= 12 else TOP + RADIUS + 2 * RADIUS * i
        label = str(count) if count > STACK and i == shown - 1 else None
        out.append(_checker(x, cy, side, str(own_point), label))
    return out


def _bar(count: int, side: int, upper: bool) -> list[str]:
    """Checkers on the bar, stacked from the middle outwards, the count on the outermost (even
    for one checker: a checker on the bar is the first thing a player must see)."""
    if not count:
        return []
    x = BAR_X + BAR_W // 2
    out = []
    shown = min(count, BAR_STACK)
    for i in range(shown):
        offset = RADIUS + 2 + 2 * RADIUS * i
        cy = MIDDLE - offset if upper else MIDDLE + offset
        label = str(count) if i == shown - 1 else None
        out.append(_checker(x, cy, side, "bar", label, label_class="bar-count"))
    return out


def _tray(count: int, side: int, upper: bool) -> list[str]:
    """Borne-off checkers as thin slabs from the tray's outer edge, with the count in the band."""
    fill = CHECKER[side][0]
    # A grey edge keeps dark slabs visible on the dark tray.
    stroke = "#9a9a9a"
    out = []
    slab = 9
    for i in range(count):
        y = TOP + 2 + slab * i if upper else BOTTOM - 2 - slab * (i + 1)
        out.append(_el("rect", x=TRAY_X + 5, y=y, width=TRAY_W - 10, height=slab - 1, rx=2, fill=fill, stroke=stroke,
                       class_="off", data_side=side))
    y = BAND - 6 if upper else HEIGHT - 6
    out.append(_el("text", _("%(count)s off") % {"count": count}, x=TRAY_X + TRAY_W // 2, y=y, font_size=11,
                   text_anchor="middle", fill=COLOURS["number"], class_="off-count", data_side=side))
    return out


def _side_names(names: Sequence[str] | None) -> tuple[str, str]:
    """The sides as the drawing's titles name them: the players' names, else by their checkers."""
    if names:
        return str(names[0]), str(names[1])
    return _("the player with the light checkers"), _("the player with the dark checkers")


def _cube(value: int, owner: int | None, viewer: int, names: tuple[str, str]) -> str:
    size = 36
    if owner is None:
        x, y = TRAY_X + (TRAY_W - size) // 2, MIDDLE - size // 2
    else:
        x = BAR_X + (BAR_W - size) // 2
        y = BOTTOM - size - 4 if owner == viewer else TOP + 4
    # A centred cube at 1 shows 64, as on a real cube; the title says what it means.
    face = 64 if value == 1 and owner is None else value
    if owner is None:
        title = _("cube at %(value)s, centred") % {"value": value}
    else:
        title = _("cube at %(value)s, owned by %(name)s") % {"value": value, "name": names[owner]}
    return (
        f"<g{_attrs(class_='cube', data_value=value, data_owner='' if owner is None else owner)}>"
        + _el("title", title)
        + _el("rect", x=x, y=y, width=size, height=size, rx=5, fill=COLOURS["cube"], stroke="#000", stroke_width=1.5)
        + _el("text", str(face), x=x + size // 2, y=y + size // 2 + 6, font_size=16 if face < 10 else 14,
              font_weight="bold", text_anchor="middle", fill="#000")
        + "</g>"
    )


_PIPS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _die(cx: int, cy: int, value: int, side: int) -> str:
    fill, stroke, ink = CHECKER[side]
    x, y = cx - DIE // 2, cy - DIE // 2
    out = f"<g{_attrs(class_='die', data_value=value, data_side=side)}>" + _el("title", _("die %(value)s") % {"value": value})
    out += _el("rect", x=x, y=y, width=DIE, height=DIE, rx=5, fill=fill, stroke=stroke, stroke_width=1.5)
    step = DIE // 4
    for dx, dy in _PIPS[value]:
        out += _el("circle", cx=cx + dx * step, cy=cy + dy * step, r=3, fill=ink, class_="pip")
    return out + "</g>"


def _numbers() -> list[str]:
    out = []
    for point in range(1, 25):
        y = HEIGHT - 6 if point <= 12 else BAND - 6
        out.append(_el("text", str(point), x=point_x(point), y=y, font_size=12, text_anchor="middle",
                       fill=COLOURS["number"], class_="point-number"))
    return out


def board_svg(
    position: Position,
    *,
    cube: int = 1,
    owner: int | None = None,
    dice: Sequence[int] | None = None,
    viewer: int = 0,
    title: str = "",
    names: Sequence[str] | None = None,
) -> str:
    """The board of ``position`` as an SVG string, drawn from side ``viewer``'s point of view.

    Draws the 24 points numbered from the viewer's side, the checkers of both sides (at most five
    per point, the outermost showing the count beyond that), the bar, the borne-off trays with
    their counts, the cube (centred in the tray, or at the owner's end of the bar) and ``dice``
    (the side on roll's, on its right-hand half). ``title`` becomes the drawing's accessible name;
    ``names`` are the sides' names (side 0's first), which the titles of the cube and the board say
    (without them, the sides are named by their checkers' colour).
    Changes nothing; raises ValueError for a viewer or die that cannot be.
    """
    if viewer not in (0, 1):
        raise ValueError(f"viewer must be side 0 or 1, not {viewer!r}")
    if dice is not None and (len(dice) != 2 or any(d not in range(1, 7) for d in dice)):
        raise ValueError(f"dice must be two numbers 1..6, not {dice!r}")
    other = 1 - viewer
    sides = _side_names(names)
    parts = [
        _el("title", title or _("Backgammon board, %(name)s on roll") % {"name": sides[position.turn]}),
        _el("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#fff", class_="background"),
        _el("rect", x=LEFT - 4, y=TOP - 4, width=BOARD_RIGHT - LEFT + 8, height=BOARD_H + 8, rx=4,
            fill=COLOURS["frame"]),
        _el("rect", x=LEFT, y=TOP, width=6 * POINT_W, height=BOARD_H, fill=COLOURS["felt"]),
        _el("rect", x=RIGHT, y=TOP, width=6 * POINT_W, height=BOARD_H, fill=COLOURS["felt"]),
        _el("rect", x=BAR_X, y=TOP, width=BAR_W, height=BOARD_H, fill=COLOURS["frame"], class_="bar"),
        _el("rect", x=TRAY_X, y=TOP, width=TRAY_W, height=BOARD_H, rx=3, fill=COLOURS["tray"], class_="tray"),
    ]
    parts += [_triangle(point) for point in range(1, 25)]
    parts += _numbers()
    for side in (viewer, other):
        board = position.boards[side]
        for own in range(1, 25):
            if board[own]:
                shown = own if side == viewer else 25 - own
                parts += _stack(shown, board[own], side, own)
    # The viewer's bar checkers wait above the middle, next to the opponent's home board where
    # they enter (the top right quarter); the opponent's below.
    parts += _bar(position.boards[viewer][BAR], viewer, upper=True)
    parts += _bar(position.boards[other][BAR], other, upper=False)
    parts += _tray(position.boards[viewer][OFF], viewer, upper=False)
    parts += _tray(position.boards[other][OFF], other, upper=True)
    parts.append(_cube(cube, owner, viewer, sides))
    if dice:
        # Each player rolls into the half on his right: the viewer's right half, or the left one
        # for the opponent sitting across the board.
        centre = (RIGHT if position.turn == viewer else LEFT) + 3 * POINT_W
        parts.append(_die(centre - DIE // 2 - 4, MIDDLE, dice[0], position.turn))
        parts.append(_die(centre + DIE // 2 + 4, MIDDLE, dice[1], position.turn))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="board" '
        f'font-family="sans-serif">' + "".join(parts) + "</svg>"
    )


def sparkline_svg(values: Sequence[float], *, width: int = 240, height: int = 48, title: str = "") -> str:
    """A small line chart of ``values`` (oldest first) as an SVG string; empty values give an
    empty frame. The last value is marked with a dot. Changes nothing, raises nothing."""
    pad = 4
    parts = [_el("title", title or _("trend"))]
    if values:
        low, high = min(values), max(values)
        span = (high - low) or 1.0
        step = (width - 2 * pad) / max(len(values) - 1, 1)
        coords = [
            (pad + i * step, pad + (high - v) / span * (height - 2 * pad) if high != low else height / 2)
            for i, v in enumerate(values)
        ]
        parts.append(_el("polyline", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in coords), fill="none",
                         stroke="#1d5c8f", stroke_width=2, class_="line"))
        x, y = coords[-1]
        parts.append(_el("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=3, fill="#1d5c8f"))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" class="sparkline">' + "".join(parts) + "</svg>"
    )

"""One flight of an elimination bracket drawn as SVG on the server, readable on a phone.

Pure Python (no Django), in the style of :mod:`matches.board`: the pages fill the small view-model
below (:class:`BracketRound`, :class:`BracketCell`) from a flight's matches and its
``BracketState`` (``tournaments.draw.advance``), and :func:`bracket_svg` returns SVG text that
works without JavaScript and is tested by parsing it as XML.

The drawing has one column per round, left to right, headed by the round's name and match length
("Semi-finals", "Losers' round 2", "7 pt"): the name comes in with the view-model, rendered by the
pages from ``tournaments.draw.names`` (the one place that names rounds) in the reader's language.
Each match is a two-line box: the top and bottom players, each with his
seed (when given) and score, the winner in bold; a bye and a side still to be decided are shown as
such, and a box with an ``href`` is a link to the match page. Connector lines join each match to
the match its winner goes to.

**Which match feeds which** is not in the view-model, so it is assumed from the order of the
cells: when round r + 1 has fewer cells than round r, cell ``i`` of round r feeds cell ``i // 2``
of round r + 1 (the usual knockout: cells 0 and 1 meet in cell 0); when it has as many cells (an
entry round of a progressive consolation flight, where round r's survivors meet the players
dropping in from the main flight), cell ``i`` feeds cell ``i``, its line ending at the top side
(the survivor's). A cell whose target does not exist gets no connector, so any shape draws; only
unusual shapes lose their lines. ``tournaments.draw`` numbers its matches this way (single
elimination and ``add_consolation``), which the tests check.

Sizing: the SVG has a ``viewBox``, so it scales, its natural size (``width``/``height``, one user
unit to one CSS pixel) as its widest, and a ``min-width`` per column below which it will not
shrink, so names stay readable: a page shows a large bracket in a container that scrolls sideways
(``overflow-x: auto``). Names longer than :data:`NAME_MAX` characters are shortened with an
ellipsis, the full name in a ``<title>`` tooltip. All text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

BYE = "bye"  # the name that shows a bye


@dataclass(frozen=True, slots=True)
class Words:
    """The drawing's own words, given by the caller in the reader's language (this module stays
    pure standard library): a side still to be decided, a bye, the fallback title, a match's
    tooltip (``%(a)s``, ``%(b)s``) and a round's match length (``%(length)d``)."""

    tbd: str = "to be decided"
    bye: str = "bye"
    title: str = "Bracket"
    versus: str = "%(a)s v %(b)s"
    length: str = "%(length)d pt"


ENGLISH = Words()

# Geometry (SVG user units = CSS pixels at natural size).
MARGIN = 12
HEAD = 34  # the strip above the columns holding the round names and match lengths
CELL_W = 236
ROW_H = 26
CELL_H = 2 * ROW_H
GAP = 34  # between two columns, where the connectors run
PITCH = CELL_W + GAP
SLOT = CELL_H + 14  # the vertical distance between two cells of the first round
SEED_W = 28  # the seed column at the left of a cell (when any seed is given)
PAD = 8
FONT = 14
SMALL = 11
MIN_COLUMN_PX = 216  # the narrowest a column may be shown (CSS px): names at about 13 px
NAME_MAX = 22

COLOURS = {
    "ink": "#1a1a1a", "muted": "#6b6b6b", "frame": "#8a8a8a", "cell": "#fff", "rule": "#d9d9d9",
    "winner_row": "#eef5ee", "line": "#9a9a9a", "line_decided": "#3d6b4f", "head": "#1a1a1a",
}
# Status -> (frame stroke, dash pattern, fill): a reported result waits for confirmation, a bye
# is nothing to play.
STATUS_STYLE = {
    "reported": ("#b07d18", "4 3", "#fffaf0"),
    "confirmed": ("#5b5b5b", "", "#fff"),
    "bye": ("#bdbdbd", "3 3", "#fafafa"),
}
DEFAULT_STYLE = (COLOURS["frame"], "", COLOURS["cell"])


@dataclass(frozen=True)
class BracketCell:
    """One match of the drawing.

    ``names``: top and bottom players (None: to be decided; ``"bye"``: a bye). ``scores``: their
    match points (None: not played). ``winner``: 0 (top), 1 (bottom) or None. ``status``: e.g.
    ``scheduled``, ``reported``, ``confirmed``, ``bye`` (it sets the frame's style and a class).
    ``href``: the match page, or None. ``seeds``: the players' seed numbers, when shown.
    ``key``: the match id, kept as ``data-key``.
    """

    key: str
    names: tuple[str | None, str | None]
    scores: tuple[int | None, int | None] = (None, None)
    winner: int | None = None
    status: str = "scheduled"
    href: str | None = None
    seeds: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True)
class BracketRound:
    """One round of a flight: its ``name`` ("Quarter-finals"), match ``length`` in points (0 or
    less: not shown) and its ``cells`` from top to bottom (see the module docstring for order)."""

    name: str
    length: int
    cells: tuple[BracketCell, ...]


def shorten(name: str, limit: int = NAME_MAX) -> str:
    """``name`` cut to ``limit`` characters, the last one an ellipsis, when it is longer."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "\u2026"


def _attrs(**attrs) -> str:
    return "".join(
        f" {key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}" for key, value in attrs.items() if value is not None
    )


def svg_element(tag: str, text: str | None = None, **attrs) -> str:
    """One SVG element as text: ``tag`` with ``attrs`` (``class_`` is ``class``, ``font_size`` is
    ``font-size``; a None value is left out), holding ``text`` escaped, or empty without it.
    Shared with the bracket's export (``bracket_export``)."""
    if text is None:
        return f"<{tag}{_attrs(**attrs)}/>"
    return f"<{tag}{_attrs(**attrs)}>{escape(text)}</{tag}>"


def feed_targets(count: int, next_count: int) -> list[int | None]:
    """For each of ``count`` cells, the cell it feeds among ``next_count`` (None: none). Between
    half and as many cells (a shifted consolation's mixed round): the first
    ``2 * next_count - count`` cells meet newcomers one to one, the rest pair off after them."""
    newcomers = 2 * next_count - count if count / 2 <= next_count <= count else 0
    out = []
    for i in range(count):
        j = i if i < newcomers else newcomers + (i - newcomers) // 2
        out.append(j if j < next_count else None)
    return out


def _entry_side(count: int, next_count: int, i: int) -> bool:
    """Whether cell ``i``'s winner takes the top side of a cell that a newcomer joins."""
    return count / 2 < next_count <= count and i < 2 * next_count - count


def cell_centres(rounds: Sequence[BracketRound]) -> list[list[float]]:
    """The y centre of every cell: the first round evenly spaced, a later cell level with the
    middle of the cells feeding it, and never closer than SLOT to the cell above it."""
    out: list[list[float]] = []
    for r, rnd in enumerate(rounds):
        wanted: list[float | None] = [None] * len(rnd.cells)
        if r:
            feeders: dict[int, list[float]] = {}
            for i, j in enumerate(feed_targets(len(rounds[r - 1].cells), len(rnd.cells))):
                if j is not None:
                    feeders.setdefault(j, []).append(out[r - 1][i])
            wanted = [sum(feeders[j]) / len(feeders[j]) if j in feeders else None for j in range(len(rnd.cells))]
        column: list[float] = []
        for want in wanted:
            lowest = column[-1] + SLOT if column else HEAD + CELL_H / 2
            column.append(lowest if want is None else max(want, lowest))
        out.append(column)
    return out


def _fmt(value: float) -> str:
    return f"{value:g}"


def _row(cell: BracketCell, side: int, x: float, top: float, seeded: bool, words: Words) -> str:
    name, score, seed = cell.names[side], cell.scores[side], cell.seeds[side]
    won = cell.winner == side
    base = top + ROW_H / 2 + FONT * 0.36  # the baseline that centres the text in its row
    parts = []
    if won:
        parts.append(svg_element("rect", x=_fmt(x + 1), y=_fmt(top + 1), width=CELL_W - 2, height=ROW_H - 1,
                                 fill=COLOURS["winner_row"], class_="winner-row"))
    name_x = x + (SEED_W if seeded else PAD)
    if seeded and seed is not None:
        parts.append(svg_element("text", str(seed), x=_fmt(x + SEED_W - 8), y=_fmt(base), font_size=SMALL, text_anchor="end",
                                 fill=COLOURS["muted"], class_="seed"))
    if name is None:
        parts.append(f"<g{_attrs(class_='name tbd')}>" + svg_element("title", words.tbd)
                     + svg_element("text", "\u2014", x=_fmt(name_x), y=_fmt(base), font_size=FONT, fill=COLOURS["muted"])
                     + "</g>")
    elif name == BYE:
        parts.append(svg_element("text", words.bye, x=_fmt(name_x), y=_fmt(base), font_size=FONT, font_style="italic",
                                 fill=COLOURS["muted"], class_="name bye"))
    else:
        short = shorten(name)
        text = svg_element("text", short, x=_fmt(name_x), y=_fmt(base), font_size=FONT, fill=COLOURS["ink"],
                           font_weight="bold" if won else None, class_="name winner" if won else "name")
        parts.append(text if short == name else f"<g{_attrs(class_='long-name')}>" + svg_element("title", name) + text + "</g>")
    if score is not None:
        parts.append(svg_element("text", str(score), x=_fmt(x + CELL_W - PAD), y=_fmt(base), font_size=FONT, text_anchor="end",
                                 fill=COLOURS["ink"], font_weight="bold" if won else None,
                                 class_="score winner" if won else "score"))
    return f"<g{_attrs(class_='side', data_side=side)}>" + "".join(parts) + "</g>"


def _cell(cell: BracketCell, x: float, cy: float, seeded: bool, words: Words) -> str:
    top = cy - CELL_H / 2
    stroke, dash, fill = STATUS_STYLE.get(cell.status, DEFAULT_STYLE)
    body = (
        svg_element("rect", x=_fmt(x), y=_fmt(top), width=CELL_W, height=CELL_H, rx=4, fill=fill, stroke=stroke,
                    stroke_width=1.2, stroke_dasharray=dash or None, class_="frame")
        + _row(cell, 0, x, top, seeded, words)
        + _row(cell, 1, x, top + ROW_H, seeded, words)
        + svg_element("line", x1=_fmt(x + 1), y1=_fmt(cy), x2=_fmt(x + CELL_W - 1), y2=_fmt(cy), stroke=COLOURS["rule"],
                      stroke_width=1)
        # The frame again, unfilled, so the winner's shading does not cover its edge.
        + svg_element("rect", x=_fmt(x), y=_fmt(top), width=CELL_W, height=CELL_H, rx=4, fill="none", stroke=stroke,
                      stroke_width=1.2, stroke_dasharray=dash or None)
    )
    group = f"<g{_attrs(class_=f'cell {cell.status}', data_key=cell.key, data_status=cell.status)}>{body}</g>"
    if cell.href is None:
        return group
    first, second = (words.tbd if n is None else n for n in cell.names)
    label = words.versus % {"a": first, "b": second}
    return f"<a{_attrs(href=cell.href, class_='match-link')}>" + svg_element("title", label) + group + "</a>"


def column_x(r: int) -> float:
    """The x of the left edge of round ``r``'s column (0 for the first round)."""
    return MARGIN + r * PITCH


def bracket_svg(rounds: Sequence[BracketRound], *, title: str = "", words: Words = ENGLISH) -> str:
    """One flight of a bracket, ``rounds`` first round first, as an SVG string.

    Draws a column per round headed by its name and match length, a two-line box per cell (see
    :class:`BracketCell`), and a connector from each cell to the cell of the next round its winner
    goes to (``i -> i // 2``, or ``i -> i`` when the next round has as many cells: see the module
    docstring). ``title`` becomes the drawing's accessible name. Changes nothing, raises nothing;
    no rounds give an empty drawing.
    """
    centres = cell_centres(rounds)
    seeded = any(s is not None for rnd in rounds for cell in rnd.cells for s in cell.seeds)
    columns = len(rounds)
    width = round(2 * MARGIN + max(columns, 1) * CELL_W + max(columns - 1, 0) * GAP)
    bottom = max((c[-1] for c in centres if c), default=HEAD)
    height = round(bottom + CELL_H / 2 + MARGIN) if any(centres) else HEAD + MARGIN
    parts = [svg_element("title", title or words.title),
             svg_element("rect", x=0, y=0, width=width, height=height, fill="#fff", class_="background")]
    for r, rnd in enumerate(rounds):
        x = column_x(r)
        parts.append(svg_element("text", shorten(rnd.name, 26), x=_fmt(x), y=HEAD - 12, font_size=FONT, font_weight="bold",
                                 fill=COLOURS["head"], class_="round-name"))
        if rnd.length > 0:
            parts.append(svg_element("text", words.length % {"length": rnd.length}, x=_fmt(x + CELL_W), y=HEAD - 12,
                                     font_size=SMALL + 1, text_anchor="end", fill=COLOURS["muted"], class_="round-length"))
    # Connectors first, so the boxes sit on top of their ends.
    for r in range(columns - 1):
        x1, x2 = column_x(r) + CELL_W, column_x(r + 1)
        middle = x1 + GAP / 2
        cells = rounds[r].cells
        for i, j in enumerate(feed_targets(len(cells), len(rounds[r + 1].cells))):
            if j is None:
                continue
            entry = _entry_side(len(cells), len(rounds[r + 1].cells), i)
            # In an entry round the survivor takes the top line (the bottom one is a newcomer).
            y1, y2 = centres[r][i], centres[r + 1][j] - (ROW_H / 2 if entry else 0)
            # Only a confirmed result advances a bracket (RULES.md §8): a reported one stays grey.
            decided = cells[i].winner is not None and cells[i].status != "reported"
            path = f"M{_fmt(x1)} {_fmt(y1)}H{_fmt(middle)}V{_fmt(y2)}H{_fmt(x2)}"
            parts.append(svg_element("path", d=path, fill="none", stroke=COLOURS["line_decided" if decided else "line"],
                                     stroke_width=2 if decided else 1.5, class_="connector decided" if decided else "connector",
                                     data_from=cells[i].key, data_to=rounds[r + 1].cells[j].key))
    for r, rnd in enumerate(rounds):
        for i, cell in enumerate(rnd.cells):
            parts.append(_cell(cell, column_x(r), centres[r][i], seeded, words))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'style="min-width:{max(columns, 1) * MIN_COLUMN_PX}px;max-width:100%;height:auto" role="img" '
        f'class="bracket" font-family="sans-serif">' + "".join(parts) + "</svg>"
    )

"""A whole bracket (every flight, one under the other) as one SVG file or one PNG image, for the
downloads (``bracket.svg``, ``bracket.png``).

Both use the geometry of :mod:`tournaments.drawings.bracket_svg` (the same columns, boxes and connectors),
so the image is the drawing the pages show. The PNG is drawn with Pillow alone: its wheels carry
FreeType and zlib, so nothing outside pip is needed (cairosvg or pyvips would need libcairo or
libvips from the system). The font is DejaVu Sans when the system has it (most Linux
distributions), else Pillow's own; a name in a script the font lacks shows as boxes in the PNG
(the SVG leaves the font to the viewer).

Pure: no Django; the caller gives the flights' titles and rounds and the drawing's words.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from functools import cache
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

from . import bracket_svg as b

#: The space above each flight for its title, and between two flights.
TITLE_H = 40
FLIGHT_GAP = 16
#: The PNG's pixels are at most this many (a big bracket is drawn smaller, not refused): Pillow
#: holds the whole image while it draws, 3 bytes a pixel (48 MB here), so this bounds the memory of
#: one drawing. A 1,024-entrant bracket with its consolation flight is 2,690 by 51,000 units: at
#: this size about 920 by 17,400 pixels (its SVG is the file to read it in).
MAX_PIXELS = 16_000_000
FONTS = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
BOLD_FONTS = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

Flight = tuple[str, Sequence[b.BracketRound]]  # (title, rounds)


def _size(rounds: Sequence[b.BracketRound]) -> tuple[int, int]:
    """The natural size of one flight's drawing (as :func:`bracket_svg.bracket_svg` gives it)."""
    svg = b.bracket_svg(rounds)
    found = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    return int(found.group(1)), int(found.group(2))


def bracket_svg_file(flights: Sequence[Flight], *, title: str, words: b.Words = b.ENGLISH) -> str:
    """Every flight's drawing, each under its title, in one standalone SVG document."""
    parts, y, width = [], 0, 0
    for name, rounds in flights:
        w, h = _size(rounds)
        parts.append(b.svg_element("text", name, x=b.MARGIN, y=y + TITLE_H - 12, font_size=20, font_weight="bold",
                                   fill=b.COLOURS["head"], class_="flight-title"))
        inner = b.bracket_svg(rounds, title=f"{title}: {name}", words=words)
        # The flight's own drawing, placed under its title at its natural size.
        inner = inner.replace("<svg ", f'<svg x="0" y="{y + TITLE_H}" ', 1)
        inner = re.sub(r' style="[^"]*"', "", inner, count=1)
        parts.append(inner)
        y += TITLE_H + h + FLIGHT_GAP
        width = max(width, w)
    height = max(y - FLIGHT_GAP, TITLE_H)
    width = max(width, 2 * b.MARGIN + b.CELL_W)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" font-family="sans-serif"><title>{escape(title)}</title>'
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>' + "".join(parts) + "</svg>\n"
    )


@cache
def _font(size: int, bold: bool = False) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    for name in BOLD_FONTS if bold else FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def _text(draw: ImageDraw.ImageDraw, s: float, x: float, baseline: float, text: str, size: int, *,
          fill: str, bold: bool = False, anchor: str = "ls") -> None:
    draw.text((x * s, baseline * s), text, font=_font(max(6, round(size * s)), bold), fill=fill, anchor=anchor)


def _flight_png(draw: ImageDraw.ImageDraw, s: float, top: float, rounds: Sequence[b.BracketRound],
                words: b.Words) -> None:
    centres = [[c + top for c in column] for column in b.cell_centres(rounds)]
    seeded = any(x is not None for rnd in rounds for cell in rnd.cells for x in cell.seeds)
    for r, rnd in enumerate(rounds):
        x = b.column_x(r)
        _text(draw, s, x, top + b.HEAD - 12, b.shorten(rnd.name, 26), b.FONT, fill=b.COLOURS["head"], bold=True)
        if rnd.length > 0:
            _text(draw, s, x + b.CELL_W, top + b.HEAD - 12, words.length % {"length": rnd.length}, b.SMALL + 1,
                  fill=b.COLOURS["muted"], anchor="rs")
    for r in range(len(rounds) - 1):
        x1, x2 = b.column_x(r) + b.CELL_W, b.column_x(r + 1)
        middle = x1 + b.GAP / 2
        cells = rounds[r].cells
        entry = len(rounds[r + 1].cells) == len(cells)
        for i, j in enumerate(b.feed_targets(len(cells), len(rounds[r + 1].cells))):
            if j is None:
                continue
            y1, y2 = centres[r][i], centres[r + 1][j] - (b.ROW_H / 2 if entry else 0)
            decided = cells[i].winner is not None and cells[i].status != "reported"
            colour = b.COLOURS["line_decided" if decided else "line"]
            points = [(x1 * s, y1 * s), (middle * s, y1 * s), (middle * s, y2 * s), (x2 * s, y2 * s)]
            draw.line(points, fill=colour, width=max(1, round((2 if decided else 1.5) * s)), joint="curve")
    for r, rnd in enumerate(rounds):
        x = b.column_x(r)
        for i, cell in enumerate(rnd.cells):
            cy = centres[r][i]
            cell_top = cy - b.CELL_H / 2
            stroke, _dash, fill = b.STATUS_STYLE.get(cell.status, b.DEFAULT_STYLE)
            box = (x * s, cell_top * s, (x + b.CELL_W) * s, (cell_top + b.CELL_H) * s)
            draw.rounded_rectangle(box, radius=4 * s, fill=fill, outline=stroke, width=max(1, round(1.2 * s)))
            for side in (0, 1):
                row_top = cell_top + side * b.ROW_H
                won = cell.winner == side
                if won:
                    draw.rectangle(((x + 1) * s, (row_top + 1) * s, (x + b.CELL_W - 1) * s, (row_top + b.ROW_H) * s),
                                   fill=b.COLOURS["winner_row"])
                base = row_top + b.ROW_H / 2 + b.FONT * 0.36
                name_x = x + (b.SEED_W if seeded else b.PAD)
                name, score, seed = cell.names[side], cell.scores[side], cell.seeds[side]
                if seeded and seed is not None:
                    _text(draw, s, x + b.SEED_W - 8, base, str(seed), b.SMALL, fill=b.COLOURS["muted"], anchor="rs")
                if name is None:
                    _text(draw, s, name_x, base, "\u2014", b.FONT, fill=b.COLOURS["muted"])
                elif name == b.BYE:
                    _text(draw, s, name_x, base, words.bye, b.FONT, fill=b.COLOURS["muted"])
                else:
                    _text(draw, s, name_x, base, b.shorten(name), b.FONT, fill=b.COLOURS["ink"], bold=won)
                if score is not None:
                    _text(draw, s, x + b.CELL_W - b.PAD, base, str(score), b.FONT, fill=b.COLOURS["ink"], bold=won,
                          anchor="rs")
            draw.line(((x + 1) * s, cy * s, (x + b.CELL_W - 1) * s, cy * s), fill=b.COLOURS["rule"], width=1)
            draw.rounded_rectangle(box, radius=4 * s, outline=stroke, width=max(1, round(1.2 * s)))


def bracket_png(flights: Sequence[Flight], *, words: b.Words = b.ENGLISH, scale: float = 2.0) -> bytes:
    """Every flight's drawing, each under its title, as PNG bytes: ``scale`` pixels per unit (2: sharp
    on a printed page or a projector), less for a bracket that would exceed :data:`MAX_PIXELS`."""
    sizes = [_size(rounds) for _name, rounds in flights]
    width = max([w for w, _h in sizes] + [2 * b.MARGIN + b.CELL_W])
    height = max(sum(TITLE_H + h + FLIGHT_GAP for _w, h in sizes) - FLIGHT_GAP, TITLE_H)
    s = min(scale, (MAX_PIXELS / (width * height)) ** 0.5)
    image = Image.new("RGB", (max(1, round(width * s)), max(1, round(height * s))), "#fff")
    draw = ImageDraw.Draw(image)
    y = 0
    for (name, rounds), (_w, h) in zip(flights, sizes, strict=True):
        _text(draw, s, b.MARGIN, y + TITLE_H - 12, name, 20, fill=b.COLOURS["head"], bold=True)
        _flight_png(draw, s, y + TITLE_H, rounds, words)
        y += TITLE_H + h + FLIGHT_GAP
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()

"""Paper: a match's scoresheet as PDF (ReportLab), and the fonts and page helpers every printed
sheet shares (the event's draw sheet and results sheet in ``tournaments.drawings.paper`` build on them).

Fonts, chosen per piece of text so that every player's name prints in its own script and stays
text a PDF reader can copy:

- Latin (Romanian ``ș ț ă î â`` included), Greek, Cyrillic: Noto Sans, the TrueType file the
  ``fontpkg-noto-sans`` package ships (embedded, subset);
- Korean (Hangul, and CJK ideographs): ReportLab's built-in CID font ``HYGothic-Medium`` (Adobe's
  Korean collection: the PDF reader supplies the glyphs, no file needed);
- Arabic: Noto Sans Arabic from ``fontpkg-noto-sans-arabic``; ReportLab draws glyphs left to right
  without shaping, so the text is first joined into its contextual forms (``arabic-reshaper``) and
  put in visual order (``python-bidi``);
- when a font package is missing, Helvetica (Latin-1 only) stands in, so a sheet is still printed.

Sheets are landscape or portrait A4 or US Letter (:data:`PAPERS`). Every page carries a header
(``title``, ``subtitle``) and "Page x of y": the pages are planned before they are drawn, so the
total is known.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from core.text import isolate

#: ``?paper=`` -> the page size (portrait; the draw sheet turns it landscape).
PAPERS = {"a4": A4, "letter": LETTER}
DEFAULT_PAPER = "a4"

LATIN, KOREAN, ARABIC, FALLBACK = "CrawfordSans", "HYGothic-Medium", "CrawfordArabic", "Helvetica"
MARGIN = 36  # half an inch all round
INK, MUTED, RULE = (0.1, 0.1, 0.1), (0.42, 0.42, 0.42), (0.75, 0.75, 0.75)


class PaperError(ValueError):
    """A paper size that is not offered."""


def page_size(paper: str | None, *, turned: bool = False) -> tuple[float, float]:
    """The page size of ``paper`` (``a4``, ``letter``; None: A4), landscape when ``turned``;
    raises :class:`PaperError` for anything else."""
    size = PAPERS.get((paper or DEFAULT_PAPER).lower())
    if size is None:
        raise PaperError(paper)
    return landscape(size) if turned else size


# --- fonts -----------------------------------------------------------------------------------------


def _font_file(package: str, name: str) -> str | None:
    try:
        module = __import__(package)
    except ImportError:
        return None
    path = module.ROOT / "files" / name
    return str(path) if path.exists() else None


@cache
def fonts() -> dict[str, str]:
    """Register the fonts once; script -> font name (a missing package: Helvetica)."""
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfbase.ttfonts import TTFont

    chosen = {"latin": FALLBACK, "arabic": FALLBACK, "korean": KOREAN}
    pdfmetrics.registerFont(UnicodeCIDFont(KOREAN))
    for script, font, package, file in (("latin", LATIN, "fontpkg_noto_sans", "NotoSans[wdth,wght].ttf"),
                                        ("arabic", ARABIC, "fontpkg_noto_sans_arabic", "NotoSansArabic[wdth,wght].ttf")):
        path = _font_file(package, file)
        if path is not None:
            pdfmetrics.registerFont(TTFont(font, path))
            chosen[script] = font
    return chosen


def _char_script(char: str) -> str | None:
    """The script of one character: ``korean``, ``arabic``, ``latin``, or None for a neutral one
    (a space, a digit, punctuation) that goes with its neighbours."""
    code = ord(char)
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F or 0x4E00 <= code <= 0x9FFF:
        return "korean"
    if 0x0600 <= code <= 0x06FF or 0x0750 <= code <= 0x077F or 0xFB50 <= code <= 0xFEFF:
        return "arabic"
    if char.isalpha():
        return "latin"
    return None


def runs(text: str) -> list[tuple[str, str]]:
    """``text`` cut into runs of one script each, ``(script, text)``, in reading order; a neutral
    character goes with the run before it (at the start, with the first script found)."""
    scripts = [_char_script(char) for char in text]
    current = next((script for script in scripts if script is not None), "latin")
    out: list[list[str]] = []
    for char, script in zip(text, scripts, strict=True):
        current = script or current
        if out and out[-1][0] == current:
            out[-1][1] += char
        else:
            out.append([current, char])
    return [(script, chunk) for script, chunk in out]


#: The direction isolates a sentence puts around a name (``core.text.isolate``): they decide the
#: order of the line before it is drawn, and draw nothing themselves (a font has no glyph for them).
_ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")


def _visual(text: str) -> str:
    """``text`` as it is drawn, left to right: a line holding Arabic has its letters joined into
    their contextual forms (``arabic-reshaper``) and is put in visual order (``python-bidi``, which
    keeps each isolated name one run), read right to left when its first letter is Arabic; any
    other line is drawn as it is. The isolates themselves are left out."""
    if not any(_char_script(char) == "arabic" for char in text):
        return text.translate(_ISOLATES)
    try:
        import arabic_reshaper
        from bidi import get_display
    except ImportError:
        return text.translate(_ISOLATES)
    base = "R" if next((s for s in map(_char_script, text) if s is not None), None) == "arabic" else "L"
    return get_display(arabic_reshaper.reshape(text), base_dir=base).translate(_ISOLATES)


def font_of(text: str) -> str:
    """The font of the first run of ``text`` (see the module docstring)."""
    found = runs(text)
    return fonts()[found[0][0] if found else "latin"]


def text_width(text: str, size: float) -> float:
    chosen = fonts()
    return sum(pdfmetrics.stringWidth(chunk, chosen[script], size) for script, chunk in runs(_visual(text)))


def fit(text: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` wide at ``size``."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "\u2026", size) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def draw(canvas: Canvas, x: float, y: float, text: str, size: float = 10, *, anchor: str = "start",
         width: float | None = None, colour=INK) -> None:
    """Draw ``text`` with its baseline at ``y``: from ``x`` (``start``), ending at it (``end``) or
    centred on it (``middle``), cut to ``width`` when given; in visual order (see :func:`_visual`),
    each run of one script in its script's font."""
    text = unicodedata.normalize("NFC", str(text))
    if width is not None:
        text = fit(text, size, width)
    total = text_width(text, size)
    if anchor == "end":
        x -= total
    elif anchor == "middle":
        x -= total / 2
    chosen = fonts()
    canvas.setFillColorRGB(*colour)
    for script, chunk in runs(_visual(text)):
        canvas.setFont(chosen[script], size)
        canvas.drawString(x, y, chunk)
        x += pdfmetrics.stringWidth(chunk, chosen[script], size)


# --- pages -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """One planned page: its header lines and what draws its body (given the canvas and the body's
    box: left, bottom, right, top)."""

    title: str
    subtitle: str
    body: Callable[[Canvas, float, float, float, float], None]


def render(pages: Sequence[Page], size: tuple[float, float], *, document_title: str) -> bytes:
    """The PDF of ``pages`` on paper of ``size``: each page headed by its title and subtitle,
    footed by "Page x of y". No pages give one page saying there is nothing to print."""
    if not pages:
        pages = [Page(document_title, _("There is nothing to print yet."), lambda *args: None)]
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=size, pageCompression=1)
    canvas.setTitle(document_title)
    canvas.setCreator("Crawford")
    width, height = size
    total = len(pages)
    for number, page in enumerate(pages, 1):
        draw(canvas, MARGIN, height - MARGIN - 12, page.title, 14, width=width - 2 * MARGIN)
        draw(canvas, MARGIN, height - MARGIN - 28, page.subtitle, 10, width=width - 2 * MARGIN, colour=MUTED)
        canvas.setStrokeColorRGB(*RULE)
        canvas.line(MARGIN, height - MARGIN - 34, width - MARGIN, height - MARGIN - 34)
        draw(canvas, width - MARGIN, MARGIN - 14, _("Page %(number)d of %(total)d") % {"number": number, "total": total},
             8, anchor="end", colour=MUTED)
        page.body(canvas, MARGIN, MARGIN, width - MARGIN, height - MARGIN - 44)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


# --- the scoresheet ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scoresheet:
    """What one match's scoresheet shows: where it is played (``context``: the event and round),
    its ``reference`` (the match's number), the two sides' names, the length (0: a money session)
    and whether the Crawford rule is on."""

    context: str
    reference: str
    names: tuple[str, str]
    length: int
    crawford: bool
    clock: str = ""  # the clock as a sentence (matches.clocks); empty without one


def game_rows(length: int) -> int:
    """How many game lines a scoresheet has: enough for a match of ``length`` played game by game
    (the longest match one point at a time takes 2 x length - 1 games), at least 11, at most 25."""
    return max(11, min(25, 2 * length - 1))


def _box(canvas: Canvas, x: float, y: float, side: float) -> None:
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.8)
    canvas.rect(x, y, side, side, stroke=1, fill=0)


def _scoresheet_body(sheet: Scoresheet) -> Callable[[Canvas, float, float, float, float], None]:
    def body(canvas: Canvas, left: float, bottom: float, right: float, top: float) -> None:
        width = right - left
        y = top - 6
        length = (_("Match to %(length)d points") % {"length": sheet.length} if sheet.length
                  else _("Money session"))
        crawford = _("Crawford rule: on") if sheet.crawford else _("Crawford rule: off")
        draw(canvas, left, y, f"{length}  \u00b7  {crawford}", 11)
        if sheet.clock:  # the match's clock, under its length
            y -= 14
            draw(canvas, left, y, sheet.clock, 9, width=width)
        y -= 26
        # The players, side by side.
        half = width / 2
        for index, name in enumerate(sheet.names):
            x = left + index * half
            draw(canvas, x, y + 12, _("Player %(number)d") % {"number": index + 1}, 8, colour=MUTED)
            draw(canvas, x, y - 4, name, 13, width=half - 12)
        y -= 30
        # The game lines: game number, the Crawford box, each side's points won and score after it.
        rows = game_rows(sheet.length)
        columns = [0.0, 0.08, 0.2, 0.4, 0.6, 0.8, 1.0]  # game | Crawford | A won | A score | B won | B score
        heads = [_("Game"), pgettext("scoresheet column", "Crawford"), _("Points won"), _("Score"),
                 _("Points won"), _("Score")]
        xs = [left + c * width for c in columns]
        draw(canvas, (xs[2] + xs[4]) / 2, y + 4, sheet.names[0], 9, anchor="middle", width=xs[4] - xs[2] - 8)
        draw(canvas, (xs[4] + xs[6]) / 2, y + 4, sheet.names[1], 9, anchor="middle", width=xs[6] - xs[4] - 8)
        y -= 14
        for i, head in enumerate(heads):
            draw(canvas, (xs[i] + xs[i + 1]) / 2, y + 4, head, 8, anchor="middle", width=xs[i + 1] - xs[i] - 4,
                 colour=MUTED)
        signatures = 80
        row_h = min(22.0, (y - bottom - signatures) / rows)
        canvas.setStrokeColorRGB(*INK)
        canvas.setLineWidth(0.6)
        table_top = y
        for row in range(rows + 1):
            canvas.line(xs[0], table_top - row * row_h, xs[-1], table_top - row * row_h)
        for i, x in enumerate(xs):
            canvas.setLineWidth(1.2 if i in (0, 2, 4, 6) else 0.6)
            canvas.line(x, table_top, x, table_top - rows * row_h)
        for row in range(rows):
            base = table_top - (row + 1) * row_h
            draw(canvas, (xs[0] + xs[1]) / 2, base + row_h / 2 - 3, str(row + 1), 9, anchor="middle")
            if sheet.crawford and sheet.length:
                side = min(10.0, row_h - 6)
                _box(canvas, (xs[1] + xs[2]) / 2 - side / 2, base + (row_h - side) / 2, side)
        y = table_top - rows * row_h - 22
        draw(canvas, left, y, _("Final score: ________ to ________"), 10)
        draw(canvas, left + half, y, _("Winner: ______________________________"), 10)
        if sheet.clock:  # each side's time left when the match ended
            y -= 18
            draw(canvas, left, y, _("Time left: ________ and ________"), 10)
        y -= 40
        canvas.setStrokeColorRGB(*INK)
        canvas.setLineWidth(0.8)
        for index, name in enumerate(sheet.names):
            x = left + index * half
            canvas.line(x, y, x + half - 24, y)
            draw(canvas, x, y - 11, _("Signature of %(name)s") % {"name": name}, 8, width=half - 24, colour=MUTED)
    return body


def scoresheet_pages(sheets: Sequence[Scoresheet]) -> list[Page]:
    """One page per match."""
    return [Page(_("Scoresheet: %(a)s v %(b)s") % {"a": isolate(s.names[0]), "b": isolate(s.names[1])},
                 " \u00b7 ".join(part for part in (s.context, s.reference) if part), _scoresheet_body(s))
            for s in sheets]


def scoresheets_pdf(sheets: Sequence[Scoresheet], *, paper: str | None = None, title: str = "") -> bytes:
    """The scoresheets of ``sheets``, one page each, portrait; raises :class:`PaperError` for a
    paper not offered."""
    return render(scoresheet_pages(sheets), page_size(paper), document_title=title or _("Scoresheets"))

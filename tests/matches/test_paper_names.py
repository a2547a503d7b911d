"""A printed sheet draws a sentence whose names stand in Unicode isolates (core.text.isolate): the
isolates order the line and are never drawn themselves (a font has no glyph for them)."""

from __future__ import annotations

from matches.paper import draw


class Canvas:
    """What ``draw`` asks of a ReportLab canvas, keeping the strings drawn in their order."""

    def __init__(self):
        self.drawn: list[str] = []

    def setFillColorRGB(self, *colour):  # ReportLab's name
        pass

    def setFont(self, font, size):  # ReportLab's name
        pass

    def drawString(self, x, y, text):  # ReportLab's name
        self.drawn.append(text)


def test_an_arabic_line_draws_two_isolated_latin_names_as_two_runs_without_the_isolates():
    canvas = Canvas()
    draw(canvas, 0, 0, "سجّل \u2068Olga Lee\u2069 \u2068Ana Pop\u2069")
    line = "".join(canvas.drawn)
    assert not set(line) & set("\u2066\u2067\u2068\u2069")
    # Drawn left to right: the second name is on the left, the first one next to the verb on the right.
    assert line.index("Ana Pop") < line.index("Olga Lee")


def test_a_latin_line_with_an_isolated_name_draws_it_without_the_isolates():
    canvas = Canvas()
    draw(canvas, 0, 0, "Scoresheet: \u2068Olga Lee\u2069 v \u2068Ana Pop\u2069")
    assert "".join(canvas.drawn) == "Scoresheet: Olga Lee v Ana Pop"

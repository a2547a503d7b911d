"""Paper for an event's director: the draw sheet, the scoresheets of a round and the results sheet
of a round, as PDF (ReportLab; fonts, page header and the scoresheet itself in ``matches.paper``).

**The draw sheet** prints every flight of an elimination event, every round, landscape. It is laid
out as the bracket page draws it (``tournaments.drawings.bracket_svg``: a column per round, a two-line box
per match, a connector from each match to the one its winner goes to, cell ``i`` feeding cell
``i // 2``, or ``i`` in an entry round): a page holds at most :data:`ROUNDS_PER_PAGE` rounds and
at most :data:`FIRST_COLUMN_MATCHES` matches in its first column, with the matches of the later
rounds they feed, so names stay at a readable size. A bigger flight is split into sections (page
after page, as the bracket page's sections) and, past six rounds, into windows of rounds. Each page
is headed by the event, the flight, its rounds and section, and "Page x of y". Unknown players
are left blank, to be written in by hand.

**The scoresheets of round n**: one page per match of round n of every flight (of a Swiss or round
robin: of round n) whose two players are known. **The results sheet of round n**: a table of its
matches (number, players, score, winner), page after page.

Everything is read through the selectors (a fixed number of queries whatever the event's size).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.pdfgen.canvas import Canvas

from matches.clocks import planned_clock_text
from matches.paper import INK, MUTED, RULE, Page, Scoresheet, draw, page_size, render, scoresheet_pages
from tournaments.labels import flight_title  # the one place that names flights
from tournaments.models import Tournament
from tournaments.selectors import brackets, event, pairings
from tournaments.selectors import rounds as rounds_selectors
from tournaments.services.clocks import event_match_clock

from .bracket_svg import feed_targets as feeds  # which cell a cell's winner goes to: one rule for screen and paper

ROUNDS_PER_PAGE = 6
FIRST_COLUMN_MATCHES = 16
HEAD = 24  # the strip above the columns: round names and lengths
GAP = 14  # between two columns, where the connectors run
WINNER_FILL = (0.9, 0.9, 0.9)


# --- the draw sheet ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Column:
    label: str
    length: int
    matches: tuple[pairings.PairingView, ...]
    entry: bool  # the next column has as many matches (an entry round follows)


def _plan(rounds: Sequence[brackets.RoundView]) -> list[tuple[int, int, int, list[_Column]]]:
    """The pages of one flight: ``(first round, section, sections, columns)``."""
    pages = []
    for start in range(0, len(rounds), ROUNDS_PER_PAGE):
        window = rounds[start:start + ROUNDS_PER_PAGE]
        parts = max(1, -(-len(window[0].matches) // FIRST_COLUMN_MATCHES))
        for part in range(parts):
            columns = []
            for index, rnd in enumerate(window):
                count = len(rnd.matches)
                picked = rnd.matches[count * part // parts: count * (part + 1) // parts]
                following = rounds[start + index + 1] if start + index + 1 < len(rounds) else None
                columns.append(_Column(rnd.label, rnd.length, tuple(picked),
                                       following is not None and len(following.matches) == count))
            pages.append((window[0].number, part + 1, parts, columns))
    return pages


def _centres(columns: list[_Column], slot: float) -> list[list[float]]:
    """Each cell's distance from the top of the cells' area: the first column evenly spaced, a
    later cell level with the middle of the cells feeding it, never closer than ``slot``."""
    out: list[list[float]] = []
    for c, column in enumerate(columns):
        wanted: list[float | None] = [None] * len(column.matches)
        if c:
            fed: dict[int, list[float]] = {}
            for i, j in enumerate(feeds(len(columns[c - 1].matches), len(column.matches))):
                if j is not None:
                    fed.setdefault(j, []).append(out[c - 1][i])
            wanted = [sum(fed[j]) / len(fed[j]) if j in fed else None for j in range(len(column.matches))]
        placed: list[float] = []
        for want in wanted:
            lowest = placed[-1] + slot if placed else slot / 2
            placed.append(lowest if want is None else max(want, lowest))
        out.append(placed)
    return out


def _side(match: pairings.PairingView, index: int) -> tuple[str, int | None, bool]:
    """(name, seed, is the bye) of the top (0) or bottom (1) side; a side still to be decided is
    an empty name."""
    entrant = match.top if index == 0 else match.bottom
    bye = match.top_bye if index == 0 else match.bottom_bye
    if bye:
        # Translators: a bracket's empty place: the entrant opposite goes through without playing (KO 부전승, AR إعفاء, RO liber).
        return pgettext("bracket", "bye"), None, True
    return (entrant.name, entrant.seed, False) if entrant is not None else ("", None, False)


def _draw_cell(canvas: Canvas, match: pairings.PairingView, x: float, cy: float, width: float, cell_h: float,
               font: float) -> None:
    row_h = cell_h / 2
    top = cy + row_h
    sides = (match.top, match.bottom)
    for index in range(2):
        name, seed, bye = _side(match, index)
        row_top = top - index * row_h
        entrant = sides[index]
        won = match.winner is not None and entrant is not None and entrant.entry_id == match.winner
        if won:
            canvas.setFillColorRGB(*WINNER_FILL)
            canvas.rect(x, row_top - row_h, width, row_h, stroke=0, fill=1)
        base = row_top - row_h / 2 - font * 0.35
        seed_w = font * 1.9
        if seed is not None:
            draw(canvas, x + seed_w - 3, base, str(seed), font * 0.8, anchor="end", colour=MUTED)
        score_w = font * 1.8
        if match.score is not None:
            draw(canvas, x + width - 3, base, str(match.score[index]), font, anchor="end")
        draw(canvas, x + seed_w + 1, base, name, font, width=width - seed_w - score_w - 2,
             colour=MUTED if bye else INK)
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(0.7)
    canvas.rect(x, cy - row_h, width, cell_h, stroke=1, fill=0)
    canvas.setStrokeColorRGB(*RULE)
    canvas.setLineWidth(0.4)
    canvas.line(x, cy, x + width, cy)


def _draw_page(columns: list[_Column]):
    def body(canvas: Canvas, left: float, bottom: float, right: float, top: float) -> None:
        count = max(1, len(columns))
        width = min(220.0, (right - left - (count - 1) * GAP) / count)
        area = top - HEAD - bottom
        slot = min(area / max(1, len(columns[0].matches)) if columns else area, 64.0)
        cell_h = min(slot * 0.82, 36.0)
        font = max(5.5, min(9.0, cell_h / 2 * 0.62))
        centres = _centres(columns, slot)
        xs = [left + c * (width + GAP) for c in range(count)]
        for c, column in enumerate(columns):
            draw(canvas, xs[c], top - 12, column.label, 9, width=width - 30)
            if column.length > 0:
                draw(canvas, xs[c] + width, top - 12, pgettext("match length", "%(length)d pt") % {"length": column.length},
                     8, anchor="end", colour=MUTED)
        cells_top = top - HEAD
        canvas.setStrokeColorRGB(*MUTED)
        canvas.setLineWidth(0.6)
        for c in range(len(columns) - 1):
            x1, x2 = xs[c] + width, xs[c + 1]
            middle = x1 + GAP / 2
            entry = columns[c].entry
            for i, j in enumerate(feeds(len(columns[c].matches), len(columns[c + 1].matches))):
                if j is None:
                    continue
                y1 = cells_top - centres[c][i]
                y2 = cells_top - centres[c + 1][j] + (cell_h / 4 if entry else 0)
                path = canvas.beginPath()
                path.moveTo(x1, y1)
                path.lineTo(middle, y1)
                path.lineTo(middle, y2)
                path.lineTo(x2, y2)
                canvas.drawPath(path, stroke=1, fill=0)
        for c, column in enumerate(columns):
            for i, match in enumerate(column.matches):
                _draw_cell(canvas, match, xs[c], cells_top - centres[c][i], width, cell_h, font)
    return body


def draw_sheet_pages(tournament: Tournament) -> list[Page] | None:
    """The draw sheet's pages; None for an event without a bracket (before the draw, a Swiss or a
    round robin)."""
    part = brackets.tournament_bracket_part(tournament=tournament, every_flight=True)
    if part is None:
        return None
    pages = []
    for window in part.windows:
        plan = _plan(window.rounds)
        last_round = window.rounds[-1].number if window.rounds else 0
        for first, section, sections, columns in plan:
            shown_last = min(first + len(columns) - 1, last_round)
            pieces = [flight_title(window.name)]
            pieces.append(_("Rounds %(first)d-%(last)d") % {"first": first, "last": shown_last}
                          if shown_last > first else _("Round %(first)d") % {"first": first})
            if sections > 1:
                pieces.append(_("Section %(number)d of %(count)d") % {"number": section, "count": sections})
            if part.draw_seed is not None:
                # Translators: %(seed)s is the random seed the draw was made from (a number anyone can replay it with),
                # not an entrant's seed in the draw: AR بذرة القرعة, never تصنيف.
                pieces.append(_("Draw seed %(seed)s") % {"seed": part.draw_seed})
            pages.append(Page(tournament.name, " \u00b7 ".join(pieces), _draw_page(columns)))
    return pages


def draw_sheet_pdf(tournament: Tournament, *, paper: str | None = None) -> bytes | None:
    """The draw sheet as PDF, landscape A4 or Letter; None for an event without a bracket; raises
    ``matches.paper.PaperError`` for a paper not offered."""
    size = page_size(paper, turned=True)
    pages = draw_sheet_pages(tournament)
    if pages is None:
        return None
    return render(pages, size, document_title=_("Draw sheet: %(event)s") % {"event": tournament.name})


# --- a round: its matches --------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundGroup:
    """The matches of round n in one flight (a Swiss or round robin: one group): its heading and
    matches, and a Swiss round's bye."""

    heading: str
    matches: tuple[pairings.PairingView, ...]
    bye: event.Entrant | None = None


def round_groups(tournament: Tournament, number: int) -> list[RoundGroup] | None:
    """Round ``number`` of the event, flight by flight; None when the event has no such round
    (or is not drawn yet)."""
    part = brackets.tournament_bracket_part(tournament=tournament, every_flight=True, rounds=range(number, number + 1))
    if part is not None:
        titles = {f.name: f for f in part.flights}
        # Translators: a heading of the paper results sheet: the flight's name (Main, Consolation) and the round's.
        groups = [RoundGroup(_("%(flight)s, %(round)s") % {"flight": flight_title(w.name),
                                                            "round": titles[w.name].rounds[number - 1].label},
                             w.rounds[0].matches) for w in part.windows if w.rounds]
        return groups or None
    if tournament.drawn_at is None:
        return None
    page = rounds_selectors.tournament_round_page(tournament=tournament, number=number)
    if page.number != number or number not in page.numbers:
        return None
    return [RoundGroup(_("Round %(number)d") % {"number": number}, page.pairings, page.bye)]


def scoresheets(tournament: Tournament, groups: Sequence[RoundGroup]) -> list[Scoresheet]:
    """A scoresheet for each match of ``groups`` whose two players are known (a team event's
    pairing of two teams has no match of its own: its boards' matches have their own sheets)."""
    out = []
    clock = event_match_clock(tournament)  # the clock the event's matches get
    for group in groups:
        for index, match in enumerate(group.matches, 1):
            if match.top is None or match.bottom is None or match.top_bye or match.bottom_bye or match.match_id is None:
                continue
            out.append(Scoresheet(
                context=_("%(event)s, %(round)s") % {"event": tournament.name, "round": group.heading},
                reference=_("Match %(number)d") % {"number": index},
                names=(match.top.name, match.bottom.name), length=match.length, crawford=tournament.crawford,
                clock=planned_clock_text(clock, match.length)))
    return out


def scoresheets_pdf(tournament: Tournament, number: int, *, paper: str | None = None) -> bytes | None:
    """The scoresheets of round ``number``, one page a match; None for a round the event lacks."""
    size = page_size(paper)
    groups = round_groups(tournament, number)
    if groups is None:
        return None
    return render(scoresheet_pages(scoresheets(tournament, groups)), size,
                  document_title=_("Scoresheets of round %(number)d: %(event)s") % {"number": number,
                                                                                    "event": tournament.name})


# --- the results sheet -----------------------------------------------------------------------------

ROW = 18.0
COLUMNS = (0.0, 0.07, 0.35, 0.63, 0.73, 1.0)  # number | player | player | score | winner


def _result_rows(groups: Sequence[RoundGroup]) -> list[tuple[str, ...]]:
    """Rows of the table: ``("head", heading)`` or the five cells of a match."""
    rows: list[tuple[str, ...]] = []
    for group in groups:
        rows.append(("head", group.heading))
        for index, match in enumerate(group.matches, 1):
            top, bottom = _side(match, 0)[0], _side(match, 1)[0]
            score = f"{match.score[0]}-{match.score[1]}" if match.score is not None else ""
            winner = ""
            if match.winner is not None:
                winner = next((s.name for s in (match.top, match.bottom) if s is not None and s.entry_id == match.winner), "")
            elif match.status == "bye":
                winner = top if not match.top_bye else bottom
            rows.append((str(index), top, bottom, score, winner))
        if group.bye is not None:
            rows.append(("", group.bye.name, pgettext("bracket", "bye"), "", group.bye.name))
    return rows


def _results_body(rows: list[tuple[str, ...]]):
    def body(canvas: Canvas, left: float, bottom: float, right: float, top: float) -> None:
        width = right - left
        xs = [left + c * width for c in COLUMNS]
        heads = (pgettext("results sheet", "No."), _("Player"), _("Player"), _("Score"), _("Winner"))
        y = top - 12
        for i, head in enumerate(heads):
            draw(canvas, xs[i] + 3, y, head, 9, width=xs[i + 1] - xs[i] - 6, colour=MUTED)
        y -= 6
        canvas.setStrokeColorRGB(*INK)
        canvas.setLineWidth(0.8)
        canvas.line(left, y, right, y)
        for row in rows:
            y -= ROW
            if row[0] == "head":
                draw(canvas, left + 3, y + 5, row[1], 10, width=width - 6)
            else:
                for i, cell in enumerate(row):
                    draw(canvas, xs[i] + 3, y + 5, cell, 9, width=xs[i + 1] - xs[i] - 6)
            canvas.setStrokeColorRGB(*RULE)
            canvas.setLineWidth(0.4)
            canvas.line(left, y, right, y)
    return body


def results_pdf(tournament: Tournament, number: int, *, paper: str | None = None) -> bytes | None:
    """The results sheet of round ``number``; None for a round the event lacks."""
    size = page_size(paper)
    groups = round_groups(tournament, number)
    if groups is None:
        return None
    rows = _result_rows(groups)
    per_page = max(1, int((size[1] - 2 * 36 - 44 - 24) // ROW))
    title = _("Results of round %(number)d") % {"number": number}
    pages = [Page(tournament.name, title, _results_body(rows[start:start + per_page]))
             for start in range(0, len(rows), per_page)]
    return render(pages, size, document_title=f"{title}: {tournament.name}")

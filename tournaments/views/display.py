"""An event shown away from the site: the projector page (full screen, large type, no site
navigation) that steps through the flights' brackets, the current round's pairings and the
standings; the bracket alone for a club's site to show in a frame (the only page that may be
framed: every other page says ``X-Frame-Options: DENY``); and the bracket as an SVG file and a PNG
image to download. All public, like the event; each reads the event in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from tournaments import formats
from tournaments.drawings import renders
from tournaments.drawings.bracket_svg import BracketCell, BracketRound, bracket_svg
from tournaments.labels import flight_title
from tournaments.models import Tournament
from tournaments.selectors import brackets, event, standings
from tournaments.selectors import rounds as rounds_selectors

from .draws import bracket_cell
from .event import PAIRING_STATUS, svg_words, visible_or_404

#: The projector's pace: seconds per slide (``?seconds=``), by default and at the extremes.
SECONDS_DEFAULT, SECONDS_MIN, SECONDS_MAX = 15, 5, 600
#: How many rows of the standings and pairings one slide shows (the rest on the next slides).
SLIDE_ROWS = 12
#: A bracket's slide shows this many rounds from the round being played, and of that round at most
#: this many matches (a bigger round: one slide per part, each with the matches it feeds).
SLIDE_ROUNDS, SLIDE_MATCHES = 4, 16


@dataclass(frozen=True)
class Drawing:
    name: str
    title: str
    svg: str
    champion: event.Entrant | None


def _bracket_flights(tournament: Tournament, *, flight: str | None = None, links: bool = True):
    """Every flight of the bracket (or ``flight`` only) as (summary, rounds for the drawing), and
    the part read. At most three queries (``tournament_bracket_part``); None before the draw."""
    try:
        part = brackets.tournament_bracket_part(tournament=tournament, flight=flight, every_flight=flight is None)
    except KeyError:
        raise Http404(_("no such flight")) from None
    if part is None:
        return None, []
    summaries = {f.name: f for f in part.flights}
    flights = []
    for window in part.windows:
        summary = summaries[window.name]
        rounds = [BracketRound(summary.rounds[rnd.number - 1].label, rnd.length,
                               tuple(bracket_cell(tournament, m) if links else _unlinked(tournament, m) for m in rnd.matches))
                  for rnd in window.rounds]
        flights.append((summary, rounds, window))
    return part, flights


def _unlinked(tournament: Tournament, match) -> BracketCell:
    """A match's box without its link (a projector's or a file's drawing links nowhere)."""
    return replace(bracket_cell(tournament, match), href=None)


def _drawings(tournament: Tournament, flights) -> list[Drawing]:
    words = svg_words()
    out = []
    for summary, rounds, _window in flights:
        title = flight_title(summary.name)
        drawing_title = _("%(event)s: %(flight)s") % {"event": tournament.name, "flight": title}
        out.append(Drawing(summary.name, title, bracket_svg(rounds, title=drawing_title, words=words), summary.champion))
    return out


# --- the projector --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slide:
    kind: str  # bracket, pairings, standings, crosstable
    title: str
    drawing: Drawing | None = None
    pairings: tuple = ()
    rows: tuple = ()
    table: object = None


def _open_round(rounds: list[BracketRound]) -> int:
    """The index of a flight's first round with a match still to be decided (its last when none)."""
    for index, rnd in enumerate(rounds):
        if any(c.winner is None and c.status not in ("bye", "not_needed") for c in rnd.cells):
            return index
    return max(len(rounds) - 1, 0)


def _bracket_windows(rounds: list[BracketRound]) -> list[list[BracketRound]]:
    """A flight as the projector shows it: :data:`SLIDE_ROUNDS` rounds from the one being played
    (the last ones once all are decided), its first round cut in parts of at most
    :data:`SLIDE_MATCHES` matches, each later round cut alike (the matches the part feeds)."""
    first = min(_open_round(rounds), max(len(rounds) - SLIDE_ROUNDS, 0))
    shown = rounds[first:first + SLIDE_ROUNDS]
    if not shown:
        return [[]]
    parts = max(1, -(-len(shown[0].cells) // SLIDE_MATCHES))
    return [[BracketRound(rnd.name, rnd.length,
                          rnd.cells[len(rnd.cells) * part // parts:len(rnd.cells) * (part + 1) // parts])
             for rnd in shown] for part in range(parts)]


def _current_bracket_matches(flights) -> list:
    """The bracket's matches being played now: both players known, not yet decided."""
    out = []
    for summary, _rounds, window in flights:
        for rnd in window.rounds:
            label = summary.rounds[rnd.number - 1].label
            for m in rnd.matches:
                if m.top is not None and m.bottom is not None and m.winner is None and m.status in (
                        "scheduled", "in_play", "reported", "disputed"):
                    out.append((flight_title(summary.name), label, m))
    return out


def _chunks(items, size: int):
    items = list(items)
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def _slides(tournament: Tournament) -> list[Slide]:
    """What the projector cycles through, in order. A fixed number of queries."""
    slides: list[Slide] = []
    if formats.format_of(tournament).has_bracket:
        _part, flights = _bracket_flights(tournament, links=False)
        words = svg_words()
        for summary, rounds, _window in flights:
            title = flight_title(summary.name)
            windows = _bracket_windows(rounds)
            for part, shown in enumerate(windows, start=1):
                heading = title if len(windows) == 1 else _("%(flight)s, part %(part)d of %(parts)d") % {
                    "flight": title, "part": part, "parts": len(windows)}
                drawing_title = _("%(event)s: %(flight)s") % {"event": tournament.name, "flight": heading}
                drawing = Drawing(summary.name, heading, bracket_svg(shown, title=drawing_title, words=words),
                                  summary.champion)
                slides.append(Slide("bracket", heading, drawing=drawing))
        playing = _current_bracket_matches(flights)
        chunks = _chunks(playing, SLIDE_ROWS) if playing else []
        for chunk in chunks:
            slides.append(Slide("pairings", _("Matches to play"), pairings=tuple(chunk)))
        return slides or [Slide("pairings", _("The draw has not been made yet."))]
    page = rounds_selectors.tournament_round_page(tournament=tournament)
    if page.number is not None:
        title = page.label
        rows = [("", "", p) for p in page.pairings]
        for chunk in _chunks(rows, SLIDE_ROWS):
            slides.append(Slide("pairings", title, pairings=tuple(chunk)))
    rows = standings.event_standings_cached(tournament=tournament)
    for chunk in _chunks(rows, SLIDE_ROWS) if rows else []:
        slides.append(Slide("standings", _("Standings"), rows=tuple(chunk)))
    return slides or [Slide("pairings", _("No round has been paired yet."))]


def _seconds(request: HttpRequest) -> int:
    text = request.GET.get("seconds", "")
    if text.isascii() and text.isdigit() and len(text) <= 4:
        return min(max(int(text), SECONDS_MIN), SECONDS_MAX)
    return SECONDS_DEFAULT


@require_safe
def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event on a projector: one slide at a time (``slide``, from 1), each page moving on to
    the next after ``seconds`` (15; 5 to 600) and so read afresh: the flights' brackets, the
    matches being played (a Swiss or round robin: the current round's pairings) and the standings.
    Full screen, large type, no site navigation; works without a script. Public."""
    tournament = visible_or_404(request, tournament_id)
    slides = _slides(tournament)
    seconds = _seconds(request)
    text = request.GET.get("slide", "1")
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 4 and int(text) >= 1 else 1
    number = (number - 1) % len(slides) + 1
    following = number % len(slides) + 1
    base = reverse("tournaments:projector", args=[tournament.pk])
    return render(request, "tournaments/projector.html", {
        "tournament": tournament, "slide": slides[number - 1], "number": number, "count": len(slides),
        "seconds": seconds, "next_href": f"{base}?{urlencode({'slide': following, 'seconds': seconds})}",
        "pairing_status": PAIRING_STATUS,
    })


# --- the embedded bracket ----------------------------------------------------------------------------


@require_safe
@xframe_options_exempt
def embed_bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The bracket alone (every flight, or ``flight``), for a club's site to show in a frame: the
    one page any site may frame (no X-Frame-Options, ``frame-ancestors *``); its links open at the
    top of the window. Public, like the event."""
    tournament = visible_or_404(request, tournament_id)
    flight = request.GET.get("flight") or None
    _part, flights = _bracket_flights(tournament, flight=flight)
    response = render(request, "tournaments/embed_bracket.html", {
        "tournament": tournament, "event_format": formats.format_of(tournament), "drawings": _drawings(tournament, flights),
        "page_href": request.build_absolute_uri(reverse("tournaments:bracket", args=[tournament.pk])),
    })
    response["Content-Security-Policy"] = "frame-ancestors *"
    return response


# --- downloads -----------------------------------------------------------------------------------------
# Drawn once per state of the bracket and kept; drawing is throttled, and a big bracket is drawn by a
# task while the page answers 202 (tournaments/drawings/renders.py).


def _filename(tournament: Tournament, extension: str) -> str:
    return f"{slugify(tournament.name) or 'event'}-bracket.{extension}"


def _download(request: HttpRequest, tournament_id: int, kind: str, extension: str) -> HttpResponse:
    tournament = visible_or_404(request, tournament_id)
    wanted = renders.Wanted(tournament.pk, kind, 0, "", translation.get_language())
    return renders.file_answer(request, tournament, wanted, filename=_filename(tournament, extension),
                               disposition="attachment", missing=_("This event has no bracket to download."))


@require_safe
def bracket_svg_download(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The whole bracket, every flight under its name, as an SVG file. Public; 404 before the draw
    or for a Swiss or round robin."""
    return _download(request, tournament_id, renders.SVG, "svg")


@require_safe
def bracket_png_download(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The whole bracket as a PNG image (drawn with Pillow). Public; 404 as the SVG."""
    return _download(request, tournament_id, renders.PNG, "png")


urlpatterns = [
    path("<int:tournament_id>/projector/", projector, name="projector"),
    path("<int:tournament_id>/embed/bracket/", embed_bracket, name="embed_bracket"),
    path("<int:tournament_id>/bracket.svg", bracket_svg_download, name="bracket_svg"),
    path("<int:tournament_id>/bracket.png", bracket_png_download, name="bracket_png"),
]

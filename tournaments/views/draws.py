"""Pages of an event's draw: the bracket (a window of rounds per flight, drawn), the Swiss and
round-robin rounds, and the standings with their tie-break notes and final placings."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.text import isolate
from tournaments import formats
from tournaments.crosstable import round_robin_tables, sit_outs_by_round
from tournaments.divisions_text import handicap_said
from tournaments.draw.names import paired_round_name
from tournaments.drawings.bracket_svg import BYE, BracketCell, BracketRound, bracket_svg
from tournaments.labels import flight_title
from tournaments.models import Tournament
from tournaments.payouts_display import money
from tournaments.round_labels import round_label
from tournaments.selectors import brackets, event
from tournaments.selectors import pairings as pairings_selectors
from tournaments.selectors import rounds as rounds_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.payouts import prizes_by_entry, tournament_payouts
from tournaments.selectors.playoffs import tournament_contention
from tournaments.services.common import runs
from tournaments.services.state import PLAYOFFS
from tournaments.views.event import PAIRING_STATUS, svg_words, visible_or_404

# --- brackets, rounds, standings ---------------------------------------------------------------


def _match_href(tournament: Tournament, match: pairings_selectors.PairingView) -> str | None:
    """Where a match of the draw links: a team event's pairing of two teams to its team match
    card (it has no match of its own), any other to its match page once the match exists."""
    return formats.format_of(tournament).draw_match_href(tournament, match)


def bracket_cell(tournament: Tournament, match: pairings_selectors.PairingView) -> BracketCell:
    sides = (match.top, match.bottom)
    byes = (match.top_bye, match.bottom_bye)
    names = tuple(BYE if bye else (side.name if side is not None else None) for side, bye in zip(sides, byes, strict=True))
    seeds = tuple(side.seed if side is not None else None for side in sides)
    winner = None
    if match.winner is not None:
        winner = next((i for i, side in enumerate(sides) if side is not None and side.entry_id == match.winner), None)
    return BracketCell(
        key=match.key, names=names, scores=match.score or (None, None), winner=winner, status=match.status,
        href=_match_href(tournament, match), seeds=seeds,
    )


#: The bracket page draws a window on each flight: this many rounds, and of the first of them at
#: most this many matches (a section of the flight: the matches of the rounds after it that they
#: feed, 16, 8...), with links to the other windows.
BRACKET_ROUNDS_SHOWN = 4
BRACKET_SECTION = 32
#: The rounds page shows this many pairings of one round, the standings page this many rows.
ROUND_PAGE_SIZE = 100
STANDINGS_PAGE_SIZE = 100


@dataclass(frozen=True)
class PageLink:
    label: str
    href: str
    current: bool


@dataclass(frozen=True)
class FlightDrawing:
    name: str
    title: str
    svg: str
    champion: event.Entrant | None
    windows: tuple[PageLink, ...] = ()
    sections: tuple[PageLink, ...] = ()
    handicaps: tuple[str, ...] = ()  # the handicap starts of the matches shown


def query_number(request: HttpRequest, name: str, default: int = 1) -> int:
    """The query parameter ``name`` as a whole number from 1 (``default`` when absent); a bad one
    is a 404: there is no such page."""
    text = request.GET.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and int(text) >= 1):
        raise Http404(_("no such page"))
    return int(text)


def _href(tournament: Tournament, name: str, **query) -> str:
    return f"{reverse(f'tournaments:{name}', args=[tournament.pk])}?{urlencode(query)}"


def _sections(count: int) -> int:
    return max(1, -(-count // BRACKET_SECTION))


def _flight_drawing(tournament: Tournament, summary: brackets.FlightSummary, window: brackets.FlightWindow,
                    *, first_round: int, section: int) -> FlightDrawing:
    rounds = [BracketRound(summary.rounds[rnd.number - 1].label, rnd.length,
                           tuple(bracket_cell(tournament, m) for m in rnd.matches))
              for rnd in window.rounds]
    title = flight_title(summary.name)
    windows = tuple(
        PageLink(_("Rounds %(first)d-%(last)d") % {"first": first, "last": min(first + BRACKET_ROUNDS_SHOWN - 1,
                                                                                 len(summary.rounds))}
                 if first < len(summary.rounds) else _("Round %(first)d") % {"first": first},
                 _href(tournament, "bracket", flight=summary.name, round=first), first == first_round)
        for first in range(1, len(summary.rounds) + 1, BRACKET_ROUNDS_SHOWN)
    ) if len(summary.rounds) > BRACKET_ROUNDS_SHOWN else ()
    count = summary.rounds[first_round - 1].match_count if first_round <= len(summary.rounds) else 0
    sections = tuple(
        PageLink(_("Section %(number)d") % {"number": number},
                 _href(tournament, "bracket", flight=summary.name, round=first_round, section=number),
                 number == section)
        for number in range(1, _sections(count) + 1)
    ) if _sections(count) > 1 else ()
    drawing_title = _("%(event)s: %(flight)s") % {"event": tournament.name, "flight": title}
    handicaps = tuple(filter(None, (handicap_said(m) for rnd in window.rounds for m in rnd.matches)))
    return FlightDrawing(summary.name, title, bracket_svg(rounds, title=drawing_title, words=svg_words()),
                         summary.champion, windows, sections, handicaps)


def _placing_prizes(tournament: Tournament, placings) -> list | None:
    """Each placing's prize money (in the reader's number format,
    empty when none), in the placings' order; None when the event pays nothing."""
    if not placings or not tournament.payouts:
        return None
    won = prizes_by_entry(tournament_payouts(tournament=tournament))
    return [money(won[p.entrant.entry_id]) if won.get(p.entrant.entry_id) else "" for p in placings]


def bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The bracket of an elimination event: a drawing per flight (with ``flight``, that flight
    only) of a window of :data:`BRACKET_ROUNDS_SHOWN` rounds from ``round`` (1), and of a big
    first round its ``section`` (1) of :data:`BRACKET_SECTION` matches with the matches they feed,
    with links to the other windows; each match links to its page. The final placings once every
    match is decided. Public; a fixed number of queries; 404 for a flight the bracket lacks."""
    tournament = visible_or_404(request, tournament_id)
    first_round, section = query_number(request, "round"), query_number(request, "section")
    wanted = request.GET.get("flight")

    def pick(flight: str, number: int, count: int):
        if number == first_round:
            sections[flight] = _sections(count)
        parts = sections.get(flight, 1)
        part = min(section, parts) - 1
        return range(count * part // parts, count * (part + 1) // parts)

    sections: dict[str, int] = {}
    try:
        view = brackets.tournament_bracket_part(
            tournament=tournament, flight=wanted, every_flight=wanted is None,
            rounds=range(first_round, first_round + BRACKET_ROUNDS_SHOWN), pick=pick)
    except KeyError:
        raise Http404(_("no such flight")) from None
    summaries = {f.name: f for f in view.flights} if view is not None else {}
    flights = [_flight_drawing(tournament, summaries[w.name], w, first_round=first_round, section=section)
               for w in view.windows] if view is not None else []
    placings = standings_selectors.tournament_placings(tournament=tournament) if view is not None and view.finished else ()
    prizes = _placing_prizes(tournament, placings)
    return render(request, "tournaments/bracket.html", {
        "tournament": tournament, "event_format": formats.format_of(tournament), "bracket": view, "flights": flights,
        "placings": placings, "prizes": prizes,
        "placing_rows": list(zip(placings, prizes or [""] * len(placings), strict=True)),
        "flight_title": {f.name: flight_title(f.name) for f in view.flights} if view is not None else {},
        "other_flights": [PageLink(flight_title(f.name), _href(tournament, "bracket", flight=f.name), f.name == wanted)
                          for f in view.flights] if view is not None and len(view.flights) > 1 else [],
        "all_flights_href": reverse("tournaments:bracket", args=[tournament.pk]) if wanted else None,
        "runs": runs(tournament, request.user),
        # The printed sheets of each round (tournaments/views/paper.py).
        "paper_rounds": range(1, max((len(f.rounds) for f in view.flights), default=0) + 1) if view is not None else (),
    })


def rounds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The rounds of a Swiss or round robin with their results: every round while the event has
    at most :data:`ROUND_PAGE_SIZE` pairings, else one round (``round``: the last paired round when
    absent), its pairings :data:`ROUND_PAGE_SIZE` at a time (``page``), with links to the other
    rounds and pages. Public; a fixed number of queries, reading the pairings shown only."""
    tournament = visible_or_404(request, tournament_id)
    number = query_number(request, "round") if "round" in request.GET else None
    if number is None and "page" not in request.GET and rounds_selectors.pairing_count(tournament=tournament) <= ROUND_PAGE_SIZE:
        every = rounds_selectors.tournament_rounds(tournament=tournament)
        return render(request, "tournaments/rounds.html", {
            "tournament": tournament, "event_format": formats.format_of(tournament),
            "rounds": [(rnd, [(p, _match_href(tournament, p)) for p in rnd.pairings],
                        any(p.table for p in rnd.pairings), _playoff_round(rnd.pairings)) for rnd in every],
            "contention": tournament_contention(tournament=tournament),
            "pairing_status": PAIRING_STATUS, "runs": runs(tournament, request.user),
            "paper_rounds": [rnd.number for rnd in every],
            "sit_outs": sit_outs_by_round(round_robin_tables(tournament=tournament)),
        })
    page_number = query_number(request, "page")
    counted: list[int] = []

    def pick(count: int):
        counted.append(count)
        return range((page_number - 1) * ROUND_PAGE_SIZE, min(page_number * ROUND_PAGE_SIZE, count))

    page = rounds_selectors.tournament_round_page(tournament=tournament, number=number, pick=pick)
    if (number is not None and number not in page.numbers) or (counted and page_number > 1 and not page.pairings):
        raise Http404(_("no such round or page"))
    pages = -(-counted[0] // ROUND_PAGE_SIZE) if counted else 0
    return render(request, "tournaments/rounds.html", {
        "tournament": tournament, "event_format": formats.format_of(tournament),
        "rounds": [(page, [(p, _match_href(tournament, p)) for p in page.pairings], any(p.table for p in page.pairings),
                    _playoff_round(page.pairings))]
        if page.number is not None else [],
        "contention": tournament_contention(tournament=tournament),
        "round_links": [PageLink(round_label(paired_round_name(n)), _href(tournament, "rounds", round=n),
                                 n == page.number) for n in page.numbers] if len(page.numbers) > 1 else [],
        "page_links": [PageLink(str(n), _href(tournament, "rounds", round=page.number, page=n), n == page_number)
                       for n in range(1, pages + 1)] if pages > 1 else [],
        "pairing_status": PAIRING_STATUS, "runs": runs(tournament, request.user),
        "paper_rounds": page.numbers,
        "sit_outs": sit_outs_by_round(round_robin_tables(tournament=tournament)),
    })


def _playoff_round(pairings) -> bool:
    """Whether a round is a modified Swiss's playoff round: its pairings are."""
    return any(p.flight == PLAYOFFS for p in pairings)


#: How the standings page says which tie-break put an entrant ahead of the next one (the score
#: itself, ``wins``, needs no words: the columns show it).
TIEBREAK_NOTES = {
    "head_to_head": gettext_lazy("%(above)s is ahead of %(below)s on head-to-head (the matches among those still "
                                 "level)."),
    "direct_encounter": gettext_lazy("%(above)s is ahead of %(below)s on the direct encounter (the matches among "
                                     "those still level, who have all met)."),
    "buchholz": gettext_lazy("%(above)s is ahead of %(below)s on Buchholz."),
    "median_buchholz": gettext_lazy("%(above)s is ahead of %(below)s on median-Buchholz."),
    "fide_buchholz": gettext_lazy("%(above)s is ahead of %(below)s on FIDE's Buchholz."),
    "points_difference": gettext_lazy("%(above)s is ahead of %(below)s on points difference."),
    "points_for": gettext_lazy("%(above)s is ahead of %(below)s on board points."),
}


def _tiebreak_notes(rows, first: int, last: int) -> list[str]:
    """For the rows ``first`` to ``last`` (0-based, inclusive) of the standings, a sentence for each
    entrant a tie-break put ahead of the next one in his table (the next may be on the next page)."""
    notes = []
    for index in range(first, min(last, len(rows) - 2) + 1):
        row, below = rows[index], rows[index + 1]
        if row.separated_by in TIEBREAK_NOTES and below.group == row.group:
            notes.append(str(TIEBREAK_NOTES[row.separated_by]) % {
                "above": isolate(row.entrant.name), "below": isolate(below.entrant.name)})
    return notes


def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The table of a Swiss or round robin with its tie-break columns (a team event: the team
    table, team-match wins then board points then head-to-head), :data:`STANDINGS_PAGE_SIZE` rows
    a page (``page``) with links to the others, and which tie-break put each entrant ahead of the
    next where the score did not. Public; a fixed number of queries (none for the rows while the
    cache has this version of the event)."""
    tournament = visible_or_404(request, tournament_id)
    event_format = formats.format_of(tournament)
    rows = standings_selectors.event_standings_cached(tournament=tournament)
    paginator = Paginator(rows, STANDINGS_PAGE_SIZE)
    try:
        page = paginator.page(query_number(request, "page"))
    except InvalidPage:
        raise Http404(_("no such page")) from None
    return render(request, "tournaments/standings.html", {
        "tournament": tournament, "event_format": event_format, "rows": page.object_list,
        "swiss": event_format.pairs_round_by_round,
        "tiebreak_notes": _tiebreak_notes(rows, page.start_index() - 1, page.end_index() - 1) if rows else [],
        "teams": event_format.has_teams, "grouped": event_format.has_crosstables,
        "runs": runs(tournament, request.user),
        "page_links": [PageLink(_("Places %(first)d-%(last)d") % {
            "first": paginator.page(n).start_index(), "last": paginator.page(n).end_index()},
            _href(tournament, "standings", page=n), n == page.number) for n in paginator.page_range]
        if paginator.num_pages > 1 else [],
        # A round robin's crosstable per group (who beat whom, by how much).
        "crosstables": round_robin_tables(tournament=tournament),
        # Who is still in contention (a modified Swiss), FIDE's tie-breaks
        "contention": tournament_contention(tournament=tournament),
        "fide": tournament.swiss_tiebreaks == Tournament.SwissTiebreaks.FIDE,
    })


urlpatterns = [
    path("<int:tournament_id>/bracket/", bracket, name="bracket"),
    path("<int:tournament_id>/rounds/", rounds, name="rounds"),
    path("<int:tournament_id>/standings/", standings, name="standings"),
]

"""Pages: events, entries, brackets, Swiss rounds, standings, the organiser's control page and a
player's next matches. Each view parses the request, calls one selector or service, and renders or
redirects (POST, redirect, GET); domain and draw errors become form errors on the re-rendered page
with their 4xx status (nothing is saved: every service runs in one transaction)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from matches.models import Match, Player
from matches.services.matches import player_for_user
from tournaments import formats, services
from tournaments.crosstable import round_robin_tables, sit_outs_by_round
from tournaments.divisions_text import division_rules, handicap_said
from tournaments.draw import DrawError
from tournaments.draw.names import paired_round_name
from tournaments.drawings.bracket_svg import BYE, BracketCell, BracketRound, Words, bracket_svg
from tournaments.errors import from_draw
from tournaments.forms.event import DrawForm, EntrantForm, EntryActionForm, PairSignUpForm, TournamentForm
from tournaments.labels import flight_title
from tournaments.models import Entry, Tournament
from tournaments.payouts_display import money
from tournaments.round_labels import round_label
from tournaments.selectors import brackets, event, next_match
from tournaments.selectors import pairings as pairings_selectors
from tournaments.selectors import rounds as rounds_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.payouts import prizes_by_entry, tournament_payouts
from tournaments.selectors.playoffs import tournament_contention
from tournaments.services.acceptance import entry_accept
from tournaments.services.clocks import event_clock_text
from tournaments.services.common import runs
from tournaments.services.events import may_create_events
from tournaments.services.state import PLAYOFFS, entrant_name

PAIRING_STATUS = {**dict(Match.Status.choices), "waiting": gettext_lazy("Waiting for a player"),
                  "bye": gettext_lazy("Bye"), "walkover": gettext_lazy("Walkover"),
                  "not_needed": gettext_lazy("Not needed")}


# --- helpers -----------------------------------------------------------------------------------


def svg_words() -> Words:
    """The bracket drawing's words in the reader's language."""
    return Words(tbd=_("to be decided"), bye=pgettext("bracket", "bye"), title=_("Bracket"),
                 versus=_("%(a)s v %(b)s"), length=pgettext("match length", "%(length)d pt"))


def _tournament_or_404(tournament_id: int) -> Tournament:
    try:
        return event.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("no such event")) from None


def visible_or_404(request: HttpRequest, tournament_id: int) -> Tournament:
    """The event as its public pages show it; a 404 for an unknown one and for a draft the user may
    not see (its organiser's and staff's alone)."""
    tournament = _tournament_or_404(tournament_id)
    if not event.may_see(tournament, request.user):
        raise Http404(_("no such event"))
    return tournament


def call_service(service, **kwargs):
    """What ``service(**kwargs)`` returns; the pure draw's errors come back as domain errors with
    the same code, which the pages show like any refusal."""
    try:
        return service(**kwargs)
    except DrawError as error:
        raise from_draw(error) from None


def _detail_url(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.pk])


def refused_field(error: DomainError) -> str | None:
    """The event form's field a refusal names: ``payouts.main.percentages[1]`` is the paid places'
    field, ``lengths.main`` the match lengths'."""
    field = error.details.get("field")
    return field.split(".")[0] if isinstance(field, str) else None


def manage_url(tournament: Tournament) -> str:
    """The address of the event's control page (its organiser's)."""
    return reverse("tournaments:manage", args=[tournament.pk])


def _rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The published rules as (term, description) lines."""
    lengths = tournament.lengths or {}
    if lengths:
        shown = "; ".join(
            _("%(flight)s: %(lengths)s points") % {
                "flight": flight_title(name),
                "lengths": ", ".join(str(n) for n in value) if isinstance(value, list) else str(value)}
            for name, value in lengths.items()
        )
    else:
        shown = _("the default length")
    lines = [(_("Format"), tournament.get_format_display()), (_("Entrants"), tournament.get_kind_display()),
             (_("Match lengths"), shown)]
    lines += formats.format_of(tournament).rule_lines(tournament)
    minutes = tournament.penalty_minutes_per_point
    lines += [
        (_("Crawford rule"), pgettext("Crawford rule", "on") if tournament.crawford
         else pgettext("Crawford rule", "off")),
        (_("Moves"), tournament.get_move_policy_display()),
        (_("Premature roll"), tournament.get_premature_roll_display()),
        (_("Clock"), event_clock_text(tournament)),
        (_("Late arrival"), ngettext("1 penalty point per minute", "1 penalty point per %(count)d minutes",
                                     minutes) % {"count": minutes}),
        (_("Seeding"), tournament.get_seeding_display()),
    ]
    lines += division_rules(tournament)  # the divisions and their handicap starts
    return lines


def _my_entrant(entrants, player: Player | None):
    if player is None:
        return None
    return next((e for e in entrants if any(pid == player.pk for pid, _ in e.players)), None)


# --- the event list and a new event -----------------------------------------------------------


def event_list(request: HttpRequest) -> HttpResponse:
    """Every event, newest start first, with its status. Public."""
    user = request.user
    return render(request, "tournaments/list.html", {
        "tournaments": event.tournament_list(viewer=user),
        "can_create": may_create_events(user),
    })


def _require_organiser_user(request: HttpRequest) -> None:
    if not may_create_events(request.user):
        raise PermissionDenied(_("only organisers (and staff) may create an event, and a club's owner one on his "
                                 "club's calendar"))


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """An organiser (or staff) creates an event in draft with its published rules, and a club's
    owner without the role one on his club's calendar (the form then asks for the club); see
    tournament_create. Others get 403."""
    _require_organiser_user(request)
    clubs = event.club_choices(user=request.user)
    club_required = not request.user.is_organiser
    if request.method != "POST":
        return render(request, "tournaments/new.html", {"form": TournamentForm(
            clubs=clubs, club_required=club_required, initial={"token": uuid.uuid4()})})
    form = TournamentForm(request.POST, clubs=clubs, club_required=club_required)
    if not form.is_valid():
        return render(request, "tournaments/new.html", {"form": form}, status=400)
    try:
        tournament = call_service(services.tournament_create, user=request.user, rules=form.rules(),
                                  token=form.cleaned_data.get("token"))
    except DomainError as error:
        # The club's refusal (its manager's role) names no field: it is about the club chosen.
        form_refuse(form, error, field="club" if error.code in ("not_club_manager", "club_events_only") else
                    refused_field(error))
        return render(request, "tournaments/new.html", {"form": form}, status=error_status(error))
    messages.success(request, _("Event “%(name)s” created. Open the entries when you are ready.")
                     % {"name": tournament.name})
    return redirect(manage_url(tournament))


# --- an event ------------------------------------------------------------------------------------


def _render_detail(request: HttpRequest, tournament: Tournament, *, action_error: str = "",
                   sign_up_form: PairSignUpForm | None = None, status: int = 200) -> HttpResponse:
    entrants = event.entry_list(tournament=tournament)
    player = player_for_user(request.user)
    mine = _my_entrant(entrants, player)
    is_open = tournament.status == Tournament.Status.OPEN
    is_closed = tournament.status == Tournament.Status.CLOSED
    event_format = formats.format_of(tournament)
    context = {
        "tournament": tournament, "event_format": event_format,
        "rules": _rules(tournament),
        "entrants": entrants,
        "in_draw": tournament.drawn_at is not None,
        "mine": mine,
        "can_sign_up": player is not None and mine is None and is_open and not event_format.has_teams,
        "pair_form": (sign_up_form or PairSignUpForm(prefix="pair")) if event_format.has_pairs else None,
        "can_check_in": mine is not None and is_closed and mine.status == Entry.Status.ENTERED,
        "can_withdraw": mine is not None and not mine.withdrawn and tournament.status != Tournament.Status.FINISHED,
        # An organiser's entry of him is an invitation: his answer puts the results on his record.
        "must_accept": player is not None and event.acceptance_awaited(tournament, player),
        # A team's entrant lists no players: a member's next match is asked for by his player.
        "next_match": next_match.player_next_match(tournament=tournament, player=player)
        if mine or (player is not None and event_format.has_teams) else None,
        "runs": runs(tournament, request.user),
        "action_error": action_error,
        "pairing_status": PAIRING_STATUS,
    }
    return render(request, "tournaments/detail.html", context, status=status)


def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An event: its published rules, status, draw seed, entry list with check-in state, the
    user's own entry actions and next match. Public."""
    return _render_detail(request, visible_or_404(request, tournament_id))


def _entry_action(request: HttpRequest, tournament_id: int, act) -> HttpResponse:
    """Run ``act(tournament)`` (a service call) and PRG back to the event, or re-render the event
    page with the error and its 4xx status."""
    tournament = _tournament_or_404(tournament_id)
    try:
        text = act(tournament)
    except DomainError as error:
        return _render_detail(request, tournament, action_error=error_text(error), status=error_status(error))
    messages.success(request, text)
    return redirect(_detail_url(tournament))


def posted_entry(request: HttpRequest) -> int:
    """The entry id a check-in or withdrawal posts; DomainError ``invalid`` naming ``entry`` for
    a missing or malformed one."""
    form = EntryActionForm(request.POST)
    if not form.is_valid():
        message = "; ".join(e for errors in form.errors.values() for e in errors)
        raise DomainError(_("entry: %(message)s") % {"message": message}, code="invalid", field="entry")
    return form.cleaned_data["entry"]


@login_required
@require_POST
def sign_up(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player enters himself (in a pairs event with his partner, saying who rolls); see
    entry_sign_up."""
    tournament = _tournament_or_404(tournament_id)
    partner_id = rolls = None
    form = None
    if formats.format_of(tournament).has_pairs:
        form = PairSignUpForm(request.POST, prefix="pair")
        if not form.is_valid():
            return _render_detail(request, tournament, sign_up_form=form, status=400)
        partner_id = form.cleaned_data["partner"].pk
        me = player_for_user(request.user)
        rolls = {"me": me.pk if me else None, "partner": partner_id}.get(form.cleaned_data["rolls"])
    division = (request.POST.get("division") or "").strip() or None if tournament.divisions else None
    try:
        services.entry_sign_up(tournament_id=tournament.pk, user=request.user, partner_id=partner_id, rolls=rolls,
                               division=division)
    except DomainError as error:
        return _render_detail(request, tournament, action_error=error_text(error), sign_up_form=form,
                              status=error_status(error))
    messages.success(request, _("You are entered. Check in when the entries close."))
    return redirect(_detail_url(tournament))


def _check_in_act(request: HttpRequest):
    """The check-in of the posted entry, for the event page and the control page alike."""
    def act(tournament):
        entry = services.entry_check_in(tournament_id=tournament.pk, entry_id=posted_entry(request),
                                        user=request.user)
        return _("%(name)s is checked in.") % {"name": entrant_name(entry)}
    return act


def _withdraw_act(request: HttpRequest, noun: str):
    """The withdrawal (after the draw) or removal (before it) of the posted entry."""
    def act(tournament):
        entry = services.entry_withdraw(tournament_id=tournament.pk, entry_id=posted_entry(request),
                                        user=request.user)
        if noun == "entry":
            return _("The entry is withdrawn.") if entry is not None else _("The entry is removed.")
        return _("The entrant is withdrawn.") if entry is not None else _("The entrant is removed.")
    return act


@login_required
@require_POST
def check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The entrant (or the organiser) checks an entry in; see entry_check_in."""
    return _entry_action(request, tournament_id, _check_in_act(request))


@login_required
@require_POST
def accept(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player accepts the organiser's entry of him; see entry_accept."""
    def act(tournament: Tournament) -> str:
        entry_accept(tournament_id=tournament.pk, user=request.user)
        return _("You accepted the entry: the event's results count on your record.")
    return _entry_action(request, tournament_id, act)


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The entrant (or the organiser) withdraws an entry; see entry_withdraw."""
    return _entry_action(request, tournament_id, _withdraw_act(request, "entry"))


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
            notes.append(str(TIEBREAK_NOTES[row.separated_by]) % {"above": row.entrant.name, "below": below.entrant.name})
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


# --- the organiser's control page ------------------------------------------------------------


def managed_or_403(request: HttpRequest, tournament_id: int) -> Tournament:
    """The event, for its organiser or staff only: a 404 for an unknown one, PermissionDenied
    (403) for any other user. What every page that manages an event starts with."""
    tournament = _tournament_or_404(tournament_id)
    if not runs(tournament, request.user):
        raise PermissionDenied(_("only the event's organiser (or staff) may manage it"))
    return tournament


def render_manage(request: HttpRequest, tournament: Tournament, *, entrant_form: EntrantForm | None = None,
                  draw_form: DrawForm | None = None, action_error: str = "", status: int = 200) -> HttpResponse:
    """The event's control page with ``status``: its entrants, the players who may still be added
    or re-enter, the forms to add an entrant and make the draw (one given here shown as posted,
    with its errors) and ``action_error`` when an action was refused."""
    entrants = event.entry_list(tournament=tournament)
    candidates = event.entry_candidates(entrants=entrants)
    reentries = event.reentry_candidates(tournament=tournament)  # who may re-enter (buy-back)
    before_draw = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.OPEN, Tournament.Status.CLOSED)
    event_format = formats.format_of(tournament)
    context = {
        "tournament": tournament,
        "entrants": entrants,
        "before_draw": before_draw,
        # After the draw a player joins as a late entrant (the last seed), where the format allows.
        "pairs": event_format.has_pairs,
        "can_add": not event_format.has_teams and (before_draw or (
            tournament.status == Tournament.Status.RUNNING and event_format.takes_late_entries)),
        "entrant_form": entrant_form or EntrantForm(players=candidates, prefix="entrant"),
        "draw_form": draw_form or DrawForm(prefix="draw"),
        "random": tournament.seeding == Tournament.Seeding.RANDOM,
        "swiss": event_format.pairs_round_by_round,
        "action_error": action_error,
        "reentries": reentries,
    }
    return render(request, "tournaments/manage.html", context, status=status)


@login_required
def manage(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser's control page: entries, check-in, the draw, the next Swiss round,
    finishing. Only the event's organiser and staff (403 for others)."""
    return render_manage(request, managed_or_403(request, tournament_id))


def manage_action(request: HttpRequest, tournament_id: int, act, **forms_on_error) -> HttpResponse:
    """Run ``act(tournament)`` for the event's organiser (see :func:`managed_or_403`): its text
    becomes a success message and the user goes back to the control page; a DomainError it raises
    re-renders the control page with the error, its status and ``forms_on_error``."""
    tournament = managed_or_403(request, tournament_id)
    try:
        text = act(tournament)
    except DomainError as error:
        return render_manage(request, tournament, action_error=error_text(error), status=error_status(error),
                             **forms_on_error)
    messages.success(request, text)
    return redirect(manage_url(tournament))


@login_required
@require_POST
def open_entries(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """See tournament_open_entries."""
    def act(tournament):
        services.tournament_open_entries(tournament_id=tournament.pk, user=request.user)
        return _("Entries are open: players may sign up.")
    return manage_action(request, tournament_id, act)


@login_required
@require_POST
def close_entries(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """See tournament_close_entries."""
    def act(tournament):
        services.tournament_close_entries(tournament_id=tournament.pk, user=request.user)
        return _("Entries are closed: check the entrants in, then make the draw.")
    return manage_action(request, tournament_id, act)


@login_required
@require_POST
def add_entrant(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser adds a player chosen by name: before the draw see entry_add, after it
    entry_add_late (the last seed, into a bye or the next Swiss round). An unknown player is a
    form error (400) and nothing is saved."""
    tournament = managed_or_403(request, tournament_id)
    form = EntrantForm(request.POST, prefix="entrant")
    if not form.is_valid():
        return render_manage(request, tournament, entrant_form=form, status=400)
    player = form.cleaned_data["player"]
    late = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    try:
        if late:
            if form.cleaned_data["seed"] is not None:
                raise DomainError(_("seed: a late entrant is the last seed; leave the seed empty"), field="seed")
            call_service(services.entry_add_late, tournament_id=tournament.pk, user=request.user, player_ids=form.player_ids)
        else:
            services.entry_add(tournament_id=tournament.pk, user=request.user, player_ids=form.player_ids,
                               seed=form.cleaned_data["seed"])
    except DomainError as error:
        form_refuse(form, error)
        return render_manage(request, tournament, entrant_form=form, status=error_status(error))
    partner = form.cleaned_data.get("partner")
    if partner and late:
        text = _("%(a)s & %(b)s are entered late, as the last seed.")
    elif partner:
        text = _("%(a)s & %(b)s are entered.")
    elif late:
        text = _("%(a)s is entered late, as the last seed.")
    else:
        text = _("%(a)s is entered.")
    messages.success(request, text % {"a": player.display_name, "b": partner.display_name if partner else ""})
    return redirect(manage_url(tournament))


@login_required
@require_POST
def manage_check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser checks an entrant in; see entry_check_in."""
    return manage_action(request, tournament_id, _check_in_act(request))


@login_required
@require_POST
def manage_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser withdraws (after the draw) or removes (before it) an entrant; see
    entry_withdraw."""
    return manage_action(request, tournament_id, _withdraw_act(request, "entrant"))


@login_required
@require_POST
def draw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Make the draw, with an optional seed for a random draw; see tournament_draw."""
    tournament = managed_or_403(request, tournament_id)
    form = DrawForm(request.POST, prefix="draw")
    if not form.is_valid():
        return render_manage(request, tournament, draw_form=form, status=400)
    try:
        drawn = call_service(services.tournament_draw, tournament_id=tournament.pk, user=request.user,
                             seed=form.cleaned_data["seed"])
    except DomainError as error:
        form_refuse(form, error)
        return render_manage(request, tournament, draw_form=form, status=error_status(error))
    draw_made(request, drawn)
    return redirect(manage_url(tournament))


def draw_made(request: HttpRequest, drawn: Tournament) -> None:
    """Tell the director the draw is made (with its seed, when it had one)."""
    if drawn.draw_seed is not None:
        messages.success(request, _("The draw is made from seed %(seed)s: the event is running.")
                         % {"seed": drawn.draw_seed})
    else:
        messages.success(request, _("The draw is made: the event is running."))


@login_required
@require_POST
def pair_next_round(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Pair the next Swiss round; see tournament_pair_next_round."""
    return manage_action(request, tournament_id, pair_act(request))


def pair_act(request: HttpRequest):
    """The action of pairing an event's next Swiss round, for ``manage_action`` and the desk's: it
    returns the sentence that says so."""
    def act(tournament):
        paired = call_service(services.tournament_pair_next_round, tournament_id=tournament.pk, user=request.user)
        return _("Round %(number)d is paired.") % {"number": paired.number}
    return act


@login_required
@require_POST
def finish(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Finish the event; see tournament_finish."""
    def act(tournament):
        services.tournament_finish(tournament_id=tournament.pk, user=request.user)
        return _("The event is finished: its placings are final.")
    return manage_action(request, tournament_id, act)


# --- my next matches ---------------------------------------------------------------------------


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    """The user's next match in each running event he plays in, as a player, one of a pair, or a
    member of a team (his team's next team match and his board; a few queries per event)."""
    player = player_for_user(request.user)
    rows = []
    if player is not None:
        for tournament in event.tournament_list_running(player=player):
            rows.append((tournament, next_match.player_next_match(tournament=tournament, player=player)))
    return render(request, "tournaments/mine.html", {"player": player, "rows": rows,
                                                    "pairing_status": PAIRING_STATUS})


urlpatterns = [
    path("", event_list, name="list"),
    path("new/", event_new, name="new"),
    path("mine/", mine, name="mine"),
    path("<int:tournament_id>/", detail, name="detail"),
    path("<int:tournament_id>/sign-up/", sign_up, name="sign_up"),
    path("<int:tournament_id>/check-in/", check_in, name="check_in"),
    path("<int:tournament_id>/accept/", accept, name="accept"),
    path("<int:tournament_id>/withdraw/", withdraw, name="withdraw"),
    path("<int:tournament_id>/bracket/", bracket, name="bracket"),
    path("<int:tournament_id>/rounds/", rounds, name="rounds"),
    path("<int:tournament_id>/standings/", standings, name="standings"),
    path("<int:tournament_id>/manage/", manage, name="manage"),
    path("<int:tournament_id>/manage/open/", open_entries, name="open_entries"),
    path("<int:tournament_id>/manage/close/", close_entries, name="close_entries"),
    path("<int:tournament_id>/manage/add/", add_entrant, name="add_entrant"),
    path("<int:tournament_id>/manage/check-in/", manage_check_in, name="manage_check_in"),
    path("<int:tournament_id>/manage/withdraw/", manage_withdraw, name="manage_withdraw"),
    path("<int:tournament_id>/manage/draw/", draw, name="draw"),
    path("<int:tournament_id>/manage/pair/", pair_next_round, name="pair"),
    path("<int:tournament_id>/manage/finish/", finish, name="finish"),
]

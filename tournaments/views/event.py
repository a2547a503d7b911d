"""Pages: events, entries and a player's next matches, and the helpers the event's other pages
share (the event for a viewer, a service call, the rules shown). The draw's pages (bracket, rounds,
standings) are in ``draws``, the organiser's control page in ``manage``. Each view parses the request,
calls one selector or service, and renders or redirects (POST, redirect, GET); domain and draw errors
become form errors on the re-rendered page with their 4xx status (nothing is saved: every service runs
in one transaction)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from core.text import isolate, join_clauses, join_list
from matches.models import Match, Player
from matches.services.matches import player_for_user
from tournaments import formats, services
from tournaments.divisions_text import division_rules
from tournaments.draw import DrawError
from tournaments.drawings.bracket_svg import Words
from tournaments.errors import from_draw
from tournaments.forms.event import EntryActionForm, PairSignUpForm, TournamentForm, lengths_field, payouts_field
from tournaments.labels import flight_title
from tournaments.models import Entry, Tournament
from tournaments.selectors import event, next_match
from tournaments.services.acceptance import entry_accept
from tournaments.services.clocks import event_clock_text
from tournaments.services.common import runs
from tournaments.services.events import may_create_events
from tournaments.services.state import entrant_name

PAIRING_STATUS = {**dict(Match.Status.choices), "waiting": gettext_lazy("Waiting for a player"),
                  "bye": gettext_lazy("Bye"), "walkover": gettext_lazy("Walkover"),
                  "not_needed": gettext_lazy("Not needed")}


# --- helpers -----------------------------------------------------------------------------------


def svg_words() -> Words:
    """The bracket drawing's words in the reader's language."""
    return Words(tbd=_("to be decided"), bye=pgettext("bracket", "bye"), title=_("Bracket"),
                 versus=_("%(a)s v %(b)s"), length=pgettext("match length", "%(length)d pt"))


def tournament_or_404(tournament_id: int) -> Tournament:
    try:
        return event.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("no such event")) from None


def visible_or_404(request: HttpRequest, tournament_id: int) -> Tournament:
    """The event as its public pages show it; a 404 for an unknown one and for a draft the user may
    not see (its organiser's and staff's alone)."""
    tournament = tournament_or_404(tournament_id)
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
    """The event form's field a refusal names: ``payouts.main.percentages[1]`` is the main flight's
    paid places' (``payouts_main_places``), ``lengths.main`` the main flight's match lengths'
    (``lengths_main``)."""
    field = error.details.get("field")
    if not isinstance(field, str):
        return None
    return lengths_field(field) or payouts_field(field) or field.split(".")[0]


def manage_url(tournament: Tournament) -> str:
    """The address of the event's control page (its organiser's)."""
    return reverse("tournaments:manage", args=[tournament.pk])


def _rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The published rules as (term, description) lines."""
    lengths = tournament.lengths or {}
    if lengths:
        shown = join_clauses(
            _("%(flight)s: %(lengths)s points") % {
                "flight": flight_title(name),
                "lengths": join_list(value) if isinstance(value, list) else str(value)}
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
                     % {"name": isolate(tournament.name)})
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
    tournament = tournament_or_404(tournament_id)
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
    tournament = tournament_or_404(tournament_id)
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


def check_in_act(request: HttpRequest):
    """The check-in of the posted entry, for the event page and the control page alike."""
    def act(tournament):
        entry = services.entry_check_in(tournament_id=tournament.pk, entry_id=posted_entry(request),
                                        user=request.user)
        return _("%(name)s is checked in.") % {"name": isolate(entrant_name(entry))}
    return act


def withdraw_act(request: HttpRequest, noun: str):
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
    return _entry_action(request, tournament_id, check_in_act(request))


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
    return _entry_action(request, tournament_id, withdraw_act(request, "entry"))


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
]

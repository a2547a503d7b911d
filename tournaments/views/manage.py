"""The organiser's control page of an event and its actions: open and close entries, add, check
in or withdraw an entrant, make the draw, pair the next round, finish the event. Domain and draw
errors become form errors on the re-rendered page with their 4xx status."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from core.text import isolate
from tournaments import formats, services
from tournaments.forms.event import DrawForm, EntrantForm
from tournaments.models import Tournament
from tournaments.selectors import event
from tournaments.services.common import runs
from tournaments.views.event import call_service, check_in_act, manage_url, tournament_or_404, withdraw_act

# --- the organiser's control page ------------------------------------------------------------


def managed_or_403(request: HttpRequest, tournament_id: int) -> Tournament:
    """The event, for its organiser or staff only: a 404 for an unknown one, PermissionDenied
    (403) for any other user. What every page that manages an event starts with."""
    tournament = tournament_or_404(tournament_id)
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
    messages.success(request, text % {"a": isolate(player.display_name), "b": isolate(partner.display_name if partner else "")})
    return redirect(manage_url(tournament))


@login_required
@require_POST
def manage_check_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser checks an entrant in; see entry_check_in."""
    return manage_action(request, tournament_id, check_in_act(request))


@login_required
@require_POST
def manage_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser withdraws (after the draw) or removes (before it) an entrant; see
    entry_withdraw."""
    return manage_action(request, tournament_id, withdraw_act(request, "entrant"))


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


urlpatterns = [
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

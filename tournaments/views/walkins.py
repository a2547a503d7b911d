"""The organiser enters a walk-in from the event's control page (the form beside "Add an entrant":
templates/tournaments/_walkin.html). A refusal re-renders the form on a page of its own with its
4xx status; nothing is saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, form_refuse
from core.text import isolate
from tournaments.forms.walkins import WalkInEntrantForm
from tournaments.models import Tournament
from tournaments.selectors import event
from tournaments.services.common import runs
from tournaments.services.walkins import entry_add_walk_in


def _render(request: HttpRequest, tournament: Tournament, form: WalkInEntrantForm, status: int) -> HttpResponse:
    return render(request, "tournaments/walkin.html", {"tournament": tournament, "walkin_form": form}, status=status)


@login_required
@require_POST
def add_walk_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """See entry_add_walk_in. Only the event's organiser and staff (403 for others)."""
    try:
        tournament = event.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(gettext("There is no such event.")) from None
    if not runs(tournament, request.user):
        raise PermissionDenied(gettext("Only the event's organiser (or staff) may enter walk-ins."))
    form = WalkInEntrantForm(request.POST, prefix="walkin")
    if not form.is_valid():
        return _render(request, tournament, form, 400)
    try:
        entry = entry_add_walk_in(tournament_id=tournament.pk, user=request.user, **form.service_arguments())
    except DomainError as error:
        form_refuse(form, error)
        return _render(request, tournament, form, error_status(error))
    walk_in = entry.walk_in
    name = walk_in.player.display_name
    if not walk_in.created:
        text = gettext("%(name)s, a player known by this name already, is entered.") % {"name": isolate(name)}
    elif walk_in.invited:
        text = gettext("%(name)s is entered, and invited by email to claim his player.") % {"name": isolate(name)}
    else:
        text = gettext("%(name)s is entered.") % {"name": isolate(name)}
    messages.success(request, text)
    return redirect(reverse("tournaments:manage", args=[tournament.pk]))


urlpatterns = [
    path("<int:tournament_id>/manage/walk-in/", add_walk_in, name="add_walk_in"),
]

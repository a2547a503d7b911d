"""Pages of an event's life: edit its settings, cancel it, delete a draft (the organiser and
staff; 403 for others). Each parses the form, calls one service (tournaments.services.life), and
redirects, or re-renders the form with the refusal on its field and the refusal's 4xx status."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from core.text import isolate
from tournaments import services
from tournaments.forms.life import CancelForm, TournamentEditForm
from tournaments.models import Entry, Tournament

from .event import call_service, refused_field
from .manage import managed_or_403


@login_required
def edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event's settings, prefilled: those that may not change now are shown disabled with the
    reason; see tournament_update."""
    tournament = managed_or_403(request, tournament_id)
    has_entries = Entry.objects.filter(tournament=tournament).exists()
    over = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    if request.method != "POST":
        form = TournamentEditForm(tournament=tournament, has_entries=has_entries)
        return render(request, "tournaments/edit.html", {"tournament": tournament, "form": form, "over": over})
    form = TournamentEditForm(request.POST, tournament=tournament, has_entries=has_entries)
    if not form.is_valid():
        return render(request, "tournaments/edit.html", {"tournament": tournament, "form": form, "over": over},
                      status=400)
    try:
        call_service(services.tournament_update, tournament_id=tournament.pk, user=request.user, changes=form.changes())
    except DomainError as error:
        form_refuse(form, error, field=refused_field(error))
        return render(request, "tournaments/edit.html", {"tournament": tournament, "form": form, "over": over},
                      status=error_status(error))
    messages.success(request, _("The event's settings are saved."))
    return redirect(reverse("tournaments:manage", args=[tournament.pk]))


@login_required
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Cancel the event with a reason its entrants are emailed; see tournament_cancel."""
    tournament = managed_or_403(request, tournament_id)
    form = CancelForm(request.POST if request.method == "POST" else None)
    context = {"tournament": tournament, "form": form}
    if request.method != "POST":
        return render(request, "tournaments/cancel.html", context)
    if not form.is_valid():
        return render(request, "tournaments/cancel.html", context, status=400)
    try:
        services.tournament_cancel(tournament_id=tournament.pk, user=request.user, reason=form.cleaned_data["reason"])
    except DomainError as error:
        form_refuse(form, error)
        return render(request, "tournaments/cancel.html", context, status=error_status(error))
    messages.success(request, _("The event is cancelled; its entrants are told by email."))
    return redirect(reverse("tournaments:detail", args=[tournament.pk]))


@login_required
def delete(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Delete a draft nobody has entered, after a confirmation; see tournament_delete."""
    tournament = managed_or_403(request, tournament_id)
    context = {"tournament": tournament, "error": ""}
    if request.method != "POST":
        return render(request, "tournaments/delete.html", context)
    try:
        services.tournament_delete(tournament_id=tournament.pk, user=request.user)
    except DomainError as error:
        context["error"] = error_text(error)
        return render(request, "tournaments/delete.html", context, status=error_status(error))
    messages.success(request, _("The draft “%(name)s” is deleted.") % {"name": isolate(tournament.name)})
    return redirect(reverse("tournaments:list"))


urlpatterns = [
    path("<int:tournament_id>/manage/edit/", edit, name="edit"),
    path("<int:tournament_id>/manage/cancel/", cancel, name="cancel"),
    path("<int:tournament_id>/manage/delete/", delete, name="delete"),
]

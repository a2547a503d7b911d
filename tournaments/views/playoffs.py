"""The director starts a modified Swiss's playoffs from the round page
(``tournaments.services.playoffs.tournament_playoffs_start``). Who is still in contention is
shown on the standings page (``tournaments.selectors.playoffs``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text
from tournaments.services.playoffs import tournament_playoffs_start

from .event import call_service
from .manage import managed_or_403, render_manage


@login_required
@require_POST
def playoffs_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Stop the Swiss and draw the playoffs; back to the round page, which shows them. A refusal
    is shown on the event's control page with its status (409 while the Swiss goes on)."""
    tournament = managed_or_403(request, tournament_id)
    try:
        call_service(tournament_playoffs_start, tournament_id=tournament.pk, user=request.user)
    except DomainError as error:
        return render_manage(request, tournament, action_error=error_text(error), status=error_status(error))
    messages.success(request, _("The Swiss has stopped: the playoffs are drawn."))
    return redirect(reverse("tournaments:rounds", args=[tournament.pk]))


urlpatterns = [
    path("<int:tournament_id>/manage/playoffs/", playoffs_start, name="playoffs_start"),
]

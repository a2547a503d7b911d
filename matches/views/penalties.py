"""The director gives penalty points mid-match from the match page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from engine.errors import EngineError

from .. import errors
from ..forms.penalties import PenaltyForm
from ..penalties_text import penalty_text
from ..services.penalties import match_penalty_give, penalty_standing
from ..services.reporting import user_runs_match
from .match import match_or_404, render_detail


@login_required
@require_POST
def penalty(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match's director gives penalty points between games; see match_penalty_give."""
    match = match_or_404(match_id, request.user)
    if not user_runs_match(match, request.user):
        error = errors.not_organiser()
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    form = PenaltyForm(request.POST, match=match, standing=penalty_standing(match), prefix="penalty")
    if not form.is_valid():
        return render_detail(request, match, penalty_form=form, status=400)
    data = form.cleaned_data
    try:
        given = match_penalty_give(match.pk, data["side"], data["points"], data["reason"], request.user,
                                   score=form.score)
    except (DomainError, EngineError) as error:
        form_refuse(form, error, aliases={"score": "score0"})
        return render_detail(request, match, penalty_form=form, status=error_status(error))
    messages.success(request, penalty_text(match, given))
    return redirect(reverse("matches:detail", args=[match.pk]) + "#penalties")


urlpatterns = [
    path("matches/<int:match_id>/penalty/", penalty, name="penalty"),
]

"""A match's clock on its page (issue 17, point 1): the director records a flag fall."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text

from . import errors
from .services.clocks import match_flag_fall
from .services.reporting import user_runs_match
from .views import _detail_url, _match_or_404, _render_detail


class FlagFallForm(forms.Form):
    side = forms.TypedChoiceField(choices=((0, "0"), (1, "1")), coerce=int)


@login_required
@require_POST
def flag_fall(request: HttpRequest, match_id: int) -> HttpResponse:
    """The director records that a side's flag fell: the match goes to the opponent; see
    match_flag_fall."""
    match = _match_or_404(match_id)
    if not user_runs_match(match, request.user):
        error = errors.not_organiser()
        return _render_detail(request, match, action_error=error_text(error), status=error_status(error))
    form = FlagFallForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, match, action_error=gettext("choose the side whose flag fell"), status=400)
    side = form.cleaned_data["side"]
    try:
        match_flag_fall(match_id=match.pk, side=side, user=request.user)
    except DomainError as error:
        return _render_detail(request, match, action_error=error_text(error), status=error_status(error))
    messages.success(request, gettext("Flag fall recorded: %(name)s ran out of time, the match goes to %(winner)s.")
                     % {"name": match.sides[side].name, "winner": match.sides[1 - side].name})
    return redirect(_detail_url(match))


urlpatterns = [
    path("matches/<int:match_id>/flag-fall/", flag_fall, name="flag_fall"),
]

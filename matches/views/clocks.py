"""A match's clock on its page: the director records a flag fall, or brings
in a clock mid-match after seeing the reduced reserve the rules give."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from core.text import isolate

from .. import errors
from ..clocks import duration_text, match_clock_text, mid_match_clock, mid_match_text, score_text
from ..forms.clocks import ClockIntroduceForm
from ..models import Match
from ..services.clocks import match_clock_introduce, match_flag_fall
from ..services.penalties import penalty_standing
from ..services.reporting import user_runs_match
from .match import detail_url, match_or_404, render_detail


class FlagFallForm(forms.Form):
    side = forms.TypedChoiceField(choices=((0, "0"), (1, "1")), coerce=int)


@login_required
@require_POST
def flag_fall(request: HttpRequest, match_id: int) -> HttpResponse:
    """The director records that a side's flag fell: the match goes to the opponent; see
    match_flag_fall."""
    match = match_or_404(match_id, request.user)
    if not user_runs_match(match, request.user):
        error = errors.not_organiser()
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    form = FlagFallForm(request.POST)
    if not form.is_valid():
        return render_detail(request, match, action_error=gettext("choose the side whose flag fell"), status=400)
    side = form.cleaned_data["side"]
    try:
        match_flag_fall(match_id=match.pk, side=side, user=request.user)
    except DomainError as error:
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    # Translators: %(name)s's clock ran out (KO 시간패); %(winner)s is the opponent, who wins the match.
    messages.success(request, gettext("Flag fall recorded: %(name)s ran out of time, the match goes to %(winner)s.")
                     % {"name": isolate(match.sides[side].name), "winner": isolate(match.sides[1 - side].name)})
    return redirect(detail_url(match))


def _render_clock(request: HttpRequest, match: Match, form: ClockIntroduceForm | None, *, clock=None,
                  changed: bool = False, action_error: str = "", status: int = 200) -> HttpResponse:
    return render(request, "matches/clock_introduce.html", {
        "match": match,
        "current_clock": match_clock_text(match),
        "clock_form": form,
        "clock_preview": mid_match_text(clock) if clock else "",
        "clock_shown": form.key if clock else "",
        "clock_changed": changed,
        "action_error": action_error,
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def clock_introduce(request: HttpRequest, match_id: int) -> HttpResponse:
    """The director brings a clock into a match under way, in two steps. GET: the form, from the
    score as it stands and the match's own clock (else the defaults). POST: the reserve the rules
    give at the sent values is shown first (nothing changes); sent again with ``confirm`` and the
    same values, the clock is brought in (``match_clock_introduce``) and the match page follows.
    A refusal names its field on the form; anyone but the match's director gets 403."""
    match = match_or_404(match_id, request.user)
    if not user_runs_match(match, request.user):
        error = errors.not_organiser()
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    closed = errors.already_confirmed() if match.status == Match.Status.CONFIRMED else None
    standing = penalty_standing(match)
    if request.method != "POST":
        form = None if closed or match.is_money else ClockIntroduceForm(match=match, standing=standing, prefix="clock")
        return _render_clock(request, match, form, action_error=error_text(closed) if closed else "")
    form = ClockIntroduceForm(request.POST, match=match, standing=standing, prefix="clock")
    if closed:
        return _render_clock(request, match, None, action_error=error_text(closed), status=error_status(closed))
    if not form.is_valid():
        return _render_clock(request, match, form, status=400)
    data = form.cleaned_data
    try:
        clock = mid_match_clock(match, form.score, seconds_per_point=data["seconds_per_point"],
                                delay_seconds=data["delay_seconds"])
        confirmed = "confirm" in request.POST
        if not confirmed or data["shown"] != form.key:
            return _render_clock(request, match, form, clock=clock, changed=confirmed)
        match = match_clock_introduce(match_id=match.pk, user=request.user, score=form.score,
                                      seconds_per_point=data["seconds_per_point"], delay_seconds=data["delay_seconds"])
    except DomainError as error:
        form_refuse(form, error, aliases={"score": "score0"})
        return _render_clock(request, match, form, status=error_status(error))
    messages.success(request, gettext("The clock is in at %(score)s: each side has %(reserve)s, with a delay of "
                                      "%(delay)s per move.") % {
        "score": score_text(clock.score), "reserve": duration_text(match.clock_reserve_seconds),
        "delay": duration_text(match.clock_delay_seconds)})
    return redirect(reverse("matches:detail", args=[match.pk]) + "#clock")


urlpatterns = [
    path("matches/<int:match_id>/flag-fall/", flag_fall, name="flag_fall"),
    path("matches/<int:match_id>/clock/", clock_introduce, name="clock_introduce"),
]

"""Pages: a director corrects a result of his event, seeing first what it resets; a finished
event is reopened (with a confirmation) so that it can be corrected.

The correction is two steps, POST each (``services.corrections``): the form's score is previewed
(nothing changes; the page lists, in sentences, every later match it resets, those that had
already started with the wrong player, and every player to tell), then confirmed with the list the
director saw (if the bracket moved in between, the service refuses and the page shows the new
list)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from core.errors import DomainError
from core.pages import error_status, error_text, form_refuse
from core.text import isolate
from matches.models import MAX_SCORE, Match
from tournaments.models import Tournament
from tournaments.services.corrections import result_correct, result_correction_preview
from tournaments.services.events import event_reopen

from .event import manage_url
from .manage import managed_or_403


class CorrectionForm(forms.Form):
    """The corrected final score; ``expected`` carries the reset list the director confirmed."""

    score0 = forms.IntegerField(min_value=0, max_value=MAX_SCORE)
    score1 = forms.IntegerField(min_value=0, max_value=MAX_SCORE)
    statement = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
                                label=gettext_lazy("Why (kept in the audit log)"))
    expected = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, match: Match, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["score0"].label = _("%(name)s's score") % {"name": isolate(match.side0.name)}
        self.fields["score1"].label = _("%(name)s's score") % {"name": isolate(match.side1.name)}

    @property
    def score(self) -> tuple[int, int]:
        return (self.cleaned_data["score0"], self.cleaned_data["score1"])

    @property
    def expected_keys(self) -> list[str]:
        text = self.cleaned_data.get("expected") or ""
        return [key for key in text.split(",") if key]


class ReopenForm(forms.Form):
    note = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
                           label=gettext_lazy("Why (kept in the audit log)"))


def _event_match_or_404(tournament: Tournament, match_id: int) -> Match:
    try:
        return Match.objects.with_sides().get(pk=match_id, event_link__tournament=tournament)
    except Match.DoesNotExist:
        raise Http404(_("no such match in this event")) from None


@login_required
@require_http_methods(["GET", "POST"])
def result_correct_page(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """GET: the correction form. POST: the preview (the matches it resets), or with ``confirm``
    the correction itself, then back to the match's page. Only the event's director (403)."""
    tournament = managed_or_403(request, tournament_id)
    match = _event_match_or_404(tournament, match_id)
    context = {"tournament": tournament, "match": match, "runs": True}
    if request.method == "GET":
        initial = {"score0": match.score0, "score1": match.score1} if match.status == Match.Status.CONFIRMED else {}
        form = CorrectionForm(initial=initial, match=match)
        return render(request, "tournaments/correct.html", {**context, "form": form})
    form = CorrectionForm(request.POST, match=match)
    if not form.is_valid():
        return render(request, "tournaments/correct.html", {**context, "form": form}, status=400)
    try:
        if "confirm" in request.POST:
            done = result_correct(match_id=match.pk, user=request.user, score=form.score, tournament_id=tournament.pk,
                                  statement=form.cleaned_data["statement"], expected=form.expected_keys)
        else:
            preview = result_correction_preview(match_id=match.pk, user=request.user, score=form.score,
                                                tournament_id=tournament.pk)
    except DomainError as error:
        form_refuse(form, error)
        return render(request, "tournaments/correct.html", {**context, "form": form}, status=error_status(error))
    if "confirm" in request.POST:
        text = done.summary
        if done.resets:
            text += " " + (_("%(count)s later match was reset.") if len(done.resets) == 1
                           else _("%(count)s later matches were reset.")) % {"count": len(done.resets)}
        messages.success(request, text)
        return redirect(reverse("matches:detail", args=[match.pk]))
    confirm = CorrectionForm(initial={**form.cleaned_data, "expected": ",".join(preview.keys)}, match=match)
    for name in ("score0", "score1", "statement"):
        confirm.fields[name].widget = forms.HiddenInput()
    return render(request, "tournaments/correct_confirm.html", {**context, "preview": preview, "form": confirm})


@login_required
@require_http_methods(["GET", "POST"])
def event_reopen_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET: what reopening a finished event means, and its confirmation. POST: reopen it (see
    event_reopen), then back to the control page. Only the event's director (403)."""
    tournament = managed_or_403(request, tournament_id)
    form = ReopenForm(request.POST if request.method == "POST" else None)
    context = {"tournament": tournament, "form": form, "runs": True}
    if request.method == "GET" or not form.is_valid():
        return render(request, "tournaments/reopen.html", context, status=200 if request.method == "GET" else 400)
    try:
        event_reopen(tournament_id=tournament.pk, user=request.user, note=form.cleaned_data["note"])
    except DomainError as error:
        return render(request, "tournaments/reopen.html", {**context, "action_error": error_text(error)},
                      status=error_status(error))
    messages.success(request, _("%(event)s is running again: correct its results, then finish it again.")
                     % {"event": isolate(tournament.name)})
    return redirect(manage_url(tournament))


urlpatterns = [
    path("<int:tournament_id>/matches/<int:match_id>/correct/", result_correct_page, name="result_correct"),
    path("<int:tournament_id>/manage/reopen/", event_reopen_page, name="reopen"),
]

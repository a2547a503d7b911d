"""Pages of the analysis: the export of a match's analysis as a JSON file, the director's request
from the match page, and the version the match page polls while it runs (the section itself is
drawn by analysis.pages, through matches.hooks)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.cache import conditional_answer
from core.errors import DomainError
from core.pages import error_status, error_text, success_redirect
from matches.models import Match
from matches.selectors.match import match_readable
from matches.views.match import match_or_404, render_detail

from .answers import match_analysis_export
from .models import MatchAnalysis
from .pages import depth_text, live_version
from .selectors import analysis_of, match_with_analysis
from .services import match_analysis_request


@require_safe
def analysis_json(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/analysis.json``: the done analysis as a download (404 before it is done)."""
    try:
        match = match_with_analysis(match_id)
    except Match.DoesNotExist:
        raise Http404(_("there is no match %(id)s") % {"id": match_id}) from None
    if not match_readable(match, request.user):
        raise Http404(_("there is no match %(id)s") % {"id": match_id})
    analysis = analysis_of(match)
    if analysis is None or analysis.status != MatchAnalysis.Status.DONE:
        raise Http404(_("this match has no analysis yet"))
    body = json.dumps(match_analysis_export(match, analysis), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match_id}-analysis.json"'
    return response


@require_safe
def analysis_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """``{"version": "..."}`` of the match's analysis (its request, state and progress), with its
    ETag: what the match page polls while the analysis is queued or running (static/js/live.js),
    a 304 while nothing moved. Public, like the match page (and hidden like it while its players
    have not both consented: ``match_readable``); one query for an analysed consented match."""
    row = (MatchAnalysis.objects.filter(pk=match_id).select_related("match")
           .only("generation", "status", "done", "total", "match__consent0", "match__consent1").first())
    if row is None or not row.match.consented:
        match = Match.objects.with_side_ids().filter(pk=match_id).first()
        if match is None or not match_readable(match, request.user):
            raise Http404(_("there is no match %(id)s") % {"id": match_id})
    version = live_version(row)
    return conditional_answer(request, body=json.dumps({"version": version}).encode(),
                              content_type="application/json", etag=f'"analysis-{match_id}-{version}"')


@login_required
@require_POST
def analysis_request(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match's director asks for its analysis (again) at the depth chosen; see
    ``match_analysis_request``. A refusal is shown on the match page with its status."""
    match = match_or_404(match_id, request.user)
    try:
        plies = int(request.POST.get("plies", ""))
    except ValueError:
        plies = None
    try:
        row = match_analysis_request(match.pk, actor=request.user, plies=plies)
    except DomainError as error:
        return render_detail(request, match, action_error=error_text(error), status=error_status(error))
    text = _("The analysis at %(depth)s is queued; this page shows its progress.") % {"depth": depth_text(row.plies)}
    return success_redirect(request, text, reverse("matches:detail", args=[match.pk]) + "#analysis")

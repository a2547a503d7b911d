"""Pages of the analysis: the export of a match's analysis as a JSON file."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from matches.models import Match

from .answers import match_analysis_export
from .models import MatchAnalysis
from .selectors import analysis_of, match_with_analysis


@require_safe
def analysis_json(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/analysis.json``: the done analysis as a download (404 before it is done)."""
    try:
        match = match_with_analysis(match_id)
    except Match.DoesNotExist:
        raise Http404(_("there is no match %(id)s") % {"id": match_id}) from None
    analysis = analysis_of(match)
    if analysis is None or analysis.status != MatchAnalysis.Status.DONE:
        raise Http404(_("this match has no analysis yet"))
    body = json.dumps(match_analysis_export(match, analysis), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match_id}-analysis.json"'
    return response

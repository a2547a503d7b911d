"""A match's scoresheet as PDF (``matches.paper``), shown in the browser: public, as the match
page is. ``?paper=a4`` (the default) or ``letter``; anything else is a 400 naming the parameter."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from .. import hooks
from ..clocks import match_clock_text
from ..models import Match
from ..paper import PaperError, Scoresheet, scoresheets_pdf
from ..selectors.match import match_get_readable


@require_safe
def scoresheet(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match's scoresheet: its players, length, Crawford boxes, a line per game, signatures."""
    try:
        match = match_get_readable(match_id, request.user)
    except Match.DoesNotExist:
        raise Http404(_("no such match")) from None
    sheet = Scoresheet(context=" \u00b7 ".join(text for _label, text in hooks.describe(match)), reference="",
                       names=(match.side0.name, match.side1.name), length=match.length, crawford=match.crawford,
                       clock=match_clock_text(match))
    try:
        content = scoresheets_pdf([sheet], paper=request.GET.get("paper"), title=str(match))
    except PaperError:
        return HttpResponseBadRequest(_("paper: choose a4 or letter"), content_type="text/plain; charset=utf-8")
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="match-{match.pk}-scoresheet.pdf"'
    return response


urlpatterns = [
    path("matches/<int:match_id>/scoresheet.pdf", scoresheet, name="scoresheet"),
]

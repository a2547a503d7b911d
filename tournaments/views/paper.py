"""Paper routes of an event (``tournaments.drawings.paper``): the draw sheet, the scoresheets of a round
and the results sheet of a round, as PDF shown in the browser (``Content-Disposition: inline``).

``?paper=a4`` (the default) or ``?paper=letter``; anything else is a 400 naming the parameter.
A public event's sheets are public; a draft's only its organiser's and staff's (404 for others).
A sheet the event does not have (no bracket, a round not paired) is a 404. A fixed number of
queries, whatever the event's size.

Each sheet is drawn once per version of the event and kept; drawing one is throttled, and a big one
is drawn by a task while the page answers 202 (tournaments/drawings/renders.py).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import path
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from matches.paper import DEFAULT_PAPER, PaperError, page_size
from tournaments.drawings import renders
from tournaments.models import Tournament
from tournaments.selectors import event


def _readable(request: HttpRequest, tournament_id: int) -> Tournament:
    try:
        tournament = event.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("no such event")) from None
    if not event.may_see(tournament, request.user):
        raise Http404(_("no such event"))  # a draft is its organiser's and staff's alone, as its pages
    return tournament


def _name(tournament: Tournament, what: str) -> str:
    return f"{slugify(tournament.name) or 'event'}-{what}.pdf"


def _sheet(request: HttpRequest, tournament: Tournament, kind: str, number: int, filename: str) -> HttpResponse:
    chosen = (request.GET.get("paper") or DEFAULT_PAPER).lower()
    try:
        page_size(chosen)
    except PaperError:
        return HttpResponseBadRequest(_("paper: choose a4 or letter"), content_type="text/plain; charset=utf-8")
    wanted = renders.Wanted(tournament.pk, kind, number, chosen, translation.get_language())
    return renders.file_answer(request, tournament, wanted, filename=filename, disposition="inline",
                               missing=_("this event has no such sheet yet"))


@require_safe
def draw_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The draw sheet of an elimination event: every flight, every round, landscape."""
    tournament = _readable(request, tournament_id)
    return _sheet(request, tournament, renders.DRAW, 0, _name(tournament, "draw"))


@require_safe
def round_scoresheets(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Every scoresheet of round ``number``, one page a match."""
    tournament = _readable(request, tournament_id)
    return _sheet(request, tournament, renders.SCORESHEETS, number, _name(tournament, f"round-{number}-scoresheets"))


@require_safe
def round_results(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """The results sheet of round ``number``."""
    tournament = _readable(request, tournament_id)
    return _sheet(request, tournament, renders.RESULTS, number, _name(tournament, f"round-{number}-results"))


urlpatterns = [
    path("<int:tournament_id>/paper/draw.pdf", draw_sheet, name="paper_draw"),
    path("<int:tournament_id>/paper/round/<int:number>/scoresheets.pdf", round_scoresheets, name="paper_scoresheets"),
    path("<int:tournament_id>/paper/round/<int:number>/results.pdf", round_results, name="paper_results"),
]

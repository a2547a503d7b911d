"""Page: an event's audit log, for its organiser (its director) and staff.

Like the control page (``tournaments.views.manage.manage``): anonymous visitors are sent to sign in, anyone
but the organiser and staff gets a 403. The view only reads (selectors) and renders. Each entry is a
sentence (``audit.describe``), naming its match's sides: never an action's name, an id or JSON.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _

from audit.selectors import AuditFilters, action_choices, audit_actions, audit_of_event, audit_page, audit_rows
from matches.models import Match
from tournaments.models import Tournament
from tournaments.selectors.event import tournament_get
from tournaments.services.common import runs


def _side_names(entries) -> dict[int, tuple[str, str]]:
    """The sides' names of the matches ``entries`` are about (one query; a match deleted since is
    left out)."""
    ids = {entry.match_id for entry in entries if entry.match_id is not None}
    if not ids:
        return {}
    matches = Match.objects.filter(pk__in=ids).select_related(
        "side0__player_a", "side0__player_b", "side1__player_a", "side1__player_b")
    return {match.pk: (match.side0.name, match.side1.name) for match in matches}


@login_required
def event_audit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every change of the event, newest first, 50 a page, narrowed to one action (``?action=``,
    or an entity's actions: ``entry.``). Only the event's organiser and staff (403 for others)."""
    try:
        tournament = tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("no such event")) from None
    if not runs(tournament, request.user):
        raise PermissionDenied(_("only the event's organiser (or staff) may read its audit log"))
    action = request.GET.get("action", "")[:64]
    page = audit_page(audit_of_event(tournament, AuditFilters(action=action)), request.GET.get("page"))
    entries = list(page)
    return render(request, "tournaments/audit.html", {
        "tournament": tournament, "runs": True, "page": page, "rows": audit_rows(entries, _side_names(entries)),
        "action": action, "actions": action_choices(audit_actions(tournament)),
    })


urlpatterns = [
    path("<int:tournament_id>/audit/", event_audit, name="audit"),
]

"""The director's "Re-enter" button (buy-back into the main): see
``tournaments.services.reentry``. The manage page shows it beside each entrant who may re-enter
now (``reentry_candidates``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.text import isolate
from tournaments.services.reentry import entry_reenter
from tournaments.services.state import plain_name
from tournaments.views.event import posted_entry
from tournaments.views.manage import manage_action


@login_required
@require_POST
def manage_reenter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director re-enters a first-round loser into the main; see entry_reenter."""
    def act(tournament):
        entry = entry_reenter(tournament_id=tournament.pk, entry_id=posted_entry(request), user=request.user)
        return _("%(name)s has re-entered the main as seed %(seed)d.") % {"name": isolate(plain_name(entry)),
                                                                          "seed": entry.seed}

    return manage_action(request, tournament_id, act)


urlpatterns = [
    path("<int:tournament_id>/manage/reenter/", manage_reenter, name="manage_reenter"),
]

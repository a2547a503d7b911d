"""Pages of divisions and handicaps: the organiser's form putting an entrant
in a division (``entry_set_division``). What the pages say of divisions: ``divisions_text``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.text import isolate
from tournaments.forms.divisions import EntryDivisionForm
from tournaments.services.divisions import entry_set_division
from tournaments.views.manage import manage_action


@login_required
@require_POST
def manage_division(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser puts an entrant in a division; see entry_set_division."""
    def act(tournament):
        form = EntryDivisionForm(request.POST)
        if not form.is_valid():
            raise DomainError(_("choose the entrant and one of the event's divisions"), code="bad_division")
        entry = entry_set_division(tournament_id=tournament.pk, entry_id=form.cleaned_data["entry"],
                                   user=request.user, division=form.cleaned_data["division"])
        return _("%(name)s is in the %(division)s division.") % {
            "name": isolate(entry.side.name), "division": isolate(entry.division)}

    return manage_action(request, tournament_id, act)


urlpatterns = [
    path("<int:tournament_id>/manage/division/", manage_division, name="manage_division"),
]

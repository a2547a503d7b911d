"""Pages of divisions and handicaps (issue 17 point 5): the rules lines an event with divisions
publishes, the sentence of a match's handicap start, and the organiser's form putting an entrant
in a division (``entry_set_division``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from tournaments.forms_divisions import EntryDivisionForm
from tournaments.models import Tournament
from tournaments.services.divisions import entry_set_division


def _rating(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def division_said(division: dict) -> str:
    """``Intermediate (ratings below 1650)``: a division and its range as people say it."""
    low, high = division.get("min_rating"), division.get("max_rating")
    name = division["name"]
    if low is not None and high is not None:
        return _("%(name)s (ratings from %(low)s to below %(high)s)") % {
            "name": name, "low": _rating(low), "high": _rating(high)}
    if high is not None:
        return _("%(name)s (ratings below %(high)s)") % {"name": name, "high": _rating(high)}
    if low is not None:
        return _("%(name)s (ratings of %(low)s and above)") % {"name": name, "low": _rating(low)}
    return name


def handicap_row_said(row: dict) -> str:
    return _("%(division)s starts %(points)d-0 against %(against)s in a match to %(length)d") % row


def division_rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The rules lines of an event with divisions: its divisions and its handicap starts."""
    if not tournament.divisions:
        return []
    lines = [(_("Divisions"), "; ".join(division_said(d) for d in tournament.divisions))]
    if tournament.handicaps:
        lines.append((_("Handicap starts"), "; ".join(handicap_row_said(h) for h in tournament.handicaps)))
    else:
        lines.append((_("Handicap starts"), _("none: every match starts at 0-0")))
    return lines


def handicap_said(pairing) -> str:
    """The handicap start of a shown match (``selectors.PairingView``), or ""."""
    top, bottom = pairing.handicap
    if not (top or bottom) or pairing.top is None or pairing.bottom is None:
        return ""
    ahead, other, points = (pairing.top, pairing.bottom, top) if top else (pairing.bottom, pairing.top, bottom)
    return _("%(ahead)s starts %(points)d-0 against %(other)s (division handicap, a match to %(length)d)") % {
        "ahead": ahead.name, "other": other.name, "points": points, "length": pairing.length}


@login_required
@require_POST
def manage_division(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser puts an entrant in a division; see entry_set_division."""
    from tournaments.views import _manage_action  # the manage page's own action frame

    def act(tournament):
        form = EntryDivisionForm(request.POST)
        if not form.is_valid():
            raise DomainError(_("choose the entrant and one of the event's divisions"), code="bad_division")
        entry = entry_set_division(tournament_id=tournament.pk, entry_id=form.cleaned_data["entry"],
                                   user=request.user, division=form.cleaned_data["division"])
        return _("%(name)s is in the %(division)s division.") % {"name": entry.side.name, "division": entry.division}

    return _manage_action(request, tournament_id, act)


urlpatterns = [
    path("<int:tournament_id>/manage/division/", manage_division, name="manage_division"),
]

"""The paid places page: each paying flight's pool, the share and amount of
each paid place, and the prize winners decided so far. Public like the event's other pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from tournaments.labels import flight_title
from tournaments.payouts_display import money, percent
from tournaments.selectors.payouts import tournament_payouts
from tournaments.services.common import runs

from .event import visible_or_404


def flight_lines(tournament) -> list[dict]:
    """What the page shows of each paying flight, in words and numbers for people."""
    out = []
    for flight in tournament_payouts(tournament=tournament):
        out.append({
            "name": flight.flight,
            "title": flight_title(flight.flight),
            "pool": money(flight.pool),
            "summary": ngettext("%(count)d place paid from a pool of %(pool)s",
                                "%(count)d places paid from a pool of %(pool)s",
                                len(flight.places)) % {"count": len(flight.places), "pool": money(flight.pool)},
            "places": [{"place": p.place, "percent": percent(p.percent), "amount": money(p.amount)}
                       for p in flight.places],
            "prizes": [{"label": p.label, "name": p.entrant.name, "percent": percent(p.percent),
                        "amount": money(p.amount)} for p in flight.prizes if p.amount],
        })
    return out


@require_safe
def payouts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Each paying flight's paid places and the prize winners decided so far. Public (a draft: its
    organiser and staff); a fixed number of queries."""
    tournament = visible_or_404(request, tournament_id)
    return render(request, "tournaments/payouts.html", {
        "tournament": tournament, "flights": flight_lines(tournament), "runs": runs(tournament, request.user)})


urlpatterns = [
    path("<int:tournament_id>/payouts/", payouts, name="payouts"),
]

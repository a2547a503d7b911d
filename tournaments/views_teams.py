"""Pages: a team event's teams, a team's page (members, reserves, board orders, and the captain's
board-order form), and the team match card showing each board.

Each view parses the request, calls one selector or service, and renders or redirects (POST,
redirect, GET). A refused board order re-renders the team page with the service's message and
its status (400 bad input, 403 not the captain, 409 locked); nothing is saved.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from config.errors import DomainError
from matches.services.matches import player_for_user

from . import selectors
from .models import Pairing, Team, Tournament
from .services.common import runs
from .services.teams import board_order_submit


def _tournament_or_404(tournament_id: int) -> Tournament:
    try:
        return selectors.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404("no such event") from None


def _team_or_404(tournament: Tournament, team_id: int) -> selectors.TeamView:
    try:
        return selectors.team_get(tournament=tournament, team_id=team_id)
    except Team.DoesNotExist:
        raise Http404("no such team") from None


def _may_set_order(tournament: Tournament, team: selectors.TeamView, user) -> bool:
    if runs(tournament, user):
        return True
    player = player_for_user(user)
    return player is not None and player.pk == team.captain_id


class BoardOrderForm(forms.Form):
    """A round number and one member per board (shape only: the service checks membership)."""

    round_number = forms.IntegerField(min_value=1)

    def __init__(self, *args, team: selectors.TeamView, boards: int, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(str(m.player_id), m.name + (" (reserve)" if m.reserve else ""))
                                 for m in team.members]
        for board in range(1, boards + 1):
            self.fields[f"board_{board}"] = forms.TypedChoiceField(label=f"Board {board}", choices=choices,
                                                                   coerce=int)
        self.boards = boards

    def player_ids(self) -> list[int]:
        return [self.cleaned_data[f"board_{board}"] for board in range(1, self.boards + 1)]


def _next_round(team: selectors.TeamView) -> int:
    locked = [o.round_number for o in team.board_orders if o.locked]
    return max(locked, default=0) + 1


def team_list(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    return render(request, "tournaments/team_list.html",
                  {"tournament": tournament, "teams": selectors.team_list(tournament=tournament)})


def _team_page(request, tournament, team, form=None, error=None, status=200) -> HttpResponse:
    may_set = request.user.is_authenticated and _may_set_order(tournament, team, request.user)
    if form is None and may_set:
        form = BoardOrderForm(team=team, boards=tournament.board_count, initial={"round_number": _next_round(team)})
    return render(request, "tournaments/team_detail.html", {
        "tournament": tournament, "team": team, "form": form if may_set else None, "error": error,
    }, status=status)


def team_detail(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    return _team_page(request, tournament, _team_or_404(tournament, team_id))


@login_required
@require_POST
def team_board_order(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    team = _team_or_404(tournament, team_id)
    if not _may_set_order(tournament, team, request.user):
        return render(request, "tournaments/team_detail.html", {
            "tournament": tournament, "team": team, "form": None,
            "error": "only the team's captain (or the tournament's organiser) may set its board order",
        }, status=403)
    form = BoardOrderForm(request.POST, team=team, boards=tournament.board_count)
    if not form.is_valid():
        return _team_page(request, tournament, team, form=form, status=400)
    try:
        board_order_submit(tournament_id=tournament.pk, team_id=team.team_id, user=request.user,
                           round_number=form.cleaned_data["round_number"], player_ids=form.player_ids())
    except DomainError as error:
        return _team_page(request, tournament, team, form=form, error=error.message,
                          status=getattr(error, "status", 400))
    messages.success(request, f"Board order for round {form.cleaned_data['round_number']} saved.")
    return redirect(reverse("tournaments:team", args=[tournament.pk, team.team_id]))


def team_match(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    try:
        card = selectors.team_match_card(tournament=tournament, pairing_id=pairing_id)
    except Pairing.DoesNotExist:
        raise Http404("no such team match") from None
    return render(request, "tournaments/team_match.html", {"tournament": tournament, "card": card})


urlpatterns = [
    path("<int:tournament_id>/teams/", team_list, name="teams"),
    path("<int:tournament_id>/teams/<int:team_id>/", team_detail, name="team"),
    path("<int:tournament_id>/teams/<int:team_id>/board-order/", team_board_order, name="team_board_order"),
    path("<int:tournament_id>/team-matches/<int:pairing_id>/", team_match, name="team_match"),
]

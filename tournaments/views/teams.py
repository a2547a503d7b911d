"""Pages: a team event's teams, a team's page (members, reserves, board orders; for its captain
and the organiser the roster forms before the draw and the board-order form), and the team match
card showing each board.

Each view parses the request, calls one selector or service, and renders or redirects (POST,
redirect, GET). A refused board order or roster change re-renders the team page with the
service's message and its status (400 bad input, 403 not the captain, 409 locked or drawn);
nothing is saved.

After the draw the team list shows the organiser a late-team form (``entries.team_add_late``); a
refused team re-renders the list with the service's message and its status, nothing saved.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pages import error_status, error_text
from core.text import isolate
from matches.services.matches import player_for_user
from tournaments.forms.event import BoardOrderForm, LateTeamForm, TeamMemberForm
from tournaments.models import Pairing, Team, Tournament
from tournaments.selectors import event, teams
from tournaments.services.common import before_draw, runs
from tournaments.services.entries import team_add_late
from tournaments.services.teams import board_order_submit, team_member_add, team_member_remove

from .event import PAIRING_STATUS


def _tournament_or_404(tournament_id: int) -> Tournament:
    try:
        return event.tournament_get(tournament_id)
    except Tournament.DoesNotExist:
        raise Http404(_("no such event")) from None


def _team_or_404(tournament: Tournament, team_id: int) -> teams.TeamView:
    try:
        return teams.team_get(tournament=tournament, team_id=team_id)
    except Team.DoesNotExist:
        raise Http404(_("no such team")) from None


def _captain_or_organiser(tournament: Tournament, team: teams.TeamView, user) -> bool:
    if runs(tournament, user):
        return True
    player = player_for_user(user)
    return player is not None and player.pk == team.captain_id


def _next_round(team: teams.TeamView) -> int:
    locked = [o.round_number for o in team.board_orders if o.locked]
    return max(locked, default=0) + 1


def _may_add_late(tournament: Tournament, user) -> bool:
    return (runs(tournament, user) and not before_draw(tournament)
            and tournament.status != Tournament.Status.FINISHED)


def _team_list_page(request, tournament, form=None, error=None, status=200) -> HttpResponse:
    may_add = _may_add_late(tournament, request.user)
    if form is None and may_add:
        form = LateTeamForm()
    return render(request, "tournaments/team_list.html", {
        "tournament": tournament, "teams": teams.team_list(tournament=tournament),
        "late_form": form if may_add else None, "error": error,
    }, status=status)


def team_list(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event's teams; after the draw the organiser's late-team form. Public."""
    return _team_list_page(request, _tournament_or_404(tournament_id))


@login_required
@require_POST
def team_add_late_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser enters a team after the draw; see entries.team_add_late. Others get 403."""
    tournament = _tournament_or_404(tournament_id)
    if not runs(tournament, request.user):
        return render(request, "tournaments/team_list.html", {
            "tournament": tournament, "teams": teams.team_list(tournament=tournament), "late_form": None,
            "error": "only the tournament's organiser may enter a team late",
        }, status=403)
    form = LateTeamForm(request.POST)
    if not form.is_valid():
        return _team_list_page(request, tournament, form=form, status=400)
    try:
        team = team_add_late(tournament_id=tournament.pk, user=request.user, **form.service_arguments())
    except DomainError as error:
        return _team_list_page(request, tournament, form=form, error=error_text(error),
                               status=error_status(error))
    messages.success(request, _("%(team)s entered late, as the last seed.") % {"team": isolate(team.name)})
    return redirect(reverse("tournaments:teams", args=[tournament.pk]))


def _member_form(tournament: Tournament, data=None) -> TeamMemberForm:
    return TeamMemberForm(data, prefix="member", players=teams.team_member_candidates(tournament=tournament))


def _team_page(request, tournament, team, form=None, error=None, status=200, member_form=None) -> HttpResponse:
    may_set = request.user.is_authenticated and _captain_or_organiser(tournament, team, request.user)
    if form is None and may_set:
        form = BoardOrderForm(team=team, boards=tournament.board_count, initial={"round_number": _next_round(team)})
    may_manage = may_set and before_draw(tournament)  # the team list is fixed at the draw
    if member_form is None and may_manage:
        member_form = _member_form(tournament)
    return render(request, "tournaments/team_detail.html", {
        "tournament": tournament, "team": team, "form": form if may_set else None, "error": error,
        "may_manage": may_manage, "member_form": member_form if may_manage else None,
    }, status=status)


def _not_captain_page(request, tournament, team, refusal: str) -> HttpResponse:
    return render(request, "tournaments/team_detail.html", {
        "tournament": tournament, "team": team, "form": None,
        "error": refusal,
    }, status=403)


def team_detail(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    """A team: members, reserves and board orders; its captain's and the organiser's forms. Public."""
    tournament = _tournament_or_404(tournament_id)
    return _team_page(request, tournament, _team_or_404(tournament, team_id))


@login_required
@require_POST
def team_board_order(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    """The captain (or the organiser) sets the team's board order for a round; see
    board_order_submit."""
    tournament = _tournament_or_404(tournament_id)
    team = _team_or_404(tournament, team_id)
    if not _captain_or_organiser(tournament, team, request.user):
        return _not_captain_page(request, tournament, team, _(
            "only the team's captain (or the tournament's organiser) may set its board order"))
    form = BoardOrderForm(request.POST, team=team, boards=tournament.board_count)
    if not form.is_valid():
        return _team_page(request, tournament, team, form=form, status=400)
    try:
        board_order_submit(tournament_id=tournament.pk, team_id=team.team_id, user=request.user,
                           round_number=form.cleaned_data["round_number"], player_ids=form.player_ids())
    except DomainError as error:
        return _team_page(request, tournament, team, form=form, error=error_text(error),
                          status=error_status(error))
    messages.success(request, _("Board order for round %(number)d saved.") % {"number": form.cleaned_data["round_number"]})
    return redirect(reverse("tournaments:team", args=[tournament.pk, team.team_id]))


@login_required
@require_POST
def team_member_add_page(request: HttpRequest, tournament_id: int, team_id: int) -> HttpResponse:
    """The captain (or the organiser) adds a member or a reserve before the draw; see
    team_member_add."""
    tournament = _tournament_or_404(tournament_id)
    team = _team_or_404(tournament, team_id)
    if not _captain_or_organiser(tournament, team, request.user):
        return _not_captain_page(request, tournament, team, _(
            "only the team's captain (or the tournament's organiser) may change its members"))
    form = _member_form(tournament, request.POST)
    if not form.is_valid():
        return _team_page(request, tournament, team, member_form=form, status=400)
    try:
        team_member_add(tournament_id=tournament.pk, team_id=team.team_id, user=request.user,
                        **form.service_arguments())
    except DomainError as error:
        return _team_page(request, tournament, team, member_form=form, error=error_text(error),
                          status=error_status(error))
    player, team_name = form.cleaned_data["player"].display_name, team.name
    if form.cleaned_data["reserve"]:
        messages.success(request, _("%(player)s joins %(team)s as a reserve.") % {
            "player": isolate(player), "team": isolate(team_name)})
    else:
        messages.success(request, _("%(player)s joins %(team)s as a member.") % {
            "player": isolate(player), "team": isolate(team_name)})
    return redirect(reverse("tournaments:team", args=[tournament.pk, team.team_id]))


@login_required
@require_POST
def team_member_remove_page(request: HttpRequest, tournament_id: int, team_id: int, player_id: int) -> HttpResponse:
    """The captain (or the organiser) removes a member or a reserve before the draw; see
    team_member_remove."""
    tournament = _tournament_or_404(tournament_id)
    team = _team_or_404(tournament, team_id)
    if not _captain_or_organiser(tournament, team, request.user):
        return _not_captain_page(request, tournament, team, _(
            "only the team's captain (or the tournament's organiser) may change its members"))
    try:
        team_member_remove(tournament_id=tournament.pk, team_id=team.team_id, user=request.user, player_id=player_id)
    except DomainError as error:
        return _team_page(request, tournament, team, error=error_text(error), status=error_status(error))
    name = next((m.name for m in team.members if m.player_id == player_id), None)
    if name is None:
        messages.success(request, _("The player has left %(team)s.") % {"team": isolate(team.name)})
    else:
        messages.success(request, _("%(player)s has left %(team)s.") % {"player": isolate(name), "team": isolate(team.name)})
    return redirect(reverse("tournaments:team", args=[tournament.pk, team.team_id]))


def team_match(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    """A team match card: each board and the team result. Public."""
    tournament = _tournament_or_404(tournament_id)
    try:
        card = teams.team_match_card(tournament=tournament, pairing_id=pairing_id)
    except Pairing.DoesNotExist:
        raise Http404(_("no such team match")) from None
    return render(request, "tournaments/team_match.html", {"tournament": tournament, "card": card,
                                                          "pairing_status": PAIRING_STATUS})


urlpatterns = [
    path("<int:tournament_id>/teams/", team_list, name="teams"),
    path("<int:tournament_id>/teams/late/", team_add_late_page, name="team_add_late"),
    path("<int:tournament_id>/teams/<int:team_id>/", team_detail, name="team"),
    path("<int:tournament_id>/teams/<int:team_id>/members/add/", team_member_add_page, name="team_member_add"),
    path("<int:tournament_id>/teams/<int:team_id>/members/<int:player_id>/remove/", team_member_remove_page,
         name="team_member_remove"),
    path("<int:tournament_id>/teams/<int:team_id>/board-order/", team_board_order, name="team_board_order"),
    path("<int:tournament_id>/team-matches/<int:pairing_id>/", team_match, name="team_match"),
]
